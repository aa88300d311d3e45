"""Run a command the way the service runs: as its user, inside the unit's own sandbox.

    python -m companion.appliance.sandbox doctor [ARGS]   (as root; the Pi's `cloud-companion doctor`)

The unit's [Service] settings (user, groups, environment, ProtectSystem, PrivateNetwork,
DevicePolicy, the system-call filter...) are handed to `systemd-run` as properties of a
transient unit, so doctor sees what only the sandbox breaks: a device the sandbox hides, a
folder it makes read-only, a `socket://` ship address a unit without network can never reach.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

UNIT = Path("/etc/systemd/system/cloud-companion.service")
APP = "/opt/cloud-companion/venv/bin/cloud-companion"
# what makes sense only for the long-running service, or would touch it: its runtime directory
# (a transient unit removes its own on exit, under the running app), RemoveIPC (would remove the
# service user's IPC objects, the app's among them), how it is started, restarted and watched
LEFT_OUT = {
    "Type",
    "NotifyAccess",
    "WatchdogSec",
    "Restart",
    "RestartSec",
    "TimeoutStopSec",
    "ExecStart",
    "ExecStartPre",
    "ExecStop",
    "RuntimeDirectory",
    "RuntimeDirectoryMode",
    "RemoveIPC",
}
MARK = "CLOUD_COMPANION_SANDBOX"  # doctor says it ran in the sandbox


def service_properties(unit_text: str) -> list[str]:
    """The [Service] settings of a unit file, as systemd-run's --property values, in order."""
    out, section, pending = [], None, ""
    for raw in unit_text.splitlines():
        line = pending + raw.strip()
        pending = ""
        if line.endswith("\\"):
            pending = line[:-1].rstrip() + " "
            continue
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
            continue
        if section != "Service" or "=" not in line:
            continue
        key, value = (part.strip() for part in line.split("=", 1))
        if key not in LEFT_OUT:
            out.append(f"{key}={value}")
    return out


def command(args: list[str], unit_text: str) -> list[str]:
    properties = [
        *service_properties(unit_text),
        f"Environment={MARK}=1",
        # the service's own runtime directory stays the app's: a private /tmp instead
        "Environment=XDG_RUNTIME_DIR=/tmp",
    ]
    words = ["systemd-run", "--quiet", "--wait", "--pipe", "--collect", "--service-type=exec"]
    for prop in properties:
        words += ["--property", prop]
    return [*words, APP, *args]


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if shutil.which("systemd-run") is None or not UNIT.is_file():
        print(f"cloud-companion: no {UNIT} (or no systemd-run): running without the service's sandbox", file=sys.stderr)
        os.execv(APP, [APP, *args])
    if os.geteuid() != 0:
        print(
            "cloud-companion: the service's sandbox needs root: sudo cloud-companion " + " ".join(args), file=sys.stderr
        )
        return 1
    # the unit and its drop-ins (/etc/systemd/system/cloud-companion.service.d/*.conf), in systemd's order
    drop_ins = sorted(UNIT.with_name(UNIT.name + ".d").glob("*.conf"))
    words = command(args, "\n".join(path.read_text() for path in [UNIT, *drop_ins]))
    os.execvp(words[0], words)


if __name__ == "__main__":
    sys.exit(main())
