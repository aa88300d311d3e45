"""The cloud ship in the app: its devices, its news on screen, and its drawing on the Cloudship
screen.

`ShipPanel.open(config, wake, simulated)` starts what the settings ask for: the serial link to
the ship (or, on a desktop without GPIO, the ship's twin on a pty: companion.ship.twin, the real
firmware on a physical model, moved by keys and the mouse), the bed detectors (mock pins on a
desktop, struck by the twin's balls as they land), the flight log, and the judge's session.
Once per main-loop pass `pump(app)` runs the session: judged drops and landings reach the game
through the controller; notices and refusals become toasts; a ball in the air keeps frames
coming so it is seen falling. The devices' records are judged on their own threads (the
session's inlet), which wake the main loop only for the judge's word, or for a visible tilt
while the Cloudship screen shows the ship in flight (`pump` keeps `session.watch_tilt` so). The Cloudship screen draws the flight from
the panel (companion.ui.boards.ship_flight) and reads the tilt through `app.hardware.ship_tilt()`;
the top bar shows `status()`.

Keys for the twin (desktop): f fly, s set down, v b n m fly over the yellow, purple, white,
blue bed, j / k tip a raindrop / a hailstone into the hole, the arrows tilt the deck the way the
balls should roll (a / d too: left, right).
"""

from __future__ import annotations

import logging
import queue
import sys
from collections.abc import Callable

from ... import i18n
from ...config import BED_COLOURS, Config

_ = i18n.translator("ship")
log = logging.getLogger(__name__)

# A thread that wakes while another runs Python waits for the GIL until that one gives it up,
# at the latest after the switch interval (5 ms by default): a ball's line handed from the twin
# to the link's reader to the main loop, while the loop draws a falling ball, could wait for
# it at each step. With the ship on, a waiting thread gets the GIL within a millisecond; when the
# last panel closes (the ship switched off, the app ending) the interval is what it was before.
GIL_SWITCH_S = 0.001
STRIKE_MS = 30  # a key strikes a simulated bed detector for this long
TILT_REDRAW_DEG = 1.0
TWIN_BOOT_S = 1.0  # the twin's firmware starts a second after the app (a Pico boots as long)
SIM_KEYS = {
    "f": "fly",
    "s": "down",
    "a": "left",
    "d": "right",
    "left": "left",
    "right": "right",
    "up": "up",
    "down": "back",
    "j": "rain",
    "k": "hail",
}
BED_KEYS = dict(zip("vbnm", BED_COLOURS))
TILT_KEY_DEG = 3.0
# seen from above, the bow to the right: the deck tips so the balls roll the arrow's way
TILTS = {
    "left": (TILT_KEY_DEG, 0.0),
    "right": (-TILT_KEY_DEG, 0.0),
    "up": (0.0, -TILT_KEY_DEG),
    "back": (0.0, TILT_KEY_DEG),
}

# whole sentences per ball: German and Hungarian articles and endings depend on the noun
OUTSIDE = {
    "rain": i18n.N_("The raindrop fell outside the beds. It does not count: put it back into the ship."),
    "hail": i18n.N_("The hailstone fell outside the beds. It does not count: put it back into the ship."),
}
BED_NAMES = {
    "yellow": i18n.N_("yellow"),
    "purple": i18n.N_("purple"),
    "white": i18n.N_("white"),
    "blue": i18n.N_("blue"),
}
LINK_STATES = {
    "waiting": i18n.N_("connecting"),
    "lost": i18n.N_("link lost"),
    "silent": i18n.N_("silent"),
    "version": i18n.N_("other version"),
}


