"""The cloud ship's board: a Raspberry Pi Pico running MicroPython (hardware/SHIP.md).

Wiring (Pico GP numbers): I2C0 SDA GP4, SCL GP5 (MPU-6050 and TCS34725); break-beam receiver
GP15 (low while a ball breaks the beam); battery through a 100k/100k divider on GP26 (ADC0);
Bluetooth serial module on UART0 TX GP0, RX GP1. Every line goes to the USB serial port and to
the Bluetooth module both, each with a queue of its own: a port that does not take its lines
(a host that holds USB open without reading) never holds up the loop or the other port.

All the logic is in ship.py and the modules it imports (shipped compiled, as .mpy); this file
only wires the hardware and runs the loop.
"""

import select
import sys
import time

import machine

import calibration
from clock import Clock
from messages import DEVICE_PREFIX, Outbox, Port
from ship import Ship

UART_TX_BUFFER = 256

i2c = machine.I2C(0, sda=machine.Pin(4), scl=machine.Pin(5), freq=400000)
beam_pin = machine.Pin(15, machine.Pin.IN, machine.Pin.PULL_UP)
battery_adc = machine.ADC(26)
uart = machine.UART(0, baudrate=115200, tx=machine.Pin(0), rx=machine.Pin(1), txbuf=UART_TX_BUFFER)
led = machine.Pin("LED", machine.Pin.OUT)

USB_STEP_BYTES = 8  # a byte a poll: a step writes a few, the lines need about one a step

usb = sys.stdout.buffer
usb_poll = select.poll()
usb_poll.register(sys.stdout, select.POLLOUT)
usb_ready = getattr(usb_poll, "ipoll", usb_poll.poll)  # ipoll allocates nothing


def usb_room():
    # the USB port takes a byte without waiting when it polls writable (one byte: it may have
    # room for no more, and a longer write waits up to half a second for the host)
    for _event in usb_ready(0):
        return 1
    return 0


def uart_room():
    return UART_TX_BUFFER if uart.txdone() else 0


if sys.implementation.name == "micropython":
    usb_write, uart_write = usb.write, uart.write  # write(buf, offset, n)
else:  # CPython, on the board host: its streams take no offset

    def usb_write(buf, offset, n):
        usb.write(memoryview(buf)[offset : offset + n])

    uart_write = uart.write


class Missing:
    """A sensor that did not answer at start: every read fails, so the board reports it."""

    def read(self):
        raise OSError("missing")

    def sample(self):
        raise OSError("missing")


def open_sensor(kind):
    try:
        return kind(i2c)
    except OSError:
        return Missing()


def battery_mv():
    # 3.3 V full scale at 16 bits, halved by the divider
    return battery_adc.read_u16() * 3300 * 2 // 65535


def main():
    from mpu6050 import MPU6050
    from tcs34725 import TCS34725

    device = DEVICE_PREFIX + "".join("%02X" % b for b in machine.unique_id()[-2:])
    colour = open_sensor(TCS34725)
    out = Outbox(device, [Port(usb_room, usb_write, USB_STEP_BYTES), Port(uart_room, uart_write)])
    ship = Ship(out, open_sensor(MPU6050), lambda: beam_pin.value() == 0, colour.read, battery_mv, calibration.load())
    # one time base: the time since this start, however long the Pico has been on (a soft
    # reset keeps its clock running)
    clock = Clock()
    last = time.ticks_ms()
    ship.start(0)
    while True:
        now = time.ticks_ms()
        clock.advance(time.ticks_diff(now, last))
        last = now
        out.laps = clock.laps
        ship.step(clock.ms)
        led.value((clock.ms // 500) % 2)  # a slow blink: the loop runs
        time.sleep_ms(1)


main()
