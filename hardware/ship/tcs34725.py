"""TCS34725 colour sensor on I2C (address 0x29), for MicroPython.

Set for a ball passing in a few milliseconds: 2.4 ms integration, 16x gain, its own white LED
lit (its LED pin tied to INT, or to 3V3 through the board's jumper). Takes machine.I2C.
"""

import struct

ADDRESS = 0x29
COMMAND = 0x80 | 0x20  # auto-increment
ENABLE, ATIME, CONTROL, ID, CDATAL = 0x00, 0x01, 0x0F, 0x12, 0x14


class TCS34725:
    def __init__(self, i2c, address=ADDRESS):
        self.i2c, self.address = i2c, address
        if i2c.readfrom_mem(address, COMMAND | ID, 1)[0] not in (0x44, 0x4D):
            raise OSError("no TCS34725 at 0x%02X" % address)
        i2c.writeto_mem(address, COMMAND | ATIME, b"\xff")  # 2.4 ms
        i2c.writeto_mem(address, COMMAND | CONTROL, b"\x02")  # gain 16x
        i2c.writeto_mem(address, COMMAND | ENABLE, b"\x03")  # power on, ADC on

    def read(self):
        """(r, g, b, clear) raw counts; OSError if it does not answer."""
        c, r, g, b = struct.unpack("<HHHH", self.i2c.readfrom_mem(self.address, COMMAND | CDATAL, 8))
        return (r, g, b, c)
