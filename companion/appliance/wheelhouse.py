"""The wheel PyPI lacks for 32-bit Raspberry Pi OS, built once in a Debian root of it.

    sudo python3 -m companion.appliance.wheelhouse OUT [--release trixie]

pygame-ce publishes no armv7l wheel, so on 32-bit Pi OS `pip install` would compile it from
source: SDL's headers, a compiler and many minutes on a Pi, or a failure. Every other library the
app needs has an armv7l wheel on PyPI. So the release bundle for 32-bit Pi OS (`make bundle
ARCH=armhf`) carries a pygame-ce wheel built here, on a PC, in an armhf Debian root (debootstrap;
its programs run through QEMU's user-mode emulator and binfmt_misc) against that release's own
SDL 2: a Pi never compiles. Such a wheel links the system's SDL libraries instead of bundling
them, so the installer adds those (install.SDL_PACKAGES) on 32-bit Pi OS. Needs root, debootstrap
and qemu-user-static.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]
MIRROR = os.environ.get("DEBIAN_MIRROR", "http://deb.debian.org/debian")
PYTHONS = {"bookworm": "3.11", "trixie": "3.13"}  # Raspberry Pi OS's Python on each release
# what building pygame-ce from its sdist needs (meson-python takes Debian's ninja and patchelf
# rather than building its own under emulation)
BUILD_PACKAGES = (
    "python3-dev",
    "python3-venv",
    "gcc",
    "g++",
    "pkg-config",
    "ninja-build",
    "patchelf",
    "ca-certificates",
    "libsdl2-dev",
    "libsdl2-image-dev",
    "libsdl2-mixer-dev",
    "libsdl2-ttf-dev",
    "libfreetype-dev",
    "libportmidi-dev",
)
# the app needs none of pygame's own docs, examples and tests (its 2.5.8 builds pygame.midi
# even when told not to: so portmidi is there)
MESON_OPTIONS = ("stripped=true",)
# pygame-ce runs its SSE2 blitters on 32-bit ARM through sse2neon, whose 64-bit stores to a pixel
# pointer carry a 64-bit alignment hint (vst1.64 [rN:64]). A pixel is only 4-byte aligned, and
# ARMv7 answers such a store with a bus error the kernel cannot fix up: an alpha blit at an odd
# pixel killed the process. pygame-ce has no switch for them; its meson.build defines
# PG_ENABLE_ARM_NEON for every file, and the user's c_args come after that, so they undefine it:
# the blits take pygame-ce's plain C path. The built wheel is then asked which path it has.
NEON_OFF = "c_args=-UPG_ENABLE_ARM_NEON"
# what the kept wheel was built by; a wheel from another recipe is built again
RECIPE = f"meson {' '.join(MESON_OPTIONS)} {NEON_OFF}\n"
EMULATORS = {"arm64": "qemu-aarch64", "armhf": "qemu-arm"}  # binfmt_misc's names (qemu-user-static)


def run(*words: str, **kw) -> None:
    subprocess.run(list(words), check=True, **kw)


def enable_binfmt(debian_arch: str) -> None:
    """Let this x86_64 machine run another processor's programs (a chroot into an ARM root)."""
    emulator = EMULATORS.get(debian_arch)
    if emulator is None:
        return
    folder = Path("/proc/sys/fs/binfmt_misc")
    if not (folder / "register").exists():
        run("mount", "-t", "binfmt_misc", "binfmt_misc", str(folder))
    if not (folder / emulator).exists():
        if shutil.which("update-binfmts") is None:
            raise SystemExit(
                "cloud-companion: an ARM root needs qemu-user-static and binfmt-support "
                "(sudo apt install qemu-user-static binfmt-support)"
            )
        run("update-binfmts", "--enable", emulator)


def chroot(root: Path, script: str) -> None:
    run(
        "chroot",
        str(root),
        "/bin/sh",
        "-ec",
        script,
        env={
            "PATH": "/usr/sbin:/usr/bin:/sbin:/bin",
            "DEBIAN_FRONTEND": "noninteractive",
            "LC_ALL": "C",
            "HOME": "/root",
        },
    )


class Mounted:
    """/proc, /sys and /dev (and the machine's name resolution) inside a root for a while."""

    def __init__(self, root: Path):
        self.root = root
        self.points = [
            (root / "proc", ["-t", "proc", "proc"]),
            (root / "sys", ["-t", "sysfs", "sys"]),
            (root / "dev", ["--bind", "/dev"]),
        ]

    def __enter__(self) -> Path:
        shutil.copy2("/etc/resolv.conf", self.root / "etc" / "resolv.conf")
        for target, how in self.points:
            run("mount", *how, str(target))
        return self.root

    def __exit__(self, *exc) -> None:
        for target, _ in reversed(self.points):
            subprocess.run(["umount", "-l", str(target)])


