"""Which processor the app's Python runs on, as its wheels see it (standard library only: the
installer uses it before any venv exists).

32-bit Raspberry Pi OS on a Pi 3, 4 or 5 often runs a 64-bit kernel: the kernel says aarch64
while every program, Python included, is 32-bit armhf. Wheels follow the programs, not the
kernel, so the machine is told from Python's own pointer size.
"""

from __future__ import annotations

import platform
import sys

ARM_32 = ("armv7l", "armv8l")  # 32-bit ARM that Debian's armhf (ARMv7) and PyPI's armv7l wheels run on
ARM_OLD = ("armv6l",)  # a Pi 1 or Zero W: older than anything the app's wheels are built for


def userland(machine: str | None = None, bits: int | None = None) -> str:
    """The processor the programs are built for: 'x86_64', 'aarch64', 'armv7l', 'armv6l', ..."""
    machine = machine or platform.machine()
    bits = bits or (64 if sys.maxsize > 2**32 else 32)
    if bits == 32 and machine in ("aarch64", "armv8l"):
        return "armv7l"  # 32-bit Pi OS on a 64-bit kernel
    if bits == 32 and machine == "x86_64":
        return "i686"
    return machine


def is_32bit_arm(machine: str | None = None, bits: int | None = None) -> bool:
    return userland(machine, bits) in ARM_32


def describe(machine: str | None = None, bits: int | None = None) -> str:
    """'armv7l (32-bit, kernel aarch64)': the programs' processor, and the kernel's where it differs."""
    kernel = machine or platform.machine()
    bits = bits or (64 if sys.maxsize > 2**32 else 32)
    own = userland(kernel, bits)
    return f"{own} ({bits}-bit" + ("" if own == kernel else f", kernel {kernel}") + ")"
