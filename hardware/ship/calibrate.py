"""Teach the board at the table (run from the Pi with mpremote, see hardware/SHIP.md):

    mpremote exec "import calibrate; calibrate.level()"        # the ship level on the table
    mpremote exec "import calibrate; calibrate.colour('rain')" # hold raindrops at the hole
    mpremote exec "import calibrate; calibrate.colour('hail')" # then hailstones

Each writes calibration.json on the board; main.py reads it at the next start.
"""

import time

import machine

import calibration
from mpu6050 import ACCEL_LSB_PER_G, GYRO_LSB_PER_DPS, MPU6050
from tcs34725 import TCS34725
from tilt import UNIT, TiltFilter

i2c = machine.I2C(0, sda=machine.Pin(4), scl=machine.Pin(5), freq=400000)


STILL_DPS = 2.0  # standing still, the gyro's readings stay this close to their mean (RMS)


def level(seconds=2):
    """The ship stands level and still: its tilt becomes zero, and what the accelerometer reads
    as 1 g and what the gyro reads (its zero-rate offset) are kept. Moved meanwhile, nothing
    is kept."""
    imu, tilt = MPU6050(i2c), TiltFilter(gyro_share=0)  # the accelerometer alone: the ship stands still
    end = time.ticks_add(time.ticks_ms(), seconds * 1000)
    pitch = roll = g = 0.0
    rates, squares = [0.0, 0.0, 0.0], 0.0
    n = 0
    while time.ticks_diff(end, time.ticks_ms()) > 0:
        imu.sample()
        tilt.update(imu.ax, imu.ay, imu.az, imu.gx, imu.gy, 5)
        pitch, roll, n = pitch + tilt.pitch / UNIT, roll + tilt.roll / UNIT, n + 1
        g += (imu.ax * imu.ax + imu.ay * imu.ay + imu.az * imu.az) ** 0.5 / ACCEL_LSB_PER_G
        for i, rate in enumerate((imu.gx, imu.gy, imu.gz)):
            rate /= GYRO_LSB_PER_DPS
            rates[i] += rate
            squares += rate * rate
        time.sleep_ms(5)
    gyro_zero = [r / n for r in rates]
    spread = max(0.0, squares / n - sum(r * r for r in gyro_zero)) ** 0.5
    if spread > STILL_DPS:
        print(
            "level: the ship moved (the gyro read %.1f degrees a second around its mean): "
            "stand it still and level again; nothing was kept" % spread
        )
        return
    data = calibration.load()
    data["zero_pitch"], data["zero_roll"], data["one_g"] = pitch / n, roll / n, g / n
    data["gyro_zero"] = gyro_zero
    calibration.save(data)
    print(
        "level: pitch %.1f, roll %.1f degrees taken as zero, 1 g reads %.4f g, the gyro reads "
        "%.2f %.2f %.2f degrees a second standing still"
        % (data["zero_pitch"], data["zero_roll"], data["one_g"], gyro_zero[0], gyro_zero[1], gyro_zero[2])
    )


def colour(kind, samples=5):
    sensor = TCS34725(i2c)
    readings = []
    print("hold a %s at the hole, %d times; take it away in between" % (kind, samples))
    while len(readings) < samples:
        reading = sensor.read()
        if reading[3] > 200:  # something in front of the sensor
            readings.append(reading)
            print("  got %d of %d: %s" % (len(readings), samples, reading))
            while sensor.read()[3] > 150:
                time.sleep_ms(20)
        time.sleep_ms(20)
    data = calibration.teach_colour(calibration.load(), kind, readings)
    calibration.save(data)
    print("%s taught: %s" % (kind, data[kind]))
