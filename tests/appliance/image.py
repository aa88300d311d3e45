"""The Debian roots the boot test starts from, built once and kept in build/appliance/<suite>/.

A suite is a Debian release and the processor it is built for: `trixie` (x86_64, this machine's
own), `trixie-arm64` (aarch64: 64-bit Raspberry Pi OS, a Pi 3, 4, 5 or Zero 2 W) and
`trixie-armhf` (32-bit Raspberry Pi OS), the same for Bookworm. An ARM root is built through
binfmt_misc and QEMU's user-mode emulator (qemu-user-static), and booted by qemu-system-aarch64
or qemu-system-arm on its `virt` board with the Pi's own core.

A root is what a freshly written Raspberry Pi OS Lite card holds, as far as a PC can have it:
Debian's own kernel (booted by QEMU with -kernel/-initrd), systemd, python3, and the Debian
packages the installer asks for. Two things exist only on a Pi; the test stands in for them:
`python3-lgpio` (the Raspberry Pi archive's package: here an empty package of that name, as on
x86_64 the app runs on gpiozero's simulated pins anyway) and /boot/firmware/config.txt (Pi OS's
own, so the installer's display step runs for real).
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROJECT = HERE.parents[1]
sys.path.insert(0, str(PROJECT))
from companion.appliance import install, wheelhouse  # noqa: E402

RELEASES = ("bookworm", "trixie")
SUITES = RELEASES  # what `make appliance-test` boots unless told (ARCH=arm64: the arm64 ones)


@dataclass(frozen=True)
class Arch:
    """A processor the boot test builds a root for and boots."""

    debian: str  # Debian's name (debootstrap --arch)
    kernel: str  # Debian's kernel package for QEMU's board
    qemu: tuple[str, ...]  # the emulator and its board and core
    console: str  # the serial console the board has
    platform: str  # pip's platform tag for the bundle's wheels
    slow: float = 1.0  # how much longer than x86_64's a wait may take (an ARM guest under TCG)
    bits: int = 64

    @property
    def machine(self) -> str:
        """What Python's platform.machine() says there."""
        return {"amd64": "x86_64", "arm64": "aarch64", "armhf": "armv7l"}[self.debian]


ARCHES = {
    "amd64": Arch(
        "amd64",
        "linux-image-amd64",
        ("qemu-system-x86_64", "-machine", "pc", "-cpu", "max"),
        "ttyS0",
        "manylinux2014_x86_64",
    ),
    # a Pi 4's core (Cortex-A72); a Pi 3's and a Zero 2's is the A53, a Pi 5's the A76
    "arm64": Arch(
        "arm64",
        "linux-image-arm64",
        ("qemu-system-aarch64", "-machine", "virt", "-cpu", "cortex-a72"),
        "ttyAMA0",
        "manylinux2014_aarch64",
        3.0,
    ),
    # 32-bit Pi OS runs on a Pi 2's Cortex-A7 (and the A53 and A72 in 32-bit mode); QEMU's virt
    # board has the A15, the A7's bigger sibling of the same architecture (ARMv7-A with LPAE)
    "armhf": Arch(
        "armhf",
        "linux-image-armmp-lpae",
        ("qemu-system-arm", "-machine", "virt,highmem=off", "-cpu", "cortex-a15"),
        "ttyAMA0",
        "linux_armv7l",
        3.0,
        32,
    ),
}


def split(suite: str) -> tuple[str, Arch]:
    """'trixie-arm64' -> ('trixie', arm64); a bare release is this machine's own x86_64."""
    release, _, arch = suite.partition("-")
    if release not in RELEASES or (arch or "amd64") not in ARCHES:
        raise SystemExit(
            f"cloud-companion: no such suite {suite!r}: say a release ({', '.join(RELEASES)}), "
            f"optionally with -arm64 or -armhf"
        )
    return release, ARCHES[arch or "amd64"]


def suites_for(arch: str) -> tuple[str, ...]:
    """The suites `ARCH=...` names: every release for that processor."""
    if arch not in ("", "amd64", *ARCHES):
        raise SystemExit(f"cloud-companion: ARCH={arch} is not one of amd64, arm64, armhf")
    return tuple(r if arch in ("", "amd64") else f"{r}-{arch}" for r in RELEASES)


# what Pi OS Lite has that a minimal Debian lacks: the kernel, systemd's login manager (polkit
# needs it), D-Bus, sudo, make, and the tools the test uses (mount a stick, fill the disk)
BASE = (
    "systemd-sysv",
    "udev",
    "dbus",
    "libpam-systemd",
    "kmod",
    "sudo",
    "make",
    "procps",
    "iproute2",
    "dosfstools",
    "exfatprogs",
    "e2fsprogs",
    "util-linux",
    "python3",
)
# Raspberry Pi OS's config.txt (Bookworm and Trixie ship the same lines)
PI_CONFIG_TXT = """\
# For more options and information see
# http://rptl.io/configtxt
# Some settings may impact device functionality. See link above for details

# Uncomment some or all of these to enable the optional hardware interfaces
#dtparam=i2c_arm=on
#dtparam=i2s=on
#dtparam=spi=on

# Enable audio (loads snd_bcm2835)
dtparam=audio=on

# Automatically load overlays for detected cameras
camera_auto_detect=1

# Automatically load overlays for detected DSI displays
display_auto_detect=1

# Automatically load initramfs files, if found
auto_initramfs=1

# Enable DRM VC4 V3D driver
dtoverlay=vc4-kms-v3d
max_framebuffers=2

# Don't have the firmware create an initial video= setting in cmdline.txt.
# Use the kernel's default instead.
disable_fw_kms_setup=1

# Run in 64-bit mode
arm_64bit=1

# Disable compensation for displays with overscan
disable_overscan=1

# Run as fast as firmware / board allows
arm_boost=1

[cm4]
# Enable host mode on the 2711 built-in XHCI USB controller.
# This line should be removed if the legacy DWC2 controller is required
# (e.g. for USB device mode) or if USB-C serial console support is required.
otg_mode=1

[cm5]
dtoverlay=dwc2,dr_mode=host

[all]
"""