class ShipPanel:
    def __init__(self, session, *, link=None, simulator=None, beds=None):
        self.session = session
        self.link = link
        self.simulator = simulator
        self.beds = beds
        self._drawn_tilt: tuple[float, float] | None = None
        self._shown = (session.link, (), (), False)
        self._falling = 0
        self.playing = False  # a Cloudship game is the current one
        self.problems: list[str] = []  # what did not start, for the app's first toasts
        self._quick = False  # this panel holds the quick GIL switches (opened by `open`)

    @classmethod
    def open(
        cls,
        config: Config,
        wake: Callable[[], None],
        simulated_pins: bool,
        *,
        pin_factory=None,
        flight_log=None,
        sim_options: dict | None = None,
    ) -> ShipPanel | None:
        """The ship as the settings say; None when it is switched off (`port = "off"`)."""
        from ...ship.flightlog import FlightLog
        from ...ship.link import ShipLink, clock_ms
        from ...ship.session import ShipSession

        port = config.ship_port
        if port == "off":
            return None
        use_sim = port == "sim" or (port == "auto" and simulated_pins)
        _quick_switches(True)
        # the devices' threads hand their records to the session's inlet: judged there, the main
        # loop woken only for the judge's word or a visible tilt (companion.ship.session)
        session = ShipSession(
            queue.Queue(),
            clock=clock_ms,
            timings=config.judge,
            beds_present=False,
            flight_log=flight_log if flight_log is not None else FlightLog(keep=config.flight_logs),
        )
        inlet = session.inlet(wake)
        beds = None
        simulator = None
        link = None
        problems: list[str] = []
        if config.ship_beds:
            from ...devices.beds import BedDetectors

            try:
                beds = BedDetectors(config.bed_pins(), inlet, clock_ms, pin_factory=pin_factory, wake=wake)
            except Exception as exc:  # pins busy (the serial console on GPIO 14): ask by touch
                log.warning("bed detectors unavailable: %s", exc)
                problems.append(f"bed detectors unavailable ({exc}): each ball asks where it landed")
        session.beds_present = beds is not None
        try:
            if use_sim:
                from ...ship.twin.runner import TwinShip, pulse

                options = {"boot_s": TWIN_BOOT_S, **(sim_options or {})}
                simulator = TwinShip(strike=lambda bed: pulse(beds, bed), **options).start()
                assert simulator.path is not None  # the name of its pty, open since it was made
                port = simulator.path
            link = ShipLink(port, inlet, clock=clock_ms, wake=wake)
            link.start()
        except Exception:
            for part in (link, simulator, beds):
                if part is not None:
                    (part.stop if hasattr(part, "stop") else part.close)()
            _quick_switches(False)
            raise
        panel = cls(session, link=link, simulator=simulator, beds=beds)
        panel.problems = problems
        panel._quick = True
        return panel

    # -- the main loop -------------------------------------------------------------------------

    def pump(self, app) -> None:
        from ...ship.session import in_flight, is_cloudship

        session = self.session
        self.playing = is_cloudship(app.controller)
        # the tilt is drawn only on the Cloudship screen during a flight: only then does its
        # change wake the main loop (and redraw)
        watching = self.playing and in_flight(app.controller) and hasattr(app.screen, "ship_tilt")
        if watching != session.watch_tilt:
            session.watch_tilt = watching
            self._drawn_tilt = None
        # a practice flight scores nothing: the judge is given no game while it shows
        practising = bool(getattr(app.screen, "practising", lambda: False)())
        for news in session.poll(None if practising else app.controller):
            if not practising:
                self.show(app, news)
        shown = (session.link, tuple(session.asking), tuple(self.stuck_beds()), self.playing)
        if shown != self._shown:
            self._shown = shown  # the top bar and the flight hint follow the link and the question
            app.refresh()
        tilt = session.tilt if watching else None
        if tilt is not None and (
            self._drawn_tilt is None or max(abs(a - b) for a, b in zip(tilt, self._drawn_tilt)) >= TILT_REDRAW_DEG
        ):
            self._drawn_tilt = tilt
            app.refresh()
        falling = len(session.judge.balls)
        if falling or self._falling:
            app.redraw()
        self._falling = falling

    def due_s(self) -> float:
        """Seconds until the judge has a deadline to fire or a held bed detector counts as
        stuck: the loop sleeps no longer, so both are shown when they happen."""
        due = self.session.due_in_ms()
        if self.beds is not None:
            stuck = self.beds.stuck_in_ms(self.session.clock())
            if stuck is not None:
                due = min(due, stuck)
        return due / 1000

    def show(self, app, news: dict) -> None:
        """One item of the session's news on screen (notices only while Cloudship is played:
        a knock on the box during another game is nobody's business)."""
        from ...ship.session import is_cloudship

        if "refused" not in news and not is_cloudship(app.controller):
            return
        if "refused" in news:
            app.refuse(news["refused"])
        elif "x_ball" in news:
            app.animate((session_max_fall(self.session) + 300) / 1000)
        elif "x_impact" in news:
            app.redraw()
        elif news.get("notice") == "outside":
            app.toast(_(OUTSIDE[news["ball"]]))
        elif news.get("notice") == "no_hole":
            app.toast(
                _(
                    "A ball landed in a bed ({bed}) without coming through the hole. It does not "
                    "count: put it back into the ship."
                ).format(bed=_(BED_NAMES[news["bed"]]))
            )
        elif news.get("link") == "board":
            app.toast(_("The ship reports a problem: {code} {text}").format(code=news["code"], text=news["text"]))
        elif news.get("link") == "lost":
            app.toast(_("The ship's link is lost. Enter the balls by touch until it is back."))
        elif news.get("link") == "version":
            app.toast(
                _("The ship speaks another protocol version ({proto}): update the companion or the ship.").format(
                    proto=news["proto"]
                )
            )

    def stuck_beds(self) -> list[str]:
        return self.beds.stuck_now(self.session.clock()) if self.beds is not None else []

    def status(self) -> str | None:
        """The top bar's word for the ship: simulated, connected (ok) or what is wrong. A ship
        looked for by `auto` and never found is only missed while Cloudship is played: many
        tables have no ship, and a badge on every screen would say nothing to them."""
        stuck = self.stuck_beds()
        if stuck:
            return _("bed detector stuck: {beds}").format(beds=", ".join(_(BED_NAMES[b]) for b in stuck))
        link = self.session.link
        if link == "connected":
            return "simulated" if self.simulator is not None else "ok"
        if link == "waiting" and self.link is not None and self.link.state == "missing":
            return "missing" if self.playing or self.link.spec != "auto" else None
        return _(LINK_STATES.get(link, link))

    def tilt_degrees(self) -> float | None:
        tilt = self.session.tilt
        return None if tilt is None else tilt[1]  # roll: the ship leans left or right on screen

    def key(self, name: str, down: bool, plain: bool = True) -> bool:
        """Desktop keys fly the twin: lift it, carry it over a bed, tilt it, tip a ball in."""
        if self.simulator is None or not plain:
            return False
        sim = self.simulator
        if name in BED_KEYS:
            if down:
                sim.over(BED_KEYS[name])
            return True
        command = SIM_KEYS.get(name)
        if command is None:
            return False
        if down:
            if command == "fly":
                sim.fly()
            elif command == "down":
                sim.set_down()
            elif command in TILTS:
                sim.tilt_by(*TILTS[command])
            else:
                sim.release(command)
        return True

    def close(self) -> None:
        if self.link is not None:
            self.link.stop()
        if self.simulator is not None:
            self.simulator.close()
        if self.beds is not None:
            self.beds.close()
        if self.session.flight_log is not None:
            self.session.flight_log.close()
        if self._quick:
            self._quick = False
            _quick_switches(False)


