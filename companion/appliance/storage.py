"""Whether a folder survives a reboot: a journal on an overlay or in memory (raspi-config's
read-only mode puts the whole root on one) loses every game at the next reboot. Used by doctor
and by the app's Home screen; reads /proc/mounts only."""

from __future__ import annotations

from pathlib import Path

LOST_AT_REBOOT = ("overlay", "tmpfs", "ramfs")


def mount_of(path: Path, mounts_text: str) -> tuple[str, str]:
    """(mount point, file system type) of the mount that holds `path`."""
    best = ("/", "")
    target = str(path.resolve())
    for line in mounts_text.splitlines():
        fields = line.split()
        if len(fields) < 3:
            continue
        point = fields[1].replace("\\040", " ")
        inside = target == point or target.startswith(point.rstrip("/") + "/")
        if inside and len(point) >= len(best[0]):
            best = (point, fields[2])
    return best


def lost_at_reboot(folder: Path, proc: Path = Path("/proc")) -> tuple[str, str] | None:
    """(mount point, file system type) when `folder` is on an overlay or in memory, else None
    (also when the mounts cannot be read: nothing is claimed then)."""
    try:
        mounts = (proc / "mounts").read_text()
    except OSError:
        return None
    point, kind = mount_of(folder, mounts)
    return (point, kind) if kind in LOST_AT_REBOOT else None