def packages(arch: Arch) -> list[str]:
    """Every Debian package the installer asks for, but the Pi-only python3-lgpio."""
    return [arch.kernel, *BASE, *(p for p in install.packages(arch.machine, arch.bits) if p != "python3-lgpio")]


run, chroot = wheelhouse.run, wheelhouse.chroot


def boot_modules(root: Path) -> None:
    """The virtio disk and network drivers in the initramfs, named: an armhf root's initramfs
    built here left virtio_blk out, and its kernel never found the disk."""
    with open(root / "etc" / "initramfs-tools" / "modules", "a") as modules:
        modules.write("virtio_blk\nvirtio_net\n")
    chroot(root, "update-initramfs -u -k all >/dev/null 2>&1")


def stand_in_lgpio(root: Path) -> None:
    """An empty python3-lgpio package: apt and dpkg see it installed, as on Raspberry Pi OS."""
    pkg = root / "tmp" / "python3-lgpio"
    (pkg / "DEBIAN").mkdir(parents=True, exist_ok=True)
    (pkg / "DEBIAN" / "control").write_text(
        "Package: python3-lgpio\nVersion: 0.2.2-0stand.in\nArchitecture: all\nMaintainer: boot test <test@localhost>\n"
        "Description: stands in for the Raspberry Pi archive's lgpio in the boot test\n"
    )
    run("dpkg-deb", "--build", str(pkg), str(root / "tmp" / "python3-lgpio.deb"), stdout=subprocess.DEVNULL)
    chroot(root, "dpkg -i /tmp/python3-lgpio.deb >/dev/null; rm -rf /tmp/python3-lgpio*")


def configure(root: Path, suite: str) -> None:
    _, arch = split(suite)
    (root / "etc" / "hostname").write_text(f"cc-{suite}\n")
    (root / "etc" / "hosts").write_text(f"127.0.0.1 localhost\n127.0.1.1 cc-{suite}\n")  # as Pi OS has it
    (root / "etc" / "fstab").write_text("/dev/vda / ext4 defaults 0 1\n")
    getty = root / "etc" / "systemd" / "system" / f"serial-getty@{arch.console}.service.d"
    getty.mkdir(parents=True, exist_ok=True)
    (getty / "autologin.conf").write_text(
        "[Service]\nExecStart=\nExecStart=-/sbin/agetty --autologin root --noclear %I 115200 dumb\n"
    )
    firmware = root / "boot" / "firmware"
    firmware.mkdir(parents=True, exist_ok=True)
    (firmware / "config.txt").write_text(PI_CONFIG_TXT)
    chroot(
        root,
        f"echo root:root | chpasswd; systemctl enable serial-getty@{arch.console}.service >/dev/null 2>&1;"
        "systemctl mask systemd-timesyncd.service apt-daily.timer apt-daily-upgrade.timer >/dev/null 2>&1 || true",
    )


def build_root(suite: str, folder: Path) -> Path:
    """folder/root, made once (about 5 minutes): debootstrap, then the packages through apt."""
    root = folder / "root"
    release, arch = split(suite)
    wheelhouse.enable_binfmt(arch.debian)  # also for a root built before: the install and the tests chroot into it
    if (root / ".complete").exists():
        return root
    tmp = wheelhouse.debootstrap(release, arch.debian, folder, f"the {suite} root")
    (tmp / "usr" / "sbin" / "policy-rc.d").write_text("#!/bin/sh\nexit 101\n")  # no daemons start in the chroot
    (tmp / "usr" / "sbin" / "policy-rc.d").chmod(0o755)
    with wheelhouse.Mounted(tmp):
        chroot(
            tmp,
            "apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends "
            + " ".join(packages(arch))
            + " >/dev/null && apt-get clean",
        )
        boot_modules(tmp)
    (tmp / "usr" / "sbin" / "policy-rc.d").unlink()
    stand_in_lgpio(tmp)
    configure(tmp, suite)
    (tmp / ".complete").write_text(suite + "\n")
    tmp.rename(root)
    return root


def base_image(suite: str, folder: Path) -> Path:
    """folder/base.img: the root on a raw ext4 disk (never written by a boot: each boot uses an overlay)."""
    image = folder / "base.img"
    root = build_root(suite, folder)
    if image.exists() and image.stat().st_mtime >= (root / ".complete").stat().st_mtime:
        return image
    tmp = image.with_suffix(".tmp")
    run("mkfs.ext4", "-q", "-F", "-L", "rootfs", "-d", str(root), str(tmp), "4G")
    tmp.rename(image)
    return image


def kernel(folder: Path) -> tuple[Path, Path]:  # Debian's names on every processor
    boot = folder / "root" / "boot"
    return sorted(boot.glob("vmlinuz-*"))[-1], sorted(boot.glob("initrd.img-*"))[-1]


if __name__ == "__main__":  # python3 tests/appliance/image.py trixie-arm64: build that root now
    for name in sys.argv[1:] or SUITES:
        print(base_image(name, PROJECT / "build" / "appliance" / name))