class _Switching:
    panels = 0  # open panels
    before: float | None = None  # the switch interval before the first


_switching = _Switching()


def _quick_switches(on: bool) -> None:
    """The GIL's switch interval down to GIL_SWITCH_S while any panel is open; back as it was
    when the last one closes."""
    if on:
        if _switching.panels == 0:
            before = _switching.before = sys.getswitchinterval()
            sys.setswitchinterval(min(before, GIL_SWITCH_S))
        _switching.panels += 1
    elif _switching.panels > 0:
        _switching.panels -= 1
        if _switching.panels == 0 and _switching.before is not None:
            sys.setswitchinterval(_switching.before)


def session_max_fall(session) -> int:
    return session.judge.timings.max_fall


def strike_mock(beds, bed: str) -> None:
    """A ball strikes a simulated bed detector: its mock pin goes low for a moment."""
    if beds is None:
        return
    import threading

    pin = beds.pin(bed)
    pin.drive_low()
    timer = threading.Timer(STRIKE_MS / 1000, pin.drive_high)
    timer.daemon = True
    timer.start()


def attach_ship(app, config: Config, problems: list[str]) -> None:
    """Start the ship as the settings say and hand it to the app's hardware; a ship that cannot
    start is a line in `problems`, never a failed start (the game is entered by touch)."""
    try:
        panel = ShipPanel.open(config, app.wake, simulated_pins=bool(app.hardware.simulated))
    except Exception as exc:
        problems.append(f"cloud ship unavailable: {exc}")
        return
    if panel is not None:
        problems.extend(panel.problems)
        app.hardware.ship = panel
        panel.session.attach(app.controller)
