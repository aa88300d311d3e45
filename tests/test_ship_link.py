"""The real reader (pyserial's ReaderThread, reading a tty's descriptor directly) over a real
pseudo-terminal fed by the simulated ship: lines in order, an unplug (the pty's master side
closed) and a replug (a new pty behind the same path), junk on the line, and a port that is not
there."""

import queue
import time

import pytest
import serial
import serial.threaded
from hypothesis import given, strategies as st

from companion.ship.judge import Judge
from companion.ship.link import LONGEST, LineSplitter, NoPort, PortReader, ShipLink, find_pico, open_port
from companion.ship.protocol import encode
from companion.ship.sim import ShipSimulator


def collect(events: queue.Queue, until, timeout: float = 5.0) -> list:
    """Records off the queue until `until(records)` holds (or the time is up)."""
    records: list = []
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            records += events.get(timeout=0.02)
        except queue.Empty:
            pass
        if until(records):
            break
    return records


def ship_lines(records) -> list[str]:
    return [value for _t, key, value in records if key == "ship"]


@pytest.fixture
def plugged(tmp_path):
    """A simulated ship behind a stable path (like /dev/serial/by-id), and a running link."""
    made = []

    def plug() -> ShipSimulator:
        sim = ShipSimulator(seed=1, tilt_s=0.01)
        made.append(sim)
        sim.link_at(tmp_path / "ship")
        return sim

    sim = plug()
    events: queue.Queue = queue.Queue()
    woken = []
    link = ShipLink(str(tmp_path / "ship"), events, wake=lambda: woken.append(1), retry_s=0.05)
    link.start()
    yield sim, link, events, plug, woken
    link.stop()
    for s in made:
        s.close()


def test_lines_arrive_in_order_and_judge_cleanly(plugged):
    sim, link, events, _plug, woken = plugged
    first = collect(events, lambda r: ("port", "back") in [x[1:] for x in r])
    assert first[0][1:] == ("port", "back")
    sim.start()
    sim.release("hail")
    records = first + collect(events, lambda r: any("BALL" in line for line in ship_lines(r)))
    lines = ship_lines(records)
    assert any(",hail*" in line for line in lines)
    judge = Judge()
    out = [o for t, key, value in records for o in getattr(judge, key)(t, value)]
    assert not [o for o in out if o.get("link") in ("rejected", "gap")], out
    times = [t for t, _k, _v in records]
    assert times == sorted(times)
    assert woken and link.state == "open"


def test_an_unplug_and_a_replug(plugged):
    sim, link, events, plug, _woken = plugged
    collect(events, lambda r: r)
    sim.start()
    assert ship_lines(collect(events, lambda r: len(ship_lines(r)) >= 3))
    sim.close()  # the master side closed: the cable is out
    lost = collect(events, lambda r: ("port", "lost") in [x[1:] for x in r])
    assert ("port", "lost") in [x[1:] for x in lost]
    assert link.state in ("lost", "open")
    again = plug().start()  # a new pty behind the same path: plugged in again
    back = collect(events, lambda r: ("port", "back") in [x[1:] for x in r] and len(ship_lines(r)) >= 3)
    kinds = [x[1:] for x in back]
    assert ("port", "back") in kinds
    assert len(ship_lines(back[kinds.index(("port", "back")) :])) >= 3
    assert link.opened == 2
    again.close()


def test_junk_and_over_long_lines_reach_the_judge_as_rejections(plugged):
    sim, _link, events, _plug, _woken = plugged
    collect(events, lambda r: r)
    sim.write_raw(b"\x00\xff garbage\r\n")
    sim.write_raw(b"$" + b"A" * 5000 + b"\n")
    sim.send("BALL", "rain")
    records = collect(events, lambda r: any("BALL" in line for line in ship_lines(r)))
    judge = Judge()
    whys = [o.get("why") for t, key, value in records for o in getattr(judge, key)(t, value)]
    assert whys.count("format") == 1 and whys.count("too_long") == 1
    assert max(len(line) for line in ship_lines(records)) <= LONGEST + 1


def test_a_port_that_is_not_there_is_retried_without_blocking(tmp_path):
    events: queue.Queue = queue.Queue()
    started = time.monotonic()
    link = ShipLink(str(tmp_path / "nothing"), events, retry_s=0.05)
    link.start()
    time.sleep(0.15)
    assert link.state == "missing" and link.problem
    link.stop()
    assert time.monotonic() - started < 2
    assert events.empty()


