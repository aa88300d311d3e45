"""Who cannot write where: the `cloud-companion` command on the Pi runs as the service user, so
a folder the person at the keyboard owns may still be closed to it. Messages name that user and
a folder it can write, instead of a bare "permission denied"."""

from __future__ import annotations

import errno
import os
import pwd
from pathlib import Path

SERVICE_USER = "cloud-companion"  # the installer's user (companion/appliance/install.py)


def user_name(uid: int | None = None) -> str:
    uid = os.geteuid() if uid is None else uid
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid {uid}"


def denied(exc: BaseException) -> bool:
    return getattr(exc, "errno", None) in (errno.EACCES, errno.EPERM)


def cannot_write(folder: Path, name: str | None = None, home: str | None = None, made: bool = True) -> str:
    """The reason and the way out, for a folder this user may not write into (`made`: the
    command makes a missing folder, so one inside the service user's home can be offered)."""
    name = user_name() if name is None else name
    if name == SERVICE_USER:
        if home is None:
            try:
                home = pwd.getpwnam(name).pw_dir
            except KeyError:
                home = "/var/lib/cloud-companion"
        return (
            f"the service user {name} (the Pi's cloud-companion command runs as it) cannot write in "
            f"{folder}: give a folder it can write, such as {home}/exports or a USB stick under /media"
            if made
            else f"{folder}: give a folder it can write, such as a USB stick under /media or {home}"
        )
    return f"the user {name} cannot write in {folder}: give a folder {name} can write"
