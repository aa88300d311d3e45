"""The lines the board sends (MicroPython and CPython), encoded by the protocol module that the
companion uses too: `protocol.py` is copied onto the board from companion/ship/protocol.py when
it is flashed, never kept here as a copy."""

import protocol

DEVICE_PREFIX = "CS-"
FIRMWARE = "0.3.1"


class Outbox:
    def __init__(self, write, device):
        self.write = write  # write(str): the USB serial port and the Bluetooth UART
        self.device = device
        self.seq = 0

    def send(self, kind, t_ms, fields):
        self.write(protocol.encode(kind, self.seq, t_ms, fields) + "\r\n")
        self.seq = (self.seq + 1) % protocol.SEQ_MODULO

    def hello(self, t_ms):
        self.seq = 0
        self.send("HELLO", t_ms, [protocol.VERSION, self.device, FIRMWARE])

    def tilt(self, t_ms, pitch, roll, motion):
        self.send("TILT", t_ms, [pitch, roll, motion])

    def ball(self, t_ms, kind):
        self.send("BALL", t_ms, [kind])

    def beat(self, t_ms, battery_mv):
        self.send("BEAT", t_ms, [battery_mv])

    def err(self, t_ms, code, text):
        # the protocol's text fields cannot hold "$", "*" or ","
        clean = "".join(ch for ch in text if ch not in "$*," and " " <= ch <= "~")
        self.send("ERR", t_ms, [code, clean[:40]])
