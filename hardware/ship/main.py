"""The cloud ship's board: a Raspberry Pi Pico running MicroPython (hardware/SHIP.md).

Wiring (Pico GP numbers): I2C0 SDA GP4, SCL GP5 (MPU-6050 and TCS34725); break-beam receiver
GP15 (low while a ball breaks the beam); battery through a 100k/100k divider on GP26 (ADC0);
Bluetooth serial module on UART0 TX GP0, RX GP1. Every line goes to the USB serial port and to
the Bluetooth module both: the Pi reads whichever is connected.

All the logic is in ship.py and the modules it imports; this file only wires the hardware.
"""

import sys
import time

import machine

import calibration
from messages import DEVICE_PREFIX, Outbox
from ship import Ship

i2c = machine.I2C(0, sda=machine.Pin(4), scl=machine.Pin(5), freq=400000)
beam_pin = machine.Pin(15, machine.Pin.IN, machine.Pin.PULL_UP)
battery_adc = machine.ADC(26)
uart = machine.UART(0, baudrate=115200, tx=machine.Pin(0), rx=machine.Pin(1))
led = machine.Pin("LED", machine.Pin.OUT)


def write(text):
    sys.stdout.write(text)
    uart.write(text)


class Missing:
    """A sensor that did not answer at start: every read fails, so the board reports it."""

    def read(self):
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
    ship = Ship(Outbox(write, device), open_sensor(MPU6050), lambda: beam_pin.value() == 0,
                colour.read, battery_mv, calibration.load())
    ship.start(time.ticks_ms())
    started = time.ticks_ms()
    while True:
        now = time.ticks_diff(time.ticks_ms(), started)
        ship.step(now)
        led.value((now // 500) % 2)  # a slow blink: the loop runs
        time.sleep_ms(1)


main()