def debootstrap(release: str, debian_arch: str, folder: Path, what: str) -> Path:
    """folder/root.tmp: a fresh minimal Debian root (the caller adds to it and renames it root)."""
    tmp = folder / "root.tmp"
    if tmp.exists():
        shutil.rmtree(tmp)
    folder.mkdir(parents=True, exist_ok=True)
    print(f"building {what} with debootstrap (once; kept in {folder})", flush=True)
    run(
        "debootstrap",
        "--variant=minbase",
        f"--arch={debian_arch}",
        release,
        str(tmp),
        MIRROR,
        stdout=subprocess.DEVNULL,
    )
    return tmp


def build_root(release: str, folder: Path) -> Path:
    """folder/root: a minimal armhf Debian with the build packages, made once (minutes)."""
    root = folder / "root"
    enable_binfmt("armhf")
    if (root / ".complete").exists():
        return root
    tmp = debootstrap(release, "armhf", folder, f"an armhf {release} root to build wheels in")
    with Mounted(tmp):
        chroot(
            tmp,
            "apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends "
            + " ".join(BUILD_PACKAGES)
            + " >/dev/null && apt-get clean",
        )
    (tmp / ".complete").write_text(release + "\n")
    tmp.rename(root)
    return root


def host_certificates() -> str:
    """The CA bundle this machine's pip uses (PIP_CERT, else the system's)."""
    return os.environ.get("PIP_CERT") or "/etc/ssl/certs/ca-certificates.crt"


def pygame_requirement(source: Path = PROJECT) -> str:
    import tomllib

    dependencies = tomllib.loads((source / "pyproject.toml").read_text())["project"]["dependencies"]
    return next(req.split(";")[0].strip() for req in dependencies if req.startswith("pygame-ce"))


def kept_wheel(out: Path, tag: str) -> Path | None:
    """The wheel built before by this recipe, if there is one."""
    made = sorted(out.glob(f"pygame_ce-*-{tag}-{tag}-linux_armv7l.whl"))
    recipe = out / f"{tag}.recipe"
    if made and recipe.exists() and recipe.read_text() == RECIPE:
        return made[-1]
    for wheel in made:  # built by another recipe (with sse2neon's faulting stores)
        wheel.unlink()
    return None


def build(out: Path, release: str = "trixie", folder: Path | None = None) -> Path:
    """The armv7l pygame-ce wheel for `release`'s Python in `out` (kept: built once)."""
    python = PYTHONS[release]
    tag = "cp" + python.replace(".", "")
    out.mkdir(parents=True, exist_ok=True)
    kept = kept_wheel(out, tag)
    if kept is not None:
        return kept
    root = build_root(release, folder or PROJECT / "build" / "armhf" / release)
    work = root / "tmp" / "wheels"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    # pip itself fetches the sdist and its build tools, trusting what this machine's pip trusts
    # (a network whose proxy signs its own certificates)
    shutil.copy2(host_certificates(), root / "tmp" / "host-ca.crt")
    with Mounted(root):
        chroot(
            root,
            "export PIP_CERT=/tmp/host-ca.crt; python3 -m venv /tmp/build-venv && "
            "/tmp/build-venv/bin/pip install -q --upgrade pip && "
            # (not from pip's cache of wheels built before, which does not know the recipe)
            "/tmp/build-venv/bin/pip wheel -q --no-cache-dir --no-deps --no-binary pygame-ce -w /tmp/wheels "
            + " ".join(f"--config-settings=setup-args=-D{option}" for option in (*MESON_OPTIONS, NEON_OFF))
            + f" '{pygame_requirement()}' && "
            # the wheel as built, asked which smoothscale it has: NEON would mean sse2neon is in
            "/tmp/build-venv/bin/pip install -q --force-reinstall --no-deps /tmp/wheels/pygame_ce-*.whl && "
            "/tmp/build-venv/bin/python -c \"import os; os.environ['PYGAME_HIDE_SUPPORT_PROMPT'] = '1'; "
            "import pygame.transform as t; b = t.get_smoothscale_backend(); "
            "assert b == 'GENERIC', 'built with sse2neon: ' + b\" && "
            "/tmp/build-venv/bin/pip uninstall -q -y pygame-ce",
        )
    (wheel,) = work.glob("pygame_ce-*.whl")
    if not wheel.name.endswith(f"-{tag}-{tag}-linux_armv7l.whl"):
        raise SystemExit(f"cloud-companion: the armhf root built {wheel.name}, not a {tag} armv7l wheel")
    shutil.copy2(wheel, out / wheel.name)
    (out / f"{tag}.recipe").write_text(RECIPE)
    shutil.rmtree(work)
    return out / wheel.name


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="wheelhouse", description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the folder to put the wheel in")
    parser.add_argument("--release", choices=sorted(PYTHONS), default="trixie", help="Raspberry Pi OS's Debian release")
    args = parser.parse_args(argv)
    if os.geteuid() != 0:
        print("cloud-companion: building the armv7l wheel needs root (debootstrap, chroot)", file=sys.stderr)
        return 2
    print(build(args.out, args.release))
    return 0


if __name__ == "__main__":
    sys.exit(main())
