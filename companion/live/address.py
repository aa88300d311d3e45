"""Where the live page listens and how a phone finds it: the home network only.

The server binds to loopback and to this machine's private (home network) IPv4 addresses; it
refuses any client whose address is not private, loopback or link-local. The URL it serves is
written to a small file the app reads for its QR code (the app itself runs without a network:
it cannot see the addresses).
"""

from __future__ import annotations

import array
import fcntl
import ipaddress
import os
import socket
import struct
import warnings
from pathlib import Path

import platformdirs

from ..config import APP_NAME

URL_FILE_ENV = "CLOUD_COMPANION_LIVE_URL_FILE"
SIOCGIFCONF = 0x8912  # linux/sockios.h: every interface's IPv4 address
# struct ifreq: the name (16 bytes) and a union as large as struct ifmap (three longs and more)
IFREQ_SIZE = 40 if struct.calcsize("P") == 8 else 32


def url_file() -> Path:
    """The file the live server writes its URL to (its unit sets the path for both services)."""
    given = os.environ.get(URL_FILE_ENV)
    if given:
        return Path(given)
    with warnings.catch_warnings():  # no XDG_RUNTIME_DIR (a service, a container): its fallback is fine
        warnings.simplefilter("ignore")
        return Path(platformdirs.user_runtime_dir(APP_NAME)) / "live-url"


def allowed_client(host: str | None) -> bool:
    """A client on the home network: loopback, link-local or a private range. Anything else
    (a public address, a forwarded port) is refused."""
    if not host:
        return False
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if address.is_loopback or address.is_link_local:
        return True
    # is_private also holds for 0.0.0.0/8, documentation and reserved ranges: only the real
    # home-network ranges count
    networks = ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7")
    return any(address in ipaddress.ip_network(n) for n in networks)


def lan_addresses() -> list[str]:
    """This machine's private IPv4 addresses, one per interface that has one (no packet is sent:
    the kernel is asked for its interfaces' addresses).

    SIOCGIFCONF on an AF_INET socket, not if_nameindex() or getifaddrs(): glibc answers those
    through a netlink socket, which the live unit's RestrictAddressFamilies= refuses, and the
    page would then listen on loopback alone."""
    found: list[str] = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            interfaces = _ipv4_interfaces(probe.fileno())
    except OSError:
        return found
    for _name, address in interfaces:
        if address not in found and allowed_client(address) and not ipaddress.ip_address(address).is_loopback:
            found.append(address)
    return found


def _ipv4_interfaces(fd: int) -> list[tuple[str, str]]:
    """(interface, IPv4 address) for each address the kernel has (SIOCGIFCONF)."""
    size = IFREQ_SIZE * 32
    while True:
        buffer = array.array("B", bytes(size))
        packed = fcntl.ioctl(fd, SIOCGIFCONF, struct.pack("iP", size, buffer.buffer_info()[0]))
        used = struct.unpack("iP", packed)[0]
        if used < size:  # everything fitted (a full buffer may have cut the list short)
            break
        size *= 2
    data = buffer.tobytes()
    out = []
    for start in range(0, used - IFREQ_SIZE + 1, IFREQ_SIZE):
        name = data[start : start + 16].split(b"\0", 1)[0].decode(errors="replace")
        out.append((name, socket.inet_ntoa(data[start + 20 : start + 24])))  # sockaddr_in's address
    return out


def hosts_to_bind(given: str | None) -> list[str]:
    """`--host H` as given; by default loopback and every home-network address."""
    if given:
        return [given]
    return ["127.0.0.1", *lan_addresses()]


def page_url(hosts: list[str], port: int) -> str:
    """The URL to show: a home-network address when there is one, else loopback."""
    lan = [h for h in hosts if h not in ("127.0.0.1", "::1", "localhost")]
    host = (lan or hosts or ["127.0.0.1"])[0]
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def host_name(host: str) -> str:
    """A Host header's name or address alone: no port, no brackets, no final dot, lower case."""
    host = host.strip().lower()
    if host.startswith("["):  # [v6]:port
        return host[1 : host.find("]")] if "]" in host else host
    if host.count(":") == 1:
        host = host.split(":", 1)[0]
    return host.rstrip(".")


def own_names(hosts: list[str], url: str | None) -> set[str]:
    """The names a request may ask for: the addresses listened on (every home-network address
    when listening on all of them), loopback's, this machine's name with and without `.local`
    (mDNS), and the host of the published URL."""
    names = {"localhost", "127.0.0.1", "::1"}
    for host in hosts:
        names.update(lan_addresses() if host in ("0.0.0.0", "::", "") else [host])
    machine = socket.gethostname().lower()
    names.update({machine, f"{machine}.local"})
    if url:
        names.add(host_name(url.split("//", 1)[-1].split("/", 1)[0]))
    return {host_name(n) for n in names if n}


def publish(url: str | None, path: Path | None = None) -> None:
    """Write (or, with None, remove) the URL the app shows; a place it cannot write is skipped:
    the app then shows the name-based URL (fallback_url) where Avahi announces it."""
    path = path or url_file()
    try:
        if url is None:
            path.unlink(missing_ok=True)
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(url + "\n", encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        pass


def published_url(path: Path | None = None) -> str | None:
    try:
        text = (path or url_file()).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return text if text.startswith("http://") and len(text) < 200 else None


def fallback_url(port: int) -> str:
    """The page by the machine's name (mDNS, which Raspberry Pi OS answers): for the QR code
    before the live server has said where it listens."""
    return f"http://{socket.gethostname()}.local:{port}/"


# avahi-daemon's socket: there while the machine's `.local` name is announced on the network
AVAHI_SOCKET = Path("/run/avahi-daemon/socket")
LOOPBACK_ONLY = "loopback"  # the page listens on this machine alone (no home network found)
NO_ADDRESS = "no-address"  # the page has said nothing, and the machine's name is not announced


def phone_url(port: int, avahi: Path | None = None) -> tuple[str | None, str | None]:
    """The address a phone on the home network can open, else None and why (LOOPBACK_ONLY,
    NO_ADDRESS): the published one unless it is loopback's, else the machine's `.local` name
    while Avahi announces it."""
    url = published_url()
    if url is not None:
        host = host_name(url.split("//", 1)[-1].split("/", 1)[0])
        try:
            loopback = ipaddress.ip_address(host).is_loopback
        except ValueError:
            loopback = host == "localhost"
        return (None, LOOPBACK_ONLY) if loopback else (url, None)
    if (avahi or AVAHI_SOCKET).exists():
        return fallback_url(port), None
    return None, NO_ADDRESS
