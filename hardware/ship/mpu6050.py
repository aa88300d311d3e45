"""MPU-6050 accelerometer and gyro on I2C (address 0x68), for MicroPython.

Only what the ship needs: wake it, set ±2 g and ±250 °/s with the 44 Hz low-pass filter,
read all six axes in one burst. Takes any object with readfrom_mem_into/writeto_mem
(machine.I2C). `sample()` reads into a buffer kept for it and leaves the raw counts in
ax .. gz: nothing is allocated per read.
"""

ADDRESS = 0x68
PWR_MGMT_1, CONFIG, GYRO_CONFIG, ACCEL_CONFIG, ACCEL_XOUT_H, WHO_AM_I = 0x6B, 0x1A, 0x1B, 0x1C, 0x3B, 0x75
ACCEL_LSB_PER_G = 16384  # at ±2 g
GYRO_LSB_PER_DPS = 131  # at ±250 °/s


def _signed(buf, i):
    value = (buf[i] << 8) | buf[i + 1]
    return value - 65536 if value >= 32768 else value


class MPU6050:
    def __init__(self, i2c, address=ADDRESS):
        self.i2c, self.address = i2c, address
        self._buf = bytearray(14)
        self.ax = self.ay = self.az = self.gx = self.gy = self.gz = 0
        if i2c.readfrom_mem(address, WHO_AM_I, 1)[0] not in (0x68, 0x70, 0x72):
            raise OSError("no MPU-6050 at 0x%02X" % address)
        i2c.writeto_mem(address, PWR_MGMT_1, b"\x01")  # awake, gyro X as the clock
        i2c.writeto_mem(address, CONFIG, b"\x03")  # digital low-pass 44 Hz
        i2c.writeto_mem(address, GYRO_CONFIG, b"\x00")
        i2c.writeto_mem(address, ACCEL_CONFIG, b"\x00")

    def sample(self):
        """Read the six axes as raw counts into ax, ay, az, gx, gy, gz; OSError if it does not answer."""
        b = self._buf
        self.i2c.readfrom_mem_into(self.address, ACCEL_XOUT_H, b)
        self.ax, self.ay, self.az = _signed(b, 0), _signed(b, 2), _signed(b, 4)
        self.gx, self.gy, self.gz = _signed(b, 8), _signed(b, 10), _signed(b, 12)

    def read(self):
        """(ax, ay, az) in g and (gx, gy, gz) in degrees a second; OSError if it does not answer."""
        self.sample()
        return (
            self.ax / ACCEL_LSB_PER_G,
            self.ay / ACCEL_LSB_PER_G,
            self.az / ACCEL_LSB_PER_G,
            self.gx / GYRO_LSB_PER_DPS,
            self.gy / GYRO_LSB_PER_DPS,
            self.gz / GYRO_LSB_PER_DPS,
        )
