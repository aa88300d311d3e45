"""The cloud ship's serial protocol, version 1 (docs: hardware/PROTOCOL.md).

One message a line: ``$TYPE,SEQ,T,FIELD,...*CS`` with CS the XOR of the bytes between ``$`` and
``*`` as two hex digits (as in NMEA 0183).

This very file runs on the ship's Pico too: the flashing step copies it to the board as
``protocol.py`` and the firmware imports it from there. So it is written for MicroPython as well
as CPython: no dataclasses, no annotations, no imports, plain ``%`` formatting.
"""

VERSION = "1"
MAX_LINE = 80  # characters from "$" to the last checksum digit
SEQ_MODULO = 65536
KINDS = ("rain", "hail")

# For each TYPE, what its fields after SEQ,T are: "s" a signed integer, "u" an unsigned
# integer, "t" text (may be empty), "k" a ball kind.
LAYOUTS = {
    "HELLO": "ttt",  # PROTO, DEVICE, FIRMWARE: the same in every version of the protocol
    "TILT": "ssu",  # PITCH, ROLL (tenths of a degree), MOTION (milli-g)
    "BALL": "k",  # KIND
    "BEAT": "u",  # BATTERY_MV
    "ERR": "tt",  # CODE, TEXT
}

_HEX = "0123456789abcdefABCDEF"


class ProtocolError(ValueError):
    """A line that is not a valid message; ``why`` is ``format``, ``too_long`` or ``checksum``."""

    def __init__(self, why):
        super().__init__(why)  # MicroPython's ValueError has no __init__ to call by name
        self.why = why


def checksum(body):
    """The XOR of the characters of ``body`` (the text between ``$`` and ``*``)."""
    cs = 0
    for byte in body.encode():  # bytes iterate as ints on CPython and MicroPython alike
        cs ^= byte
    return cs


def encode(kind, seq, t, fields):
    """The line for one message, without the line end, e.g. ``$BALL,118,53021,rain*36``."""
    parts = [kind, str(seq % SEQ_MODULO), str(t)]
    for value in fields:
        parts.append(str(value))
    body = ",".join(parts)
    return "$%s*%02X" % (body, checksum(body))


def _integer(text, signed):
    """The value of a decimal field, or None when it is not one."""
    negative = signed and text[:1] == "-"
    digits = text[1:] if negative else text
    if not digits.isdigit():  # the line is printable ASCII by now: isdigit means 0-9
        return None
    return -int(digits) if negative else int(digits)


def decode(line):
    """``(TYPE, SEQ, T, fields)`` for a line as read (one trailing ``\\r`` allowed).

    Integers come back as ints, text as str. Raises ProtocolError with the first reason in the
    contract's order: format (bad character), too_long, format (shape), checksum, format (fields).
    """
    if line[-1:] == "\r":
        line = line[:-1]
    # min and max run at C speed on both Pythons: every character within " " .. "~"
    if line and (min(line) < " " or max(line) > "~"):
        raise ProtocolError("format")
    n = len(line)
    if n > MAX_LINE:
        raise ProtocolError("too_long")
    if n < 5 or line[0] != "$" or line[n - 3] != "*" or line[n - 2] not in _HEX or line[n - 1] not in _HEX:
        raise ProtocolError("format")
    body = line[1 : n - 3]
    if "$" in body or "*" in body:
        raise ProtocolError("format")
    if checksum(body) != int(line[n - 2 :], 16):
        raise ProtocolError("checksum")
    parts = body.split(",")
    layout = LAYOUTS.get(parts[0])
    if layout is None or len(parts) != len(layout) + 3:
        raise ProtocolError("format")
    seq = _integer(parts[1], False)
    t = _integer(parts[2], False)
    if seq is None or seq >= SEQ_MODULO or t is None:
        raise ProtocolError("format")
    fields = []
    for i in range(len(layout)):
        text = parts[i + 3]
        how = layout[i]
        if how == "t":
            fields.append(text)
        elif how == "k":
            if text not in KINDS:
                raise ProtocolError("format")
            fields.append(text)
        else:
            value = _integer(text, how == "s")
            if value is None:
                raise ProtocolError("format")
            fields.append(value)
    return parts[0], seq, t, fields
