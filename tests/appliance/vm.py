"""One QEMU virtual machine of the boot test: its disk, serial console and QMP, driven from Python.

QEMU runs under TCG (this machine's KVM refuses the host CPU), boots the root's own kernel with
-kernel/-initrd, shows a virtio display (virtio-vga on x86_64, virtio-gpu-pci on ARM's virt board;
QMP's screendump reads either) and has a virtio tablet (QMP's input-send-event taps it: the
guest sees absolute positions like a touchscreen's).
Its network is QEMU's user network, restricted (the guest reaches nothing outside; it is the
home network the live page serves): the live page's port is forwarded to a loopback port here.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

ANSI = re.compile(rb"\x1b\[[0-9;?]*[a-zA-Z]|\x1b[()][0-9A-B]|\r")


class VMError(RuntimeError):
    pass


def overlay(base: Path, path: Path) -> Path:
    """A qcow2 disk on top of `base`: what a boot writes stays in it, `base` stays as it was."""
    if path.exists():
        path.unlink()
    fmt = "raw" if base.suffix == ".img" else "qcow2"
    subprocess.run(
        ["qemu-img", "create", "-q", "-f", "qcow2", "-b", str(base.resolve()), "-F", fmt, str(path)], check=True
    )
    return path


class QMP:
    """QEMU's monitor. A command that outlasts `timeout` leaves its socket mid-reply, so the
    connection is dropped and made again (QEMU takes the next client): one slow screendump is
    one failed command, not a monitor that never answers again."""

    def __init__(self, path: Path, timeout: float = 30):
        self.path, self.timeout = path, timeout
        self.connect()

    def connect(self) -> None:
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.settimeout(self.timeout)
        self.sock.connect(str(self.path))
        self.file = self.sock.makefile("rw")
        self.file.readline()  # the greeting
        # not through command(): a monitor that still does not answer raises here, once, rather
        # than connecting again and again (QEMU 7.2's stayed silent after a screendump on ARM)
        self.exchange("qmp_capabilities", {})

    def command(self, name: str, **arguments):
        try:
            return self.exchange(name, arguments)
        except OSError as exc:  # timed out, or QEMU closed it
            try:
                self.file.close()
                self.sock.close()
                self.connect()
            except OSError:
                pass
            raise VMError(f"QMP {name}: {exc} (the monitor connected again)") from exc

    def exchange(self, name: str, arguments: dict):
        self.file.write(json.dumps({"execute": name, **({"arguments": arguments} if arguments else {})}) + "\n")
        self.file.flush()
        while True:
            line = self.file.readline()
            if not line:
                raise ConnectionResetError("QMP closed its socket")
            reply = json.loads(line)
            if "error" in reply:
                raise VMError(f"QMP {name}: {reply['error']}")
            if "return" in reply:
                return reply["return"]

    def screendump(self, path: Path) -> Path:
        if path.exists():
            path.unlink()
        self.command("screendump", filename=str(path))
        return path

    def tap(self, fx: float, fy: float) -> None:
        """A tap at a fraction of the screen's width and height (the tablet's 0..32767 range).
        QEMU hands it to the pointing device the guest took up last: the tablet it started with,
        or one plugged in later once the guest reads from it."""
        x, y = round(fx * 32767), round(fy * 32767)
        self.command(
            "input-send-event",
            events=[
                {"type": "abs", "data": {"axis": "x", "value": x}},
                {"type": "abs", "data": {"axis": "y", "value": y}},
            ],
        )
        time.sleep(0.2)
        self.command("input-send-event", events=[{"type": "btn", "data": {"down": True, "button": "left"}}])
        time.sleep(0.15)
        self.command("input-send-event", events=[{"type": "btn", "data": {"down": False, "button": "left"}}])


class Serial:
    """The root shell on ttyS0 (autologin): run() types a command and returns its exit code and output."""

    def __init__(self, path: Path, record: Path | None = None, slow: float = 1.0):
        self.slow = slow  # every wait stretched by this (an ARM guest under TCG is slower)
        self.record = open(record, "ab") if record else None
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.connect(str(path))
        self.log = bytearray()
        self.closed = False
        self.said = threading.Condition()
        self.count = 0
        self.ready = False
        # read all the time, not only while a command waits: ARM's PL011 UART hands each byte to
        # the socket with a blocking write while holding QEMU's big lock, so a console nobody
        # reads (a guest printing while a screendump is awaited) stalls QEMU's monitor for good
        threading.Thread(target=self._drain, name="serial console", daemon=True).start()

    def _drain(self) -> None:
        while True:
            try:
                chunk = self.sock.recv(65536)
            except OSError:
                chunk = b""
            with self.said:
                if not chunk:
                    self.closed = True
                else:
                    self.log += chunk
                self.said.notify_all()
            if not chunk:
                return
            if self.record is not None:
                self.record.write(chunk)
                self.record.flush()

    def read_until(self, pattern: bytes, timeout: float, start: int | None = None) -> re.Match | None:
        """Wait for pattern in what the console says from now on (or from offset start of its log:
        it is read all the time, so what came after a command was typed is found from there)."""
        wanted = re.compile(pattern)
        deadline = time.monotonic() + timeout
        with self.said:
            start = len(self.log) if start is None else start
            while True:
                found = wanted.search(ANSI.sub(b"", bytes(self.log[start:])))
                if found:
                    return found
                if self.closed:
                    raise VMError("the serial console closed (QEMU ended)")
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.said.wait(min(left, 0.5))

    def wait_for_shell(self, timeout: float = 600) -> None:
        # a TCG boot beside a busy suite has taken over 300 s to its first shell (the boot is
        # timed by its own checks; this only says when to give up)
        if self.ready:
            return
        deadline = time.monotonic() + timeout * self.slow
        # nothing is typed until the getty has spoken: on Bookworm's arm64 kernel, newlines that
        # reach the PL011 console before a getty holds it stalled the console for good (twice,
        # 20 min of silence), while the same boot left alone showed its shell in 97 s
        prompt = rb"root@[^\n]*# "
        got = self.read_until(rb"login: |" + prompt, timeout * self.slow / 2, start=0)
        if got and not got.group(0).startswith(b"root@"):  # the getty is up: its shell is on the way
            got = self.read_until(prompt, 60 * self.slow, start=0)
        while time.monotonic() < deadline:
            if not got:
                asked = len(self.log)
                self.sock.sendall(b"\n")  # the prompt went by unseen (or never came): ask for another
                got = self.read_until(prompt, 5, start=asked)
                continue
            self.sock.sendall(b"stty -echo cols 500; export PS1= TERM=dumb SYSTEMD_PAGER= SYSTEMD_COLORS=0\n")
            time.sleep(0.5)
            if self.run("true", timeout=30)[0] == 0:
                self.ready = True
                return
            got = None
        raise VMError("no root shell on the serial console")

    def run(self, command: str, timeout: float = 120) -> tuple[int, str]:
        self.count += 1
        tag = f"__END{self.count}__"
        with self.said:
            start = len(self.log)
        # the tag is typed in two halves, so an echo of the line never matches it
        # one line, read whole before it runs; the command's stdin is not the console (sudo and
        # friends would swallow what is typed next)
        self.sock.sendall(f'( {command} ) </dev/null; __rc=$?; echo; echo {tag[:3]}""{tag[3:]}$__rc\n'.encode())
        found = self.read_until(re.escape(tag).encode() + rb"(\d+)", timeout * self.slow, start=start)
        if found is None:
            raise VMError(f"no answer within {timeout} s to: {command}")
        with self.said:
            text = ANSI.sub(b"", bytes(self.log[start:])).decode(errors="replace")
        body = text[: text.rfind(tag)]
        lines = [re.sub(r"^(root@\S*# ?)+", "", line) for line in body.splitlines()]
        return int(found.group(1)), "\n".join(lines).strip()

    def check(self, command: str, timeout: float = 120) -> str:
        rc, out = self.run(command, timeout)
        if rc != 0:
            raise VMError(f"{command!r} failed ({rc}): {out[-2000:]}")
        return out


class VM:
    def __init__(
        self,
        folder: Path,
        disk: Path,
        kernel: tuple[Path, Path],
        arch,
        *,
        display: bool = True,
        drives: tuple[Path, ...] = (),
        append: str = "",
        usb_stick: Path | None = None,
        usb_bus: bool = False,
        memory: int | None = None,
        forward: tuple[int, int] | None = None,
        cache: str = "writeback",
        extra_disks: tuple[Path, ...] = (),
    ):
        self.extra_disks = extra_disks  # writable raw disks after the read-only ones (a second partition)
        self.folder, self.disk, self.kernel, self.arch, self.cache = folder, disk, kernel, arch, cache
        # a Pi 3's 1 GB on ARM; the x86_64 guest keeps the room its boots were measured with
        memory = memory or (1536 if arch.debian == "amd64" else 1024)
        self.forward = forward  # (loopback port here, the guest's port)
        self.display, self.drives, self.append, self.usb_stick, self.memory = display, drives, append, usb_stick, memory
        self.usb_bus = usb_bus or usb_stick is not None  # a USB controller, for sticks plugged in later
        self.process: subprocess.Popen | None = None
        self.started = 0.0

    def command(self) -> list[str]:
        vmlinuz, initrd = self.kernel
        console = self.arch.console
        words = [
            *self.arch.qemu,
            "-accel",
            "tcg",
            "-smp",
            "2",
            "-m",
            str(self.memory),
            "-kernel",
            str(vmlinuz),
            "-initrd",
            str(initrd),
            "-append",
            f"root=/dev/vda rw console={console} quiet loglevel=3 systemd.show_status=false {self.append}",
            "-drive",
            f"file={self.disk},format=qcow2,if=virtio,cache={self.cache}",
            "-device",
            "virtio-tablet-pci",
            "-device",
            "virtio-keyboard-pci",
            "-display",
            "none",
            "-nic",
            self.nic(),
            "-qmp",
            f"unix:{self.folder / 'qmp.sock'},server=on,wait=off",
            "-serial",
            f"unix:{self.folder / 'ser.sock'},server=on,wait=off",
        ]
        if self.arch.debian == "amd64":
            words += ["-vga", "none"] + (["-device", "virtio-vga"] if self.display else [])
        elif self.display:
            words += ["-device", "virtio-gpu-pci"]
        for drive in self.drives:
            words += ["-drive", f"file={drive},format=raw,if=virtio,readonly=on"]
        for drive in self.extra_disks:
            words += ["-drive", f"file={drive},format=raw,if=virtio"]
        if self.usb_bus:
            words += ["-device", "qemu-xhci,id=xhci"]
        if self.usb_stick is not None:
            words += [
                "-drive",
                f"file={self.usb_stick},format=raw,if=none,id=stick",
                "-device",
                "usb-storage,drive=stick",
            ]
        return words

    def plug_stick(self, image: Path, name: str) -> None:
        """A USB stick put in while the machine runs (QMP's hot-plug onto the USB controller)."""
        assert self.usb_bus, "the machine was started without a USB controller"
        self.qmp.command(
            "blockdev-add", driver="raw", **{"node-name": name}, file={"driver": "file", "filename": str(image)}
        )
        self.qmp.command("device_add", driver="usb-storage", drive=name, id=name + "-device", bus="xhci.0")

    def plug_touchscreen(self, name: str) -> None:
        """A USB touchscreen (QEMU's USB tablet: absolute axes and a button) put in while the
        machine runs; once the guest reads from it, `qmp.tap` taps on it."""
        assert self.usb_bus, "the machine was started without a USB controller"
        self.qmp.command("device_add", driver="usb-tablet", id=name, bus="xhci.0")

    def unplug_stick(self, name: str) -> None:
        """The stick pulled out, as a person does: no unmount first."""
        self.qmp.command("device_del", id=name + "-device")

    def nic(self) -> str:
        if self.forward is None:
            return "none"
        here, there = self.forward
        return f"user,model=virtio-net-pci,restrict=on,hostfwd=tcp:127.0.0.1:{here}-:{there}"

    def start(self) -> VM:
        for name in ("qmp.sock", "ser.sock"):
            (self.folder / name).unlink(missing_ok=True)
        self.log = open(self.folder / "qemu.log", "ab")
        self.started = time.monotonic()
        self.process = subprocess.Popen(
            self.command(), stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True
        )
        deadline = time.monotonic() + 30
        while not ((self.folder / "qmp.sock").exists() and (self.folder / "ser.sock").exists()):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise VMError(f"QEMU did not start: see {self.folder / 'qemu.log'}")
            time.sleep(0.2)
        # a screendump of an ARM guest under TCG has taken over 30 s: a timed-out socket is
        # useless from then on, so the wait is stretched as every other
        self.qmp = QMP(self.folder / "qmp.sock", timeout=30 * self.arch.slow)
        self.serial = Serial(self.folder / "ser.sock", self.folder / "console.log", self.arch.slow)
        return self

    def since_start(self) -> float:
        return time.monotonic() - self.started

    def kill(self) -> None:
        """The power cut: QEMU ends at once, whatever the guest had not written is gone."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        self.process = None

    def shutdown(self, timeout: float = 90) -> None:
        """A clean power-off from inside (the disk is whole), else the power cut."""
        if self.process is None:
            return
        try:
            self.serial.sock.sendall(b"systemctl poweroff\n")
            self.process.wait(timeout * self.arch.slow)
        except (OSError, subprocess.TimeoutExpired):
            pass
        self.kill()

    def __enter__(self) -> VM:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.kill()
