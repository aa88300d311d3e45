"""A stand-in for MicroPython's `machine` module on the Raspberry Pi Pico, for the board host
(runs under MicroPython's unix port and under CPython alike, and allocates nothing per read).

The sensors are faked at the bus: `I2C` answers the MPU-6050's and the TCS34725's register reads
from the current sample (boardclock.SAMPLE, set by the host through the fake clock), `Pin(15)`
is the break-beam receiver (low while blocked), `ADC(26)` the battery divider. `UART` is the
Bluetooth module: what it is given goes to the host's Bluetooth pipe, and it models the Pico's
256-byte transmit buffer draining at its baud rate, counting the writes that would have waited.
"""

import sys

import boardclock

MICROPYTHON = sys.implementation.name == "micropython"
MPU_ADDRESS, TCS_ADDRESS = 0x68, 0x29
MPU_WHO_AM_I, MPU_DATA = 0x75, 0x3B
TCS_COMMAND = 0xA0
TCS_ID, TCS_DATA = 0x12, 0x14
BEAM_PIN, BATTERY_ADC = 15, 26
UART_TX_BUFFER = 256

_stats = boardclock.STATS


def unique_id():
    return b"\xe6\x61\x4c\x43\x4f\x2a"


class Pin:
    IN, OUT, PULL_UP, PULL_DOWN = 0, 1, 1, 2

    def __init__(self, pin, mode=-1, pull=-1, value=None):
        self.pin = pin
        self._value = value or 0

    def value(self, value=None):
        if value is not None:
            self._value = value
            return None
        if self.pin == BEAM_PIN:
            return 0 if boardclock.SAMPLE[boardclock.FLAGS] & boardclock.BEAM else 1
        return self._value

    def __call__(self, value=None):
        return self.value(value)

    def on(self):
        self._value = 1

    def off(self):
        self._value = 0

    def toggle(self):
        self._value = 1 - self._value


class ADC:
    def __init__(self, pin):
        self.pin = pin

    def read_u16(self):
        # the divider halves the cell: 3.3 V full scale is 65535
        mv = boardclock.SAMPLE[boardclock.BATTERY]
        return min(65535, (mv * 65535 + 6599) // 6600)


class I2C:
    def __init__(self, bus, sda=None, scl=None, freq=400000):
        self.bus = bus
        self.written = []

    def scan(self):
        flags = boardclock.SAMPLE[boardclock.FLAGS]
        found = []
        if not flags & boardclock.NO_COLOUR:
            found.append(TCS_ADDRESS)
        if not flags & boardclock.NO_IMU:
            found.append(MPU_ADDRESS)
        return found

    def _device(self, address):
        flags = boardclock.SAMPLE[boardclock.FLAGS]
        if address == MPU_ADDRESS and not flags & boardclock.NO_IMU:
            return MPU_ADDRESS
        if address == TCS_ADDRESS and not flags & boardclock.NO_COLOUR:
            return TCS_ADDRESS
        raise OSError(19)  # ENODEV: no acknowledgement on the bus

    def _fill(self, address, register, buf, n):
        device = self._device(address)
        sample = boardclock.SAMPLE
        if device == MPU_ADDRESS:
            if register == MPU_WHO_AM_I:
                buf[0] = 0x68
                return
            if register == MPU_DATA and n == 14:
                # the firmware's burst, spelled out: the bytes of the loop below, a few times faster
                a, g = boardclock.ACCEL, boardclock.GYRO
                v = sample[a] & 0xFFFF
                buf[0], buf[1] = v >> 8, v & 0xFF
                v = sample[a + 1] & 0xFFFF
                buf[2], buf[3] = v >> 8, v & 0xFF
                v = sample[a + 2] & 0xFFFF
                buf[4], buf[5] = v >> 8, v & 0xFF
                buf[6], buf[7] = 0, 0
                v = sample[g] & 0xFFFF
                buf[8], buf[9] = v >> 8, v & 0xFF
                v = sample[g + 1] & 0xFFFF
                buf[10], buf[11] = v >> 8, v & 0xFF
                v = sample[g + 2] & 0xFFFF
                buf[12], buf[13] = v >> 8, v & 0xFF
                return
            for i in range(n):  # 0x3B..0x48: accel X Y Z, temperature, gyro X Y Z, big-endian
                index = register - MPU_DATA + i
                word = index // 2
                if word == 3:
                    value = 0  # the temperature: the firmware does not use it
                elif word < 3:
                    value = sample[boardclock.ACCEL + word]
                else:
                    value = sample[boardclock.GYRO + word - 4]
                value &= 0xFFFF
                buf[i] = (value >> 8) & 0xFF if index % 2 == 0 else value & 0xFF
            return
        register &= 0x1F
        if register == TCS_ID:
            buf[0] = 0x44
            return
        for i in range(n):  # 0x14..0x1B: clear, red, green, blue, little-endian
            index = register - TCS_DATA + i
            word = index // 2
            value = sample[boardclock.COLOUR + (word + 3) % 4]  # the sample is r, g, b, clear
            buf[i] = value & 0xFF if index % 2 == 0 else (value >> 8) & 0xFF

    def readfrom_mem(self, address, register, n):
        buf = bytearray(n)
        self._fill(address, register, buf, n)
        return bytes(buf)

    def readfrom_mem_into(self, address, register, buf):
        started = boardclock.host_started()
        try:
            self._fill(address, register, buf, len(buf))
        finally:
            boardclock.host_done(started)

    def writeto_mem(self, address, register, data):
        self._device(address)
        self.written.append((address, register, bytes(data)))


class UART:
    def __init__(self, uart, baudrate=9600, tx=None, rx=None, **settings):
        self.bytes_per_s = baudrate // 10  # 8N1: ten bits a byte
        self._queued = 0  # bytes in the transmit buffer
        self._at_us = 0
        self._out = boardclock.uart_stream()

    def _drain(self):
        now = boardclock.now_us()
        sent = (now - self._at_us) * self.bytes_per_s // 1000000
        if sent:
            self._queued = max(0, self._queued - sent)
            self._at_us = now
        if not self._queued:
            self._at_us = now

    def write(self, data, offset=0, n=-1):
        """As MicroPython's streams: write(buf) or write(buf, offset, n)."""
        started = boardclock.host_started()
        try:
            return self._write(data, offset, n)
        finally:
            boardclock.host_done(started)

    def _write(self, data, offset, n):
        if isinstance(data, str):
            data = data.encode()
        if n < 0:
            n = len(data) - offset
        self._drain()
        if self._queued + n > UART_TX_BUFFER:
            _stats[boardclock.UART_WAITS] += 1  # the real one would wait here for room
        self._queued = min(UART_TX_BUFFER, self._queued + n)
        if self._out is not None:
            if offset == 0 and n == len(data):
                self._out.write(data)
            elif MICROPYTHON:
                self._out.write(data, offset, n)  # nothing allocated, as on the Pico
            else:
                self._out.write(memoryview(data)[offset : offset + n])
        return n

    def txdone(self):
        self._drain()
        return self._queued == 0

    def any(self):
        return 0

    def read(self, n=-1):
        return None
