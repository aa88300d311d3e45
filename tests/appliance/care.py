"""The appliance's care, booted: what a family or a maker does to an installed Pi besides playing.

The installer's dry runs and refusals, backup, export, report and restore from the command
line, Settings' Shut down through the polkit rule, uninstalling (the history kept), installing
again, and the purge with its last backup. Each runs on a disk that holds the game played in
the first boot, so "kept" means that game's actions, counted.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path

from vm import VM

SOURCE = "/mnt/bundle/cloud-companion"
STATE, SETTINGS = "/var/lib/cloud-companion", "/etc/cloud-companion"
LAST_BACKUPS = "/var/backups/cloud-companion"
WORK = "/var/tmp/care"
# APPLIANCE_BREAK=purge: the uninstall run from a copy of the installer without its last backup
# (a purge that keeps nothing), to see the check fail
CARELESS_PURGE = os.environ.get("APPLIANCE_BREAK") == "purge"
# what the app itself runs for Settings -> Shut down, as the service user
POWER_OFF = "runuser -u cloud-companion -- /opt/cloud-companion/venv/bin/python -c " + shlex.quote(
    "from companion.appliance import power; raise SystemExit(0 if power.power_off() else 1)"
)
# files changed since the stamp, in every place the installer writes
CHANGED = (
    "find /etc /opt /usr/local /var/lib/cloud-companion /var/backups -xdev -newer /root/stamp "
    "-not -path '/etc/mtab' 2>/dev/null | head -20"
)


def stamp(vm: VM) -> None:
    vm.serial.check("touch /root/stamp && sleep 1.1")


def nothing_changed(vm: VM, what: str) -> None:
    changed = vm.serial.run(CHANGED)[1].strip()
    assert not changed, f"{what} changed files: {changed}"


def dry_runs(run, vm: VM) -> str:
    stamp(vm)
    said = []
    for make in ("install-pi DRY_RUN=1", "update-pi DRY_RUN=1", "uninstall-pi PURGE=1 DRY_RUN=1"):
        rc, out = vm.serial.run(f"cd {SOURCE} && make {make} 2>&1; rc=$?; cd /; (exit $rc)", timeout=300)
        assert rc == 0 and "dry run: nothing was changed" in out, f"make {make}: exit {rc}: {out[-800:]}"
        assert "would run" in out, out[-800:]
        said.append(f"{make.split()[0]} {out.count('would run')} steps to run")
    nothing_changed(vm, "the dry runs")
    return "; ".join(said) + "; no file changed"


def refusals(run, vm: VM) -> str:
    stamp(vm)
    # not root: one line, before anything
    rc, out = vm.serial.run(f"runuser -u nobody -- make -s -C {SOURCE} install-pi 2>&1 | grep -v '^make'")
    lines = [line for line in out.strip().splitlines() if line.strip()]
    assert len(lines) == 1 and "as root" in lines[0], out[-600:]
    # the boot partition not mounted (an empty /boot/firmware): refused, nothing changed
    vm.serial.check("mkdir -p /boot/firmware && mount -t tmpfs tmpfs /boot/firmware")
    try:
        rc, empty = vm.serial.run(f"cd {SOURCE} && make install-pi 2>&1; rc=$?; cd /; (exit $rc)", timeout=300)
    finally:
        vm.serial.check("umount /boot/firmware")
    assert rc != 0 and "boot partition is not mounted" in empty, f"exit {rc}: {empty[-800:]}"
    assert "running" not in empty.split("boot partition")[0], empty[-800:]
    nothing_changed(vm, "the refused installs")
    return f"not root: {lines[0][:80]!r}; an empty /boot/firmware: refused, no file changed"


def backup_export_report(run, vm: VM, played: int) -> str:
    # a folder the service user (who runs the commands, as on the Pi) may write
    vm.serial.check(f"rm -rf {WORK} && install -d -m 0777 {WORK}/bk {WORK}/export")
    run.wait_active(vm, 120)  # the app runs: the backup is taken beside it
    vm.serial.check(f"cloud-companion backup {WORK}/bk", timeout=180)
    copy = vm.serial.check(f"ls {WORK}/bk/journal-*.sqlite3 | tail -1")
    copied = run.count_actions(vm, copy)
    assert copied == played, f"the backup holds {copied} actions, the journal {played}"
    vm.serial.check(f"cloud-companion export --all --out {WORK}/export", timeout=180)
    exported = vm.serial.check(f"ls {WORK}/export/*.jsonl").split()
    assert exported, "export wrote nothing"
    for path in exported:
        vm.serial.check(f"cloud-companion replay {path} >/dev/null", timeout=180)
    vm.serial.check(f"cloud-companion report --out {WORK}/report.txt", timeout=300)
    report = vm.serial.check(
        f"grep -c -e '^ok' -e '^WARN' -e '^FAIL' {WORK}/report.txt; grep -c 'cloud-companion' {WORK}/report.txt"
    )
    findings, lines = (int(n) for n in report.split())
    assert findings >= 5 and lines >= 1, report
    return (
        f"backup beside the running app: {copied} actions as in the journal; export: {len(exported)} "
        f"game(s), each replayed; report: {findings} findings with the log"
    )


def restore(run, vm: VM, played: int) -> str:
    copy = vm.serial.check(f"ls {WORK}/bk/journal-*.sqlite3 | tail -1")
    refused_rc, refused = vm.serial.run(f"cloud-companion restore {copy} 2>&1")
    assert refused_rc != 0 and len(refused.strip().splitlines()) == 1, f"a restore beside the app: {refused}"
    vm.serial.check("systemctl stop cloud-companion", timeout=180)
    vm.serial.check(f"cloud-companion restore {copy}", timeout=180)
    # the journal kept aside, without its -wal and -shm (which ls lists after it)
    kept = vm.serial.check(f"ls {STATE}/journal.sqlite3.before-restore-* | grep -v -e '-wal$' -e '-shm$'").split()
    assert kept, "the journal before the restore was not kept"
    vm.serial.check("systemctl start cloud-companion", timeout=180)
    run.wait_active(vm, 120)
    # read from a copy with its write-ahead log: a read-only open of a journal whose log has no
    # -shm beside it fails, and a writable one would change the file kept
    vm.serial.check(
        f"cp {kept[-1]} {WORK}/kept.sqlite3 && if [ -e {kept[-1]}-wal ]; then cp {kept[-1]}-wal {WORK}/kept.sqlite3-wal; fi"
    )
    now = run.count_actions(vm, f"{STATE}/journal.sqlite3")
    before = run.count_actions(vm, f"{WORK}/kept.sqlite3", recover=True)
    assert now == before == played, (now, before, played)
    return (
        f"refused beside the running app ({refused.strip()[:70]!r}); with it stopped: {now} actions back, "
        f"the journal before it kept as {Path(kept[-1]).name}"
    )


def shut_down(run, vm: VM) -> str:
    """What Settings -> Shut down runs, as the service user: the polkit rule lets it power off."""
    vm.serial.sock.sendall(f"{POWER_OFF}\n".encode())
    try:
        vm.process.wait(120 * run.arch.slow)
    except Exception as exc:
        raise AssertionError(f"the machine did not power off: {vm.serial.log[-600:].decode(errors='replace')}") from exc
    return f"powered off (QEMU exited {vm.process.returncode}); the next boot finds the journal whole"


def uninstall_keeps(run, vm: VM, played: int) -> str:
    rc, out = vm.serial.run(f"cd {SOURCE} && make uninstall-pi 2>&1; rc=$?; cd /; (exit $rc)", timeout=600)
    assert rc == 0, out[-800:]
    left = vm.serial.run(
        "ls /opt/cloud-companion /etc/systemd/system/cloud-companion.service "
        "/usr/local/bin/cloud-companion 2>&1 | grep -vc 'No such file'"
    )[1].strip()
    assert left == "0", vm.serial.run("ls -d /opt/cloud-companion /etc/systemd/system/cloud-companion*")[1]
    kept = run.count_actions(vm, f"{STATE}/journal.sqlite3")
    assert kept == played, f"{kept} actions after the uninstall, {played} before"
    settings = vm.serial.run(f"test -f {SETTINGS}/config.toml && echo kept")[1]
    assert "kept" in settings, "the settings went with the uninstall"
    return f"the app, its units and command gone; {kept} actions and the settings kept"


def install_again(run, vm: VM, played: int) -> str:
    rc, out = vm.serial.run(
        f"cd {SOURCE} && make install-pi PI_DISPLAY=hdmi 2>&1; rc=$?; cd /; (exit $rc)", timeout=900
    )
    assert rc == 0, out[-800:]
    run.wait_active(vm, 180)
    kept = run.count_actions(vm, f"{STATE}/journal.sqlite3")
    assert kept == played, f"{kept} actions after installing again, {played} before"
    return f"running again with the {kept} actions"


def purge(run, vm: VM, played: int) -> str:
    source = SOURCE
    if CARELESS_PURGE:  # the broken build: its purge keeps no last backup
        vm.serial.check(
            "rm -rf /root/careless && cp -a /mnt/bundle/cloud-companion /root/careless && "
            "sed -i 's/steps\\[:0\\] = last_backup_steps()/pass/' "
            "/root/careless/companion/appliance/install.py"
        )
        source = "/root/careless"
    rc, out = vm.serial.run(f"cd {source} && make uninstall-pi PURGE=1 2>&1; rc=$?; cd /; (exit $rc)", timeout=600)
    assert rc == 0, out[-800:]
    gone = vm.serial.run(f"ls -d {STATE} {SETTINGS} 2>/dev/null; id cloud-companion 2>/dev/null")[1].strip()
    assert not gone, f"left after the purge: {gone}"
    backups = vm.serial.run(f"ls {LAST_BACKUPS}/journal-*.sqlite3 2>/dev/null")[1].split()
    assert backups, f"the purge kept no last backup in {LAST_BACKUPS}: {out[-600:]}"
    kept = run.count_actions(vm, backups[-1])
    settings = vm.serial.run(f"ls {LAST_BACKUPS} | grep -c toml")[1].strip()
    assert kept == played, f"the last backup holds {kept} actions, the journal held {played}"
    return (
        f"the history, settings and user gone; the last backup {Path(backups[-1]).name} holds all {kept} "
        f"actions (and {settings} settings file)"
    )
