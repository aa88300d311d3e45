"""A release bundle for a Pi without network: the project's files plus every wheel it needs.

    python3 -m companion.appliance.bundle OUT [--platform manylinux2014_aarch64 [linux_armv7l]] [--python 3.11 3.13]

OUT/cloud-companion/ holds the checkout's tracked files and wheels/cpXY/ the app's own wheel and
its dependencies for each Python (Raspberry Pi OS Bookworm has 3.11, Trixie 3.13), for each
platform asked for (pip takes from the folder what fits its machine). Copied to a USB stick,
`sudo make install-pi` in that folder installs from wheels/ with no network at all.
On aarch64 with Python 3.13 PyPI's lgpio has no wheel: there the system's python3-lgpio (which
the installer puts in first, and the venv sees) satisfies the requirement instead.
For 32-bit Pi OS (`linux_armv7l`) PyPI has every wheel but pygame-ce's: that one is built here
in an armhf Debian root (companion.appliance.wheelhouse; root, minutes, once).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]
DEFAULT_PLATFORM = "manylinux2014_aarch64"
DEFAULT_PYTHONS = ("3.11", "3.13")
SKIPPED = (
    ".git",
    ".venv",
    "build",
    "__pycache__",
    "*.egg-info",
    ".pytest_cache",
    ".hypothesis",
    ".benchmarks",
    "demo-screens",
    "wheels",
)


def wheel_dir_name(python: str) -> str:
    return "cp" + python.replace(".", "")


def tracked_files(source: Path) -> list[Path] | None:
    """The files git tracks (a checkout), else None (a copy without .git: take all but SKIPPED)."""
    try:
        listed = subprocess.run(["git", "-C", str(source), "ls-files", "-z"], capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return [Path(name) for name in listed.stdout.decode().split("\0") if name]


def copy_source(source: Path, target: Path) -> Path:
    """The project's files at `target`, nothing built or cached among them."""
    if target.exists():
        shutil.rmtree(target)
    files = tracked_files(source)
    if files is None:
        shutil.copytree(source, target, ignore=shutil.ignore_patterns(*SKIPPED))
        return target
    for name in files:
        if (source / name).is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source / name, target / name)
    return target


def project_requirements(source: Path) -> list[str]:
    import tomllib

    return tomllib.loads((source / "pyproject.toml").read_text())["project"]["dependencies"]


ARM32 = "linux_armv7l"


def platform_words(platform: str) -> list[str]:
    """pip's --platform for the target, with the newer manylinux tag lgpio's wheels carry (2_34:
    Bookworm has glibc 2.36, Trixie 2.41): pip does not count a newer tag as the older one.
    32-bit ARM takes the plain tag (lgpio's and the wheel built here) and manylinux's."""
    words = ["--platform", platform]
    if platform.endswith("aarch64"):
        words += ["--platform", "manylinux_2_34_aarch64"]
    if platform == ARM32:
        words += ["--platform", "manylinux2014_armv7l"]
    return words


def target_requirements(source: Path, platform: str, python: str) -> list[str]:
    """The requirements for the Pi: pip judges environment markers by the machine it runs on,
    so lgpio (aarch64 only) is named here for an aarch64 Python that PyPI has wheels for."""
    wanted = [req.split(";")[0].strip() for req in project_requirements(source) if not req.startswith("lgpio")]
    lgpio = next((req.split(";")[0].strip() for req in project_requirements(source) if req.startswith("lgpio")), None)
    if lgpio and platform.endswith(("aarch64", "armv7l")) and tuple(int(n) for n in python.split(".")) < (3, 13):
        wanted.append(lgpio)
    return wanted


def arm32_wheels(python: str) -> Path:
    """The folder holding the armv7l pygame-ce wheel for `python`, built once in an armhf root."""
    from . import wheelhouse

    release = next(name for name, version in wheelhouse.PYTHONS.items() if version == python)
    folder = PROJECT / "build" / "armhf" / "wheels"
    wheelhouse.build(folder, release)
    return folder


def build(
    out: Path,
    source: Path = PROJECT,
    platform: str | tuple[str, ...] = DEFAULT_PLATFORM,
    pythons: tuple[str, ...] = DEFAULT_PYTHONS,
    pip: tuple[str, ...] = (sys.executable, "-m", "pip"),
    built_here=arm32_wheels,
) -> Path:
    platforms = (platform,) if isinstance(platform, str) else platform
    target = copy_source(source, out / "cloud-companion")
    with tempfile.TemporaryDirectory() as scratch:
        # built from a copy, so the checkout gets no build/ or egg-info
        staged = copy_source(source, Path(scratch) / "src")
        for python in pythons:
            wheels = target / "wheels" / wheel_dir_name(python)
            wheels.mkdir(parents=True, exist_ok=True)
            subprocess.run([*pip, "wheel", "--quiet", "--no-deps", "--wheel-dir", str(wheels), str(staged)], check=True)
            for name in platforms:
                subprocess.run([*pip, *download_words(source, name, python, wheels, built_here)], check=True)
    return target


def download_words(source: Path, platform: str, python: str, dest: Path, built_here=arm32_wheels) -> list[str]:
    """pip's words for one platform's wheels; for 32-bit ARM it also looks where pygame-ce was built."""
    links = ["--find-links", str(built_here(python))] if platform == ARM32 else []
    return [
        "download",
        "--quiet",
        "--only-binary=:all:",
        *platform_words(platform),
        "--python-version",
        python,
        "--implementation",
        "cp",
        "--dest",
        str(dest),
        *links,
        *target_requirements(source, platform, python),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bundle", description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the folder to make the bundle in")
    parser.add_argument(
        "--platform",
        nargs="+",
        default=[DEFAULT_PLATFORM],
        help=f"pip's platform tags (default {DEFAULT_PLATFORM}; {ARM32}: 32-bit Pi OS, needs root)",
    )
    parser.add_argument(
        "--python", nargs="+", default=list(DEFAULT_PYTHONS), help="Python versions (default 3.11 3.13)"
    )
    args = parser.parse_args(argv)
    try:
        target = build(args.out, platform=tuple(args.platform), pythons=tuple(args.python))
    except subprocess.CalledProcessError as exc:
        print(
            f"cloud-companion: the bundle could not be made: {' '.join(exc.cmd[:4])} ... failed "
            "(pip needs the network to fetch the wheels once)",
            file=sys.stderr,
        )
        return 1
    print(
        f"cloud-companion: bundle in {target}: copy that folder to a USB stick, then on the Pi: "
        "cd /media/.../cloud-companion && sudo make install-pi"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
