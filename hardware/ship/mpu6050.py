"""MPU-6050 accelerometer and gyro on I2C (address 0x68), for MicroPython.

Only what the ship needs: wake it, set ±2 g and ±250 °/s with the 44 Hz low-pass filter,
read all six axes in one burst. Takes any object with readfrom_mem/writeto_mem (machine.I2C).
"""

import struct

ADDRESS = 0x68
PWR_MGMT_1, CONFIG, GYRO_CONFIG, ACCEL_CONFIG, ACCEL_XOUT_H, WHO_AM_I = 0x6B, 0x1A, 0x1B, 0x1C, 0x3B, 0x75
ACCEL_LSB_PER_G = 16384.0   # at ±2 g
GYRO_LSB_PER_DPS = 131.0    # at ±250 °/s


class MPU6050:
    def __init__(self, i2c, address=ADDRESS):
        self.i2c, self.address = i2c, address
        if i2c.readfrom_mem(address, WHO_AM_I, 1)[0] not in (0x68, 0x70, 0x72):
            raise OSError("no MPU-6050 at 0x%02X" % address)
        i2c.writeto_mem(address, PWR_MGMT_1, b"\x01")   # awake, gyro X as the clock
        i2c.writeto_mem(address, CONFIG, b"\x03")       # digital low-pass 44 Hz
        i2c.writeto_mem(address, GYRO_CONFIG, b"\x00")
        i2c.writeto_mem(address, ACCEL_CONFIG, b"\x00")

    def read(self):
        """(ax, ay, az) in g and (gx, gy, gz) in degrees a second; OSError if it does not answer."""
        raw = self.i2c.readfrom_mem(self.address, ACCEL_XOUT_H, 14)
        ax, ay, az, _temp, gx, gy, gz = struct.unpack(">hhhhhhh", raw)
        return (ax / ACCEL_LSB_PER_G, ay / ACCEL_LSB_PER_G, az / ACCEL_LSB_PER_G,
                gx / GYRO_LSB_PER_DPS, gy / GYRO_LSB_PER_DPS, gz / GYRO_LSB_PER_DPS)
