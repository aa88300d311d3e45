"""The live page finds the home network's address inside its unit's sandbox.

The unit allows only AF_INET, AF_INET6 and AF_UNIX sockets (RestrictAddressFamilies=): a netlink
socket is refused there with EAFNOSUPPORT. The same refusal is made here by a real seccomp
filter (libseccomp), in a network namespace of its own that has one home-network address on a
tap device; the page must still listen on that address, not on loopback alone.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HOME_ADDRESS = "192.168.77.1"

CHILD = """
import errno, json, socket, sys
if sys.argv[1] == "sandboxed":
    import pyseccomp as seccomp
    rules = seccomp.SyscallFilter(seccomp.ALLOW)
    # what systemd makes of RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX for a netlink socket
    rules.add_rule(seccomp.ERRNO(errno.EAFNOSUPPORT), "socket", seccomp.Arg(0, seccomp.EQ, socket.AF_NETLINK))
    rules.load()
    try:
        socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0)
        sys.exit("the filter let a netlink socket through")
    except OSError as exc:
        assert exc.errno == errno.EAFNOSUPPORT, exc
from companion.live import address
print(json.dumps({"bind": address.hosts_to_bind(None), "url": address.page_url(address.hosts_to_bind(None), 8019)}))
"""


def in_own_network(mode: str) -> dict:
    pytest.importorskip("pyseccomp", reason="pyseccomp (the test extra) is not installed")
    if os.geteuid() != 0 or shutil.which("unshare") is None or shutil.which("ip") is None:
        pytest.skip("needs root, unshare and ip (a network namespace with a tap device)")
    if not Path("/dev/net/tun").exists():
        pytest.skip("no /dev/net/tun for the tap device")
    script = (
        f"ip tuntap add dev cc0 mode tap && ip addr add {HOME_ADDRESS}/24 dev cc0 && ip link set cc0 up "
        f'&& ip link set lo up && exec {sys.executable} -c "$CHILD" {mode}'
    )
    done = subprocess.run(
        ["unshare", "--net", "sh", "-c", script],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "CHILD": CHILD},
        timeout=60,
    )
    if done.returncode != 0 and "unshare" in done.stderr and "Operation not permitted" in done.stderr:
        pytest.skip(f"no network namespace here: {done.stderr.strip()}")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def test_the_home_address_is_found_with_netlink_allowed():
    found = in_own_network("plain")
    assert found["bind"] == ["127.0.0.1", HOME_ADDRESS]


def test_the_home_address_is_found_where_netlink_sockets_are_refused():
    found = in_own_network("sandboxed")
    assert found["bind"] == ["127.0.0.1", HOME_ADDRESS]
    assert found["url"] == f"http://{HOME_ADDRESS}:8019/"  # what the app's QR code shows
