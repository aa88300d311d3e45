"""The top bar's warnings: a journal that cannot write, and a stuck seat button.

Both come from real parts: SQLite refusing writes (PRAGMA query_only on the journal's own
connections) and a gpiozero MockFactory pin held down past the stuck limit.
"""

from __future__ import annotations

import sqlite3

from gpiozero.pins.mock import MockFactory

from companion.config import DEFAULT_SEATS
from companion.controller import GameController
from companion.devices.events import JUMP
from companion.devices.seats import SeatInput
from companion.devices.table import SeatTable
from companion.journal import Journal, store
from companion.ui.loop.app import SAVE_RETRY_S
from companion.ui.loop.hardware import SeatHardware
from companion.ui.tools.harness import Harness
from timekeeping import ManualClock

SETUP = {"game": "cloudmine", "players": ["Ann", "Ben", "Cat", "Dan"]}


class SwitchableDisk:
    """The journal's real connections, made to refuse writes and to accept them again."""

    def __init__(self):
        self.conns: list[sqlite3.Connection] = []

    def connect(self, path, readonly):
        conn = store.connect(path, readonly)
        self.conns.append(conn)
        return conn

    def read_only(self, flag: bool):
        for conn in self.conns:
            try:
                conn.execute(f"PRAGMA query_only = {int(flag)}")
            except sqlite3.ProgrammingError:
                pass  # closed


def test_a_failing_disk_shows_a_badge_and_saves_by_itself_when_it_works_again(tmp_path, caplog):
    caplog.set_level("INFO", logger="companion.ui.loop.app")
    disk = SwitchableDisk()
    journal = Journal.open(tmp_path / "journal.sqlite3", connect=disk.connect)
    clock = ManualClock(1000.0)
    h = Harness(controller=GameController(journal), journal=journal, clock=clock)
    try:
        h.start_game(SETUP)
        h.app.pump()
        assert "Not saved yet" not in h.texts()
        disk.read_only(True)
        h.tap("Wrong card")  # accepted: the game goes on in memory
        h.app.pump()
        assert h.app.controller.save_problem is not None
        assert "Not saved yet" in h.texts()
        assert any(text.startswith("Saving failed.") for text in h.texts())
        # and the system's log says why, once (the appliance's journalctl shows it)
        warned = [
            r.getMessage() for r in caplog.records if r.levelname == "WARNING" and "cannot save" in r.getMessage()
        ]
        assert len(warned) == 1 and "read-only" in warned[0], warned
        disk.read_only(False)
        clock.advance(SAVE_RETRY_S + 0.1)  # no new move: the app retries on its own
        h.app.pump()
        h.app.pump()
        assert h.app.controller.save_problem is None
        assert "Not saved yet" not in h.texts()
        assert any("saved what had waited" in r.getMessage() for r in caplog.records)
        assert Journal.read(tmp_path / "journal.sqlite3").stored(1)[1] == h.app.controller.match.actions()
    finally:
        journal.close()


def stuck_shown(h) -> bool:
    # the full sentence where the top bar has room, else the short badge
    return any("held down" in text or text == "Button stuck" for text in h.texts())


def test_a_stuck_seat_button_is_shown_on_every_screen_until_released():
    clock = ManualClock(1000.0)
    seat_input = SeatInput(DEFAULT_SEATS[:4], pin_factory=MockFactory(), simulated=True, clock=clock)
    hardware = SeatHardware(SeatTable(seat_input), simulated=True)
    h = Harness(hardware=hardware, clock=clock)
    try:
        h.start_game(SETUP)
        pin = seat_input.pin(3, JUMP)
        pin.drive_low()
        h.app.pump()
        clock.advance(10.5)
        h.app.pump()
        assert stuck_shown(h)
        h.app.home()
        h.app.pump()
        assert stuck_shown(h)
        pin.drive_high()
        h.app.pump()
        assert not stuck_shown(h)
    finally:
        hardware.close()