def test_auto_finds_no_pico_here_and_urls_open():
    with pytest.raises(NoPort):
        find_pico()
    port = open_port("loop://")
    port.write(b"$BALL,1,2,rain*0B\n")
    assert port.read(18) == b"$BALL,1,2,rain*0B\n"
    port.close()
    with pytest.raises(NoPort):
        open_port("nonsense://x")


@given(st.lists(st.binary(max_size=30), max_size=12), st.lists(st.integers(1, 40), min_size=1))
def test_lines_do_not_depend_on_how_the_bytes_were_chunked(parts, cuts):
    data = b"\n".join(p.replace(b"\n", b"") for p in parts) + b"\n"
    got = []
    splitter = LineSplitter(lambda records: got.extend(v for _t, _k, v in records), lambda: 0)
    i = 0
    for cut in cuts * (len(data) // sum(cuts) + 1):
        if i >= len(data):
            break
        splitter.data_received(data[i : i + cut])
        i += cut
    assert got == [line.decode("latin-1") for line in data.split(b"\n")[:-1]]


class Chunks(serial.threaded.Protocol):
    """What a reader hands over, chunk by chunk, and how the connection ended."""

    def __init__(self):
        self.chunks: queue.Queue = queue.Queue()
        self.ended: queue.Queue = queue.Queue()

    def data_received(self, data):
        self.chunks.put(data)

    def connection_lost(self, exc):
        self.ended.put(exc)


@pytest.fixture
def board():
    """A simulator that says nothing by itself (not started): the test writes every byte."""
    sim = ShipSimulator()
    yield sim
    sim.close()


def start_reader(port) -> tuple[PortReader, Chunks]:
    chunks = Chunks()
    reader = PortReader(port, lambda: chunks)
    reader.start()
    return reader, chunks


def test_the_reader_takes_each_line_in_one_read_and_stops_when_asked(board):
    reader, chunks = start_reader(open_port(board.path))
    lines = [(encode("TILT", seq, seq * 50, [seq, -seq, 12]) + "\r\n").encode() for seq in range(5)]
    for line in lines:
        board.write_raw(line)
        assert chunks.chunks.get(timeout=2) == line  # whole: not its first byte, then the rest
    started = time.monotonic()
    reader.stop()
    reader.serial.close()
    assert not reader.is_alive() and time.monotonic() - started < 1
    assert chunks.ended.get(timeout=1) is None  # stopped, not failed


def test_the_rest_of_a_line_that_arrives_in_pieces_is_taken_in_one_read(board):
    # the Pico hands its USB port a few bytes a millisecond: after the first piece of a line the
    # reader waits for the rest instead of waking for every piece
    port = open_port(board.path)
    reader = PortReader(port, lambda: chunks)
    reader.PIECE_S = 0.5  # long enough for this busy machine to write the rest meanwhile
    chunks = Chunks()
    reader.start()
    line = b"$BALL,1,2,rain*0B\r\n"
    board.write_raw(line[:8])
    assert chunks.chunks.get(timeout=2) == line[:8]
    board.write_raw(line[8:16])
    board.write_raw(line[16:])
    assert chunks.chunks.get(timeout=2) == line[8:]
    assert reader.reads == 2
    reader.stop()
    reader.serial.close()


def test_a_held_batch_pouring_in_is_taken_in_few_reads_and_a_ball_behind_it_is_not_held(board):
    # a resting ship's board lets a second of TILT lines go together, 8 bytes a millisecond:
    # once whole lines came and a TILT has begun, the reader lets BATCH_S of them arrive
    port = open_port(board.path)
    reader = PortReader(port, lambda: chunks)
    reader.PIECE_S, reader.BATCH_S = 0.2, 5.0  # the batch's bytes take longer than a piece's pause
    chunks = Chunks()
    reader.start()
    batch = b"".join((encode("TILT", seq, seq * 50, [0, 0, 2]) + "\r\n").encode() for seq in range(20))
    batch += (encode("BEAT", 20, 1000, [3900]) + "\r\n").encode()  # its BEAT let it go
    board.write_raw(batch[:8])
    assert chunks.chunks.get(timeout=2) == batch[:8]  # a piece: PIECE_S for the rest of the line
    board.write_raw(batch[8:40])
    time.sleep(0.05)  # a line's end, and a TILT begun
    assert chunks.chunks.get(timeout=2) == batch[8:40]
    for at in range(40, len(batch), 8):  # the rest of the batch, slowly, within BATCH_S
        board.write_raw(batch[at : at + 8])
        time.sleep(0.02)
    assert chunks.chunks.get(timeout=10) == batch[40:]
    assert reader.reads == 3
    ball = (encode("BALL", 21, 1000, ["rain"]) + "\r\n").encode()
    board.write_raw(ball)  # after the batch: read at once
    assert chunks.chunks.get(timeout=2) == ball
    reader.stop()
    reader.serial.close()


@pytest.mark.parametrize(
    "read, pause",
    [
        (b"$TILT,57", "piece"),  # a line's first bytes
        (b"0,0,0,2*16\r\n$TILT,1", "batch"),  # a line's end, then a TILT begun
        (b"0,0,2*16\r\n$TILT,1,2,0,0,2*00\r\n", "batch"),  # a TILT whole after another line
        (b"0,0,0,2*16\r\n", None),  # one line's end: nothing more due
        (b"0,3900*35\r\n$", "piece"),  # a line begun, kind not yet known
        (b"0,3900*35\r\n$BA", "piece"),  # a BALL behind the batch: its rest soon
        (b"$BALL,1,2,rain*0B\r\n", None),
        (b"$TILT,1,2,0,0,2*00\r\n$BEAT,1,2,3900*00\r\n", None),  # a batch ends with its BEAT
        (b"$TILT,1,2,0,0,2*00\r\n$TILT," + b"0" * 5000, None),  # a flood: read on
        ((b"$TILT,1,2,0,0,2*00\r\n" * 200)[:3840], None),  # as much as a pty gives in one read
    ],
)
def test_the_reader_waits_longer_only_inside_a_batch_of_tilts(read, pause):
    reader = PortReader.__new__(PortReader)
    want = {"piece": PortReader.PIECE_S, "batch": PortReader.BATCH_S, None: 0.0}[pause]
    assert reader._pause(read[: PortReader.CHUNK]) == want


def test_the_reader_reports_an_unplug_as_a_serial_error(board):
    reader, chunks = start_reader(open_port(board.path))
    board.write_raw(b"$BALL,1,2,rain*0B\n")
    assert chunks.chunks.get(timeout=2) == b"$BALL,1,2,rain*0B\n"
    board.unplug()  # the cable is out
    assert isinstance(chunks.ended.get(timeout=2), serial.SerialException)
    reader.join(2)
    reader.serial.close()
    assert not reader.is_alive()


def test_a_url_port_without_a_descriptor_is_read_by_pyserials_own_loop():
    port = open_port("loop://")
    reader, chunks = start_reader(port)
    port.write(b"$BALL,1,2,rain*0B\n")
    got = b""
    while not got.endswith(b"\n"):
        got += chunks.chunks.get(timeout=2)
    assert got == b"$BALL,1,2,rain*0B\n"
    reader.stop()
    port.close()
    assert not reader.is_alive()


class FakeClock:
    def __init__(self):
        self.s = 100.0

    def __call__(self):
        return self.s


def feed(pace, clock, bytes_per_ms, ms, every_ms=1):
    """Bytes read `every_ms` at a pace for `ms`; whether the pace said flood at each read."""
    said = []
    for _ in range(ms // every_ms):
        clock.s += every_ms / 1000
        said.append(pace.add(bytes_per_ms * every_ms))
    return said


def test_a_boards_pace_is_never_a_flood_and_a_replays_is_after_one_window():
    from companion.ship.link import Pace

    clock = FakeClock()
    pace = Pace(clock)
    assert not any(feed(pace, clock, 8, 2000))  # the Pico's USB, 8 bytes a millisecond
    assert not any(feed(pace, clock, 12, 2000, every_ms=25))  # Bluetooth at 115200 baud, batched
    flood = feed(pace, clock, 400, 500)  # a replay through a pty: 400 bytes a millisecond
    window = round(Pace.WINDOW_S * 1000)
    assert not any(flood[: window - 1]) and all(flood[window:])
    after = feed(pace, clock, 8, 500)  # the flood ends: a batch is let pour in again
    assert not any(after[window + 1 :])
