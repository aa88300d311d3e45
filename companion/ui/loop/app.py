"""The app: one pygame main thread that waits for input, feeds the screens, and redraws only
when something changed.

Waiting. pygame.event.wait() polls SDL every millisecond (1.5-2% of a core while nothing
happens, on any SDL), so the loop pumps SDL itself and sleeps in select() in between (see
waiting.py): on a pipe that device threads write to (`App.post`, `App.wake`), and on the
descriptors input arrives on where the video driver's are known (x11, kmsdrm; dummy has none).
Timers (`after`) and animations shorten the sleep as needed. For a moment after any input it
looks at SDL every 10 ms all the same; where input cannot be watched it polls every 40 ms when
idle.

Taps. A touchscreen makes SDL send finger events and, for the same tap, emulated mouse events.
The app handles the mouse events only (real ones on a desktop, emulated ones on the Pi) and
ignores finger events, so each tap counts once. A tap activates the widget it was pressed on
when it is released over that same widget.

Keys. Tab / arrows move the focus, Enter or Space activates, Escape goes back (or closes a
dialog), Ctrl+Z is undo on game screens, and a screen may take keys first (`Screen.on_key`).
"""

from __future__ import annotations

import heapq
import itertools
import logging
import select
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pygame

from ... import i18n
from ...config import Config, save as save_config
from ..kit import theme as th
from ..kit.layout import GAP, MARGIN, Frame, Viewport, grid, inset, rows
from ..kit.siblings import even_siblings
from ..kit.widgets import Button, Dialog, DialogButton, DrawContext, Label, Panel, Widget
from ..screens.base import GameScreen, Screen
from ..screens.seat_edges import TurnCues
from . import collecting, repaint
from .waiting import WATCHED_IDLE_S, InputWatch, Waker, sleep_until

CALL = pygame.event.custom_type()  # attribute: fn, a callable run on the main thread

ACTIVE_POLL_S = 0.010
IDLE_POLL_S = 0.040
ACTIVE_AFTER_INPUT_S = 2.0
FRAME_S = 1 / 60
# frames of still widgets kept: the one shown and the three a press may lead to (The Cloud
# Mine's right and wrong answer, the end screen), in at most this many bytes (one at least):
# four at 800x480 and 1024x600, three at 1280x800, one on a full-HD screen; the frame being
# drawn counts among them (see _new_frame)
STILL_FRAMES = 4
STILL_BYTES = 12 << 20
WARM_LETTERS = 16  # letters laid out per step while warming the type (about 1 ms)
REHEARSAL_SLICE_S = 0.0005  # drawing ahead gives the loop back this often (a press may be waiting)
# between two steps of that work the loop lets go of the interpreter for this long, waiting on its
# waker: long enough for a device thread that waits for the interpreter to take it (see _called)
GIVE_WAY_S = 0.0001
TOAST_S = 5.0

_ = i18n.translator("app")
log = logging.getLogger(__name__)
SAVE_RETRY_S = 5.0  # how often waiting actions try the disk again


class App:
    def __init__(
        self,
        viewport: Viewport,
        config: Config | None = None,
        controller=None,
        *,
        sounds=None,
        hardware=None,
        journal=None,
        config_path=None,
        clock: Callable[[], float] = time.monotonic,
        voice=None,
    ):
        from ...controller import GameController
        from .hardware import NoHardware

        self.viewport = viewport
        self.config = config or Config()
        self.config_path = config_path
        self.controller = controller or GameController()
        if sounds is None:  # made here only where none is given (the live page's picture brings silence)
            from ...sound import Sounds

            sounds = Sounds(self.config.volume, self.config.muted)
        self.sounds = sounds
        self.hardware = hardware or NoHardware()
        self.journal = journal
        # (mount point, kind) when the journal's folder is lost at reboot: Home says so
        self.storage_warning: tuple[str, str] | None = None
        self.records_work: Any = None  # the records being worked out off the loop (records_work)
        self.clock = clock
        self.theme = th.Theme(viewport.frame.scale)
        self._warming: list = [None, *th.warm_steps(viewport.frame.scale)]  # see warm_step
        self.screen: Screen | None = None
        self.stack: list[Any] = []
        self.widgets: list[Widget] = []
        self.dialog: Dialog | None = None
        self.toast_text: str | None = None
        self.toast_detail: str | None = None
        self.focus_key: str | None = None
        self.pressed: Widget | None = None
        self.running = True
        self.desktop = False  # in a desktop session (a window): Home offers Quit
        self.frames_drawn = 0
        self._dirty = True
        self._needs_build = True
        self._timers: list[tuple[float, int, Callable[[], Any]]] = []
        self._seq = itertools.count()
        self._animate_until = 0.0
        self._last_input = -1e9
        self._toast_seq = 0
        self._waker: Waker | None = None  # made on first use: most test apps never sleep
        self._waker_made = threading.Lock()  # a device thread and the loop may both be first
        self.input = InputWatch.for_display()
        self._dialog_cache: tuple | None = None
        self._rehearsal_key: tuple | None = None  # the state last rehearsed (see rehearse_step)
        self._rehearsal = None
        # frames the rehearsal drew of what a change leads to, and the one this pass shows first
        self._foreseen: list[Foreseen] = []
        self._to_show: Foreseen | None = None
        self.foreseen_shown = 0  # changes whose frame went up as drawn ahead
        self.foreseen_wrong = 0  # of those, frames that were not the screen's (drawn again at once)
        self.flipped = (0.0, 0.0)  # when the last frame went to the screen: perf_counter, thread_time
        self._idle_work: list[Callable[[], Any]] = []  # see when_idle
        self._scratch: pygame.Surface | None = None
        self.still_frames = True  # frames of still widgets kept and shown again (see _still)
        self._stills: OrderedDict[StillKey, pygame.Surface] = OrderedDict()
        self._still_bounds: dict[StillKey, list[pygame.Rect]] = {}  # where each kept frame's widgets paint
        self.frames_painted_in_part = 0  # new frames painted over a kept one where they differ
        self._still_memo: tuple | None = None
        self._status: tuple = (None, None)  # (save problem, stuck buttons) the badges show
        self.game_screen: GameScreen | None = None  # the screen of the game in progress, to continue it from home
        self.turn_cues = TurnCues()
        if voice is None:  # spoken prompts (speech setting); the live page's picture says nothing
            from ..story.voice import Voice

            voice = Voice(self)
        self.voice = voice
        i18n.set_language(self.config.language)
        self.controller.subscribe(self._on_game_change)

    # --- screens ---------------------------------------------------------------------------
    @property
    def frame(self) -> Frame:
        return self.viewport.frame

    def show(self, screen, remember: bool = True) -> None:
        """Go to `screen`; `back()` returns to the current one when `remember`."""
        if self.screen is not None:
            self.screen.on_leave()
            if remember:
                self.stack.append(self.screen)
        self.screen = screen
        self.pressed, self.focus_key, self.dialog = None, None, None
        self._entered(screen)

    def _entered(self, screen) -> None:
        if screen is self.game_screen:
            self.voice.entered(self.controller.match)
        screen.on_enter()
        self.hardware.enter(screen)
        if self.journal is not None:
            self.journal.note_screen(type(screen).__name__)
        self.refresh()

    def quit(self) -> None:
        """Leave the loop (everything is saved already; `run` returns and the app closes)."""
        self.running = False

    def make(self, name: str, *args, **kwargs):
        """The screen called `name` in screens/routes.py, made for this app."""
        from ..screens.routes import ROUTES

        return ROUTES[name](self, *args, **kwargs)

    def menu_entries(self):
        """What every game's menu offers besides the game's own entries (screens/routes.py)."""
        from ..screens.routes import menu_entries

        return menu_entries(self)

    def replace(self, screen) -> None:
        self.show(screen, remember=False)

    def back(self) -> None:
        if self.stack:
            assert self.screen is not None  # the one shown over those remembered
            self.screen.on_leave()
            self.screen = self.stack.pop()
            self.pressed, self.focus_key, self.dialog = None, None, None
            self._entered(self.screen)

    def home(self) -> None:
        from ..screens.home import HomeScreen

        if self.screen is not None:
            self.screen.on_leave()
        self.voice.stop()
        self.stack.clear()
        self.screen = None
        self.show(HomeScreen(self), remember=False)

    def refresh(self) -> None:
        """Rebuild the current screen's widgets and redraw (call after any change it shows)."""
        self._needs_build = True
        self._dirty = True

    def redraw(self) -> None:
        self._dirty = True

    # --- feedback ---------------------------------------------------------------------------
    def toast(self, text: str, seconds: float = TOAST_S, detail: str | None = None) -> None:
        """A line or two for a few seconds (refusals, notices), where the screen says it covers
        no action (Screen.toast_area); `detail` is a second, smaller line (a rule's name)."""
        self.toast_text, self.toast_detail = text, detail
        self._toast_seq += 1
        seq = self._toast_seq
        self.after(seconds, lambda: self._clear_toast(seq))
        self.redraw()

    def _clear_toast(self, seq: int) -> None:
        if seq == self._toast_seq:
            self.toast_text = self.toast_detail = None
            self.redraw()

    def refuse(self, error) -> None:
        """Show a refusal (a RulesError, a seat's Decision): its reason, and the rule it comes
        from, in the players' language."""
        reason, rule = i18n.explain(error)
        # the reason first, in plain words; where it comes from in the rulebook second and smaller
        self.toast(
            _("Not allowed: {reason}").format(reason=reason),
            detail=_("Rule: {rule}").format(rule=rule) if rule else None,
        )

    def ask(self, dialog: Dialog) -> None:
        self.dialog = dialog
        self.pressed, self.focus_key = None, None
        self.redraw()

    def confirm(
        self, title: str, message: str, yes: str, on_yes: Callable[[], Any], no: str | None = None, danger: bool = True
    ) -> None:
        """Ask before anything irreversible."""

        def chosen(fn):
            def run():
                self.close_dialog()
                if fn:
                    fn()

            return run

        self.ask(
            Dialog(
                title,
                message,
                [
                    DialogButton(no or _("Cancel"), chosen(None), "secondary"),
                    DialogButton(yes, chosen(on_yes), "danger" if danger else "primary"),
                ],
            )
        )

    def close_dialog(self) -> None:
        self.dialog = None
        self.pressed = None
        self.redraw()

    # --- settings ---------------------------------------------------------------------------
    def change_config(self, **changes) -> None:
        """Apply and save settings (language, volume, muted, rotate)."""
        self.config = self.config.with_changes(**changes)
        if self.config_path is not None:
            try:
                save_config(self.config, self.config_path)
            except OSError as exc:
                self.toast(_("The settings could not be saved: {error}").format(error=exc.strerror or exc))
        if "language" in changes:
            i18n.set_language(self.config.language)
        if "volume" in changes:
            self.sounds.set_volume(self.config.volume)
        if "muted" in changes:
            self.sounds.set_muted(self.config.muted)
        if not self.voice.on:
            self.voice.stop()
        if "rotate" in changes and changes["rotate"] != self.viewport.rotate:
            self.set_viewport(Viewport(self.viewport.display, self.config.rotate))
        self.refresh()

    def set_viewport(self, viewport: Viewport) -> None:
        self.viewport = viewport
        self.theme = th.Theme(viewport.frame.scale)
        # while idle, the loop opens the type at every size this scale draws (warm_step)
        self._warming = [None, *th.warm_steps(viewport.frame.scale)]

    def warm_step(self) -> bool:
        """Pay one first-time cost ahead (the screens' modules, then the type one size at a
        time, a few letters a step: a whole size takes 8-16 ms here); False when there is none
        left. The loop does this while idle."""
        if not self._warming:
            return False
        step = self._warming.pop(0)
        if step is None:
            from ..screens import (
                end,  # noqa: F401
                routes,  # noqa: F401  every screen's module, loaded
            )
        else:
            px, weight, letters = (*step, th.COMMON_LETTERS)[:3]
            if len(letters) > WARM_LETTERS:  # the rest of this size next time
                self._warming.insert(0, (px, weight, letters[WARM_LETTERS:]))
            th.warm(px, weight, letters[:WARM_LETTERS])
        if not self._warming:
            collecting.settle()
        return bool(self._warming)

    def warm_up(self) -> None:
        """Every first-time cost at once (the bench, before its first press)."""
        while self.warm_step():
            pass
        self.refresh()

    # --- time -------------------------------------------------------------------------------
    def now(self) -> float:
        return self.clock()

    def after(self, seconds: float, fn: Callable[[], Any]) -> None:
        heapq.heappush(self._timers, (self.clock() + seconds, next(self._seq), fn))

    def animate(self, seconds: float) -> None:
        """Draw frames continuously for `seconds` (a short transition), then one still frame."""
        self._animate_until = max(self._animate_until, self.clock() + seconds)
        # the frames stop with the transition; this last one shows where it settled
        self.after(self._animate_until - self.clock(), self.redraw)
        self.redraw()

    def when_idle(self, fn: Callable[[], Any]) -> None:
        """Run `fn` once the frame on screen is drawn and nothing moves, while the loop waits:
        work a press must not wait for (a picture to save). `finish_idle_work` does what is
        left before the app closes."""
        self._idle_work.append(fn)

    def finish_idle_work(self) -> None:
        while self._idle_work:
            self._idle_step()

    def _idle_step(self) -> None:
        try:
            self._idle_work.pop(0)()
        except Exception:  # saved for later, never at the cost of the game
            log.exception("work left for idle time failed")

    @property
    def animating(self) -> bool:
        return self.clock() < self._animate_until

    @property
    def animation_left_s(self) -> float:
        """How long the animation now running goes on (0: none)."""
        return max(0.0, self._animate_until - self.clock())

    # --- threads ----------------------------------------------------------------------------
    def post(self, event_type: int, **attrs) -> None:
        """Thread-safe: queue an event for the main loop and wake it."""
        pygame.event.post(pygame.event.Event(event_type, attrs))
        self.wake()

    def call_soon(self, fn: Callable[[], Any]) -> None:
        """Thread-safe: run `fn` on the main thread."""
        self.post(CALL, fn=fn)

    def wake(self) -> None:
        """Thread-safe: the devices call this when they have something for `poll`."""
        self.waker.set()

    @property
    def waker(self) -> Waker:
        if self._waker is None:
            with self._waker_made:
                if self._waker is None:
                    self._waker = Waker()
        return self._waker

    # --- the loop ---------------------------------------------------------------------------
    def run(self) -> None:
        if self.screen is None:
            self.home()
        while self.running:
            self.pump()
            if self.running:
                self.wait()

    def wait(self) -> None:
        """Sleep until input, a device, a timer, or the next animation frame is due."""
        now = self.clock()
        watched = self.input.fds()
        if self._dirty or self.animating:
            timeout = FRAME_S
        elif now - self._last_input < ACTIVE_AFTER_INPUT_S:
            # while someone is at it, SDL is also looked at often: input may finish arriving
            # by a way no descriptor here shows (an input method's answer over D-Bus)
            timeout = ACTIVE_POLL_S
        else:
            timeout = WATCHED_IDLE_S if watched is not None else IDLE_POLL_S
        if self._timers:
            timeout = min(timeout, max(0.0, self._timers[0][0] - now))
        ship_due = self.hardware.ship_due_s()
        if ship_due is not None:  # the ship's silence, a bed going stuck: shown when due, not at a look
            timeout = min(timeout, ship_due)
        if pygame.event.peek():  # pumps SDL first: what it already read is not on any descriptor
            return
        # nothing else to do: first-time costs paid now, one at a time, rather than on a press
        # (while someone is at it or something moves, within the time the loop would sleep: it
        # still looks at SDL and draws the next frame as often as it says)
        busy = self.animating or now - self._last_input < ACTIVE_AFTER_INPUT_S
        deadline = now + timeout if busy else float("inf")
        # work left for after the frame first (one piece: it may take longer than a frame)
        if self._idle_work and not (self._dirty or self.animating):
            self._idle_step()
            if self._called():
                return
        while self._warming and not (self._dirty or self.animating) and self.clock() < deadline:
            self.warm_step()
            if self._called():
                return
        # then what the next press may show, drawn off screen: between animation frames too
        while not self._dirty and self.clock() < deadline and self.rehearse_step():
            if self._called():
                return
        # and the garbage of all that collected now, not in the middle of the next press
        collecting.tidy(at_rest=not busy)
        ready = sleep_until(self.waker, watched or [], max(0.0, deadline - self.clock()) if busy else timeout)
        self.input.drain(ready)
        if watched is not None and not ready:
            self.input.rescan()

    def _called(self) -> bool:
        """Something waits for the loop: a device's wake, an SDL event, a timer that is due.

        Asked between two steps of idle work, so it waits a moment on the waker with the
        interpreter let go. A seat press arrives on gpiozero's thread, which needs the
        interpreter to put it down and wake the loop; a thread waiting for it takes it only
        when it is free long enough, and each release restarts its wait, so a look that
        returned at once, a step after a step, kept that thread out until the work was done
        (a press waited for all of the drawing ahead, hundreds of ms)."""
        waiting = select.select([self.waker], [], [], GIVE_WAY_S)[0] or pygame.event.peek()
        return bool(waiting) or bool(self._timers and self._timers[0][0] <= self.clock())

    def rehearse_step(self) -> bool:
        """One small step of drawing off screen what the next seat press may show (the game
        screen's `rehearse`): its words fitted and drawn into the caches, its pictures made, so
        that the frame after the press costs blits. False when nothing is left to do."""
        screen = self.screen
        key = (screen, getattr(screen, "match", None), self._foresight_context())
        if key != self._rehearsal_key:
            self._rehearsal_key = key
            self._foreseen.clear()
            rehearse = getattr(screen, "rehearse", None)
            self._rehearsal = rehearse() if rehearse is not None and self.dialog is None else None
        if self._rehearsal is None:
            return False
        try:
            next(self._rehearsal)
            return True
        except StopIteration:
            pass
        except Exception:  # a rehearsal only warms caches: the real frame is drawn all the same
            log.exception("rehearsing the next frame failed")
        self._rehearsal = None
        return False

    def rehearse_screen(self, screen):
        """Steps that build `screen` (a stand-in, or a screen not shown yet) and draw its
        widgets off screen, as `_build_if_needed` and `draw` would; nothing on screen changes.
        Each step is short (REHEARSAL_SLICE_S or one build's part): a press that arrives
        meanwhile waits for one step only. Returns the key its frame is kept by (None: not kept)."""
        frame = self.frame
        widgets = screen.bar(frame, self.theme)
        yield
        widgets += screen.build(frame, self.theme)
        yield
        widgets += screen.overlay(frame, self.theme, widgets)
        even_siblings(widgets, self.theme)
        yield
        ctx = DrawContext(self.theme, None, None, self.clock())
        canvas = self.viewport.canvas
        key, painted = self._kept_by(screen, widgets, ctx, canvas, remember=False)  # the shown frame's stays
        if key is not None and key in self._stills:
            self._stills.move_to_end(key)  # wanted again: kept ahead of frames not foreseen
            return key
        if key is None:
            # not to be kept: drawn where nothing shows it (clipped away), for what it caches
            if self._scratch is None:
                self._scratch = pygame.Surface((1, 1))
            target = self._scratch
        else:
            target = self._new_frame(canvas)
            th.paint_sky(target)
        yield from self._paint_in_slices(target, screen, widgets, ctx)
        if key is not None:
            self._keep(key, target, repaint.part_bounds(painted, self.theme))
        return key

    def _paint_in_slices(self, surface: pygame.Surface, screen, widgets: list[Widget], ctx: DrawContext):
        """`_paint` without its sky, a step every REHEARSAL_SLICE_S."""
        screen.draw_below(surface, ctx)
        until = time.perf_counter() + REHEARSAL_SLICE_S
        for widget in widgets:
            widget.draw(surface, ctx)
            if time.perf_counter() > until:
                yield
                until = time.perf_counter() + REHEARSAL_SLICE_S

    def foresee(self, screen, action, key, ends: bool = False) -> None:
        """`screen`'s rehearsal drew the frame `action` leads to (kept as `key`; `ends`: the end
        screen it shows): if that is the next change, that frame goes up first (draw)."""
        if key is not None:
            self._foreseen.append(Foreseen(screen, screen.match, dict(action), ends, key, self._foresight_context()))

    def _foresight_context(self) -> tuple:
        # what a foreseen frame also depends on: the size, the words, the badges, the frame on
        # screen (a change of the screen's own, a card closed, shows there first), and whether
        # an animation runs (a stand-in drawn while a balloon rose shows it rising)
        memo = self._still_memo
        shown = memo[3] if memo is not None and memo[0] is self.widgets else None
        return (self.frame, self.theme.scale, i18n.current_language(), self._status, shown, self.animating)

    def _foreseen_for(self, screen, before, action) -> Foreseen | None:
        if not self._foreseen:
            return None
        context = self._foresight_context()
        return next(
            (
                seen
                for seen in self._foreseen
                if seen.screen is screen and seen.before is before and seen.action == action and seen.context == context
            ),
            None,
        )

    def pump(self) -> None:
        """Handle every pending event and due timer, then draw if anything changed."""
        # cleared before looking, so a wake() during this pass is not lost by the next wait()
        if self._waker is not None:
            self._waker.clear()
        for event in pygame.event.get():
            self.handle(event)
        for outcome in self.hardware.poll():
            self._seat_outcome(outcome)
        self.hardware.pump_ship(self)  # the cloud ship's judged drops, notices and tilt
        self._check_status()
        now = self.clock()
        while self._timers and self._timers[0][0] <= now:
            _, _, fn = heapq.heappop(self._timers)
            fn()
        if self.screen is not None and (self._dirty or self.animating):
            self.draw()
        self.hardware.frame_shown()  # seat LEDs change after the frame, not while it is drawn
        self.sounds.tend(self._last_input)  # the audio device rests in a quiet spell, wakes on input

    def handle(self, event: pygame.event.Event) -> None:
        kind = event.type
        if kind == pygame.QUIT:
            self.running = False
            return
        if kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.KEYDOWN, pygame.TEXTINPUT):
            self._last_input = self.clock()
        if kind == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self._press(self.viewport.to_canvas(self._tapped_at(event, pressed=True)))
        elif kind == pygame.MOUSEBUTTONUP and event.button == 1:
            self._release(self.viewport.to_canvas(self._tapped_at(event, pressed=False)))
        elif kind in (pygame.KEYDOWN, pygame.KEYUP) and self._seat_key(event):
            pass
        elif kind == pygame.KEYDOWN:
            self._key(event)
        elif kind == pygame.TEXTINPUT and self.dialog is None and self.screen is not None:
            if self.screen.on_text(event.text):
                self.refresh()
        elif kind == CALL:
            event.fn()
        elif kind in (pygame.WINDOWSIZECHANGED, pygame.VIDEORESIZE):
            display = pygame.display.get_surface()
            if display is not None and display.get_size() != self.viewport.display.get_size():
                self.set_viewport(Viewport(display, self.viewport.rotate))
        elif kind in (pygame.WINDOWEXPOSED, pygame.VIDEOEXPOSE):
            self.redraw()
        # FINGERDOWN/FINGERUP/FINGERMOTION: ignored on purpose, the emulated mouse events carry the tap

    # --- input ------------------------------------------------------------------------------
    def _tapped_at(self, event: pygame.event.Event, pressed: bool) -> tuple[int, int]:
        """Where the left button went down (or up) on the display: SDL's position, or ours for
        an absolute pointer an older SDL misplaces (see `pointer`)."""
        return self.input.placed(pressed, self.viewport.display.get_size()) or event.pos

    def live_widgets(self) -> list[Widget]:
        """The widgets that take input now: the dialog's while one is open, else the screen's."""
        self._build_if_needed()
        return self._dialog_widgets if self.dialog else self.widgets

    def widget_at(self, pos: tuple[int, int]) -> Widget | None:
        for widget in reversed(self.live_widgets()):
            if widget.accepts_tap() and widget.rect.collidepoint(pos):
                return widget
        return None

    def _press(self, pos) -> None:
        self.pressed = self.widget_at(pos)
        if self.pressed is not None:
            self.redraw()

    def _release(self, pos) -> None:
        pressed, self.pressed = self.pressed, None
        if pressed is None:
            return
        self.redraw()
        if self.widget_at(pos) is pressed:
            self.focus_key = None  # touch use hides the keyboard focus ring
            pressed.activate()

    def _seat_key(self, event) -> bool:
        """On a desktop, keys press the simulated seat buttons, except while typing a name."""
        if self.dialog is not None or (self.screen is not None and self.screen.wants_text()):
            return False
        return self.hardware.key(event)

    def _check_status(self) -> None:
        """The top bar's warnings follow the journal and the seat buttons as they change."""
        status = (self.controller.save_problem, self.hardware.status_line())
        if status == self._status:
            return
        saving_failed = status[0] is not None and self._status[0] is None
        if saving_failed:  # the system's log says why, for whoever looks after the box
            log.warning("the journal %s", status[0])
        elif status[0] is None and self._status[0] is not None:
            log.info("the journal saved what had waited: everything is on the disk again")
        self._status = status
        self.refresh()
        if saving_failed:
            self.toast(_("Saving failed. The game goes on and is saved as soon as the disk works again."), seconds=8)
            self.after(SAVE_RETRY_S, self._retry_save)

    def _retry_save(self) -> None:
        """While actions wait in memory, try the disk again now and then (not only on a move)."""
        if not self.controller.retry_save():
            self.after(SAVE_RETRY_S, self._retry_save)

    def _seat_outcome(self, outcome) -> None:
        """What a seat press did: the screen may use it; a refusal is shown either way."""
        if self.screen is not None and self.screen.on_seat_outcome(outcome):
            return
        decision = outcome.decision
        if decision.kind == "refuse":
            self.refuse(decision)
        self.redraw()

    def start_game(self, setup, players=None):
        """Start a game (SetupError for a bad setup) and show its screen."""
        from ..screens import game_screen_class

        screen_class = game_screen_class(setup["game"])
        self.controller.new_game(setup)
        screen = screen_class(self, players=players)
        self.game_screen = screen
        self.home()
        self.replace(screen)
        return screen

    def show_game(self):
        """Show the controller's game (a resumed one): colours and seats come from its setup."""
        from ..kit.roster import players_from_setup
        from ..screens import game_screen_class

        match = self.controller.match
        screen = game_screen_class(match.setup["game"])(self, players=players_from_setup(match.setup))
        self.game_screen = screen
        self.home()
        if match.view["over"]:
            from ..screens.end import EndScreen

            self.show(EndScreen(self, screen))
        else:
            self.replace(screen)
        return screen

    def _focusables(self) -> list[Widget]:
        return [w for w in self.live_widgets() if w.focusable and w.accepts_tap()]

    def focused(self) -> Widget | None:
        if self.focus_key is None:
            return None
        return next((w for w in self._focusables() if w.key == self.focus_key), None)

    def _key(self, event) -> None:
        if self.dialog is None and self.screen is not None and self.screen.on_key(event):
            self.refresh()
            return
        key, mods = event.key, event.mod
        if key == pygame.K_ESCAPE:
            if self.dialog is not None:
                self.close_dialog()
            elif self.screen is not None:
                self.screen.on_back()
            return
        if key == pygame.K_z and mods & pygame.KMOD_CTRL and self.dialog is None:
            undo = getattr(self.screen, "undo", None)
            if undo:
                undo()
            return
        focusables = self._focusables()
        if key in (pygame.K_TAB, pygame.K_RIGHT, pygame.K_DOWN, pygame.K_LEFT, pygame.K_UP) and focusables:
            backwards = key in (pygame.K_LEFT, pygame.K_UP) or (key == pygame.K_TAB and mods & pygame.KMOD_SHIFT)
            current = self.focused()
            if current is None:
                index = len(focusables) - 1 if backwards else 0
            else:
                index = (focusables.index(current) + (-1 if backwards else 1)) % len(focusables)
            self.focus_key = focusables[index].key
            self.redraw()
            return
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            current = self.focused()
            if current is not None:
                current.activate()
                self.redraw()
            return
        for widget in focusables:
            if isinstance(widget, Button) and widget.hotkey == key:
                widget.activate()
                self.redraw()
                return

    # --- drawing ----------------------------------------------------------------------------
    def _build_if_needed(self) -> None:
        if not self._needs_build or self.screen is None:
            return
        self._needs_build = False
        frame = self.frame
        widgets = self.screen.bar(frame, self.theme) + self.screen.build(frame, self.theme)
        self.widgets = even_siblings(widgets + self.screen.overlay(frame, self.theme, widgets), self.theme)
        self.overlay_start = len(widgets)  # the screen's own widgets, then its overlay (the story)
        self.pressed = None

    @property
    def _dialog_widgets(self) -> list[Widget]:
        # built once per dialog and layout, so that a press and its release meet the same button
        if self.dialog is None:
            return []
        key = (self.frame, i18n.current_language())
        cache = self._dialog_cache
        if cache is None or cache[0] is not self.dialog or cache[1] != key:
            self._dialog_cache = cache = (self.dialog, key, dialog_widgets(self.dialog, self.frame, self.theme))
        return cache[2]

    def draw(self) -> None:
        if self._show_foreseen():
            return
        self._build_if_needed()
        screen = self.screen
        assert screen is not None  # the loop draws only once a screen is shown
        canvas = self.viewport.canvas
        ctx = DrawContext(self.theme, self.focused(), self.pressed, self.clock())
        still = self._still(screen, self.widgets, ctx, canvas)
        if still is not None:
            canvas.blit(still, (0, 0))
        else:
            self._paint(canvas, screen, self.widgets, ctx)
        screen.draw_above(canvas, ctx)
        self.turn_cues.draw(self, canvas)  # whose move: a ribbon on their seat's edge, a chime
        if self.dialog is not None:
            scrim = pygame.Surface(canvas.get_size(), pygame.SRCALPHA)
            scrim.fill(th.SCRIM)
            canvas.blit(scrim, (0, 0))
            for widget in self._dialog_widgets:
                widget.draw(canvas, ctx)
        if self.toast_text:
            for widget in self._toast_widgets():
                widget.draw(canvas, ctx)
        self._flip()
        self._dirty = False

    def _flip(self) -> None:
        self.viewport.present()
        pygame.display.flip()
        self.frames_drawn += 1
        self.flipped = (time.perf_counter(), time.thread_time())

    def _show_foreseen(self) -> bool:
        """The frame the rehearsal drew of this change, put on the screen before the screen is
        rebuilt (the rebuild and a frame's key cost more than the rest of a press's pass), then
        checked: the rebuilt widgets must be kept by the same key, or the frame is drawn again
        at once. What the screen draws over it comes from the screen as it is before the rebuild
        (Screen.draw_first_above), or the frame is drawn whole."""
        seen, self._to_show = self._to_show, None
        if seen is None or self.dialog is not None or self.toast_text or self.focus_key is not None:
            return False
        on_screen = self.screen if not seen.ends else getattr(self.screen, "game_screen", None)
        kept = self._stills.get(seen.key)
        if on_screen is not seen.screen or kept is None:
            return False
        screen = self.screen
        assert screen is not None  # seen.screen is this screen, or the game behind it
        canvas = self.viewport.canvas
        canvas.blit(kept, (0, 0))
        if not screen.draw_first_above(canvas, DrawContext(self.theme, None, None, self.clock())):
            return False
        self.turn_cues.draw(self, canvas)
        self._flip()
        self.foreseen_shown += 1
        self._build_if_needed()
        ctx = DrawContext(self.theme, self.focused(), self.pressed, self.clock())
        if self._still_key(screen, self.widgets, ctx, canvas) != seen.key:
            self.foreseen_wrong += 1
            log.warning("the frame drawn ahead for %s was not its own: drawn again", type(screen).__name__)
            return False
        self._stills.move_to_end(seen.key)
        # a screen that draws over its widgets (not an animation: its next frame is due anyway)
        self._dirty = type(screen).draw_above is not Screen.draw_above and not self.animating
        return True

    def _paint(self, surface: pygame.Surface, screen, widgets: list[Widget], ctx: DrawContext) -> None:
        """The sky, the screen's own drawing below its widgets, and the widgets."""
        th.paint_sky(surface)
        screen.draw_below(surface, ctx)
        for widget in widgets:
            widget.draw(surface, ctx)

    def _still(self, screen, widgets: list[Widget], ctx: DrawContext, canvas: pygame.Surface) -> pygame.Surface | None:
        """The sky and `widgets` drawn, kept by what they show (their signatures): a frame of
        widgets shown before, or rehearsed (rehearse_screen), is one blit; so is every frame of
        an animation drawn over still widgets. None where a widget may draw differently from
        one frame to the next (it has no signature), or the screen draws below its widgets."""
        key, painted = self._kept_by(screen, widgets, ctx, canvas)
        if key is None:
            return None
        kept = self._stills.get(key)
        if kept is None:
            bounds = repaint.part_bounds(painted, ctx.theme)
            kept = self._painted_over_kept(key, painted, bounds, ctx)
            if kept is None:
                kept = self._new_frame(canvas)
                self._paint(kept, screen, widgets, ctx)
            self._keep(key, kept, bounds)
        else:
            self._stills.move_to_end(key)
        return kept

    def _still_key(self, screen, widgets: list[Widget], ctx: DrawContext, canvas: pygame.Surface):
        """The key `widgets` are kept by (still_key), None where their frame is not kept."""
        return self._kept_by(screen, widgets, ctx, canvas)[0]

    def _kept_by(
        self, screen, widgets: list[Widget], ctx: DrawContext, canvas: pygame.Surface, remember: bool = True
    ) -> tuple[StillKey | None, list]:
        """The key `widgets` are kept by (still_key) and the parts they paint (repaint.parts);
        (None, []) where their frame is not kept. `remember`ed for the next frame of the same
        widgets (the frame on screen's) while the animation that ran, or none, goes on: a widget
        may look otherwise once a moment is over (Cloud 9's balloon, hidden while it rose,
        stands on its cloud again)."""
        if not self.still_frames or type(screen).draw_below is not Screen.draw_below:
            return None, []
        memo, animating = self._still_memo, self.animating
        if (
            memo is not None
            and memo[0] is widgets
            and memo[1] is ctx.pressed
            and memo[2] is ctx.focused
            and memo[4] == animating
        ):
            return memo[3], memo[5]
        painted = repaint.parts(widgets, ctx)
        key = parts_key(painted, ctx, canvas.get_size())
        if remember:
            self._still_memo = (widgets, ctx.pressed, ctx.focused, key, animating, painted)
        return key, painted

    def _painted_over_kept(
        self, key: StillKey, painted: list, bounds: list[pygame.Rect], ctx: DrawContext
    ) -> pygame.Surface | None:
        """The frame of `key` painted over a copy of the frame kept or shown last where their
        widgets differ (repaint), or None where that is not quicker."""
        base_key = next(reversed(self._stills), None)
        if base_key not in self._still_bounds or base_key.parts[:2] != key.parts[:2]:
            return None
        areas = repaint.changed_areas(
            base_key.parts[2], self._still_bounds[base_key], key.parts[2], bounds, key.parts[0]
        )
        if areas is None:
            return None
        base = self._stills[base_key]
        room = self._frames_kept(base)
        if room > 1:
            # the oldest go (the base, the newest, stays); one of them takes the copy
            kept = self._blank_frame(base, self._keep_newest_frames(room - 1))
            kept.blit(base, (0, 0))
        else:  # room for one frame only (full HD): the base itself is painted over, never copied
            kept = self._stills.pop(base_key)
            self._still_bounds.pop(base_key, None)
        repaint.repaint(kept, areas, painted, bounds, ctx)
        self.frames_painted_in_part += 1
        return kept

    def _keep(self, key, kept: pygame.Surface, bounds: list[pygame.Rect] | None = None) -> None:
        """Keep a frame, and where its widgets paint (`bounds`: a later frame may be painted
        over it where they differ)."""
        self._stills[key] = kept
        if bounds is not None:
            self._still_bounds[key] = bounds
        self._keep_newest_frames(self._frames_kept(kept))

    @staticmethod
    def _frames_kept(frame: pygame.Surface) -> int:
        """How many frames of `frame`'s size the budget holds (one at least)."""
        size = frame.get_width() * frame.get_height() * frame.get_bytesize()
        return max(1, min(STILL_FRAMES, STILL_BYTES // max(1, size)))

    def _new_frame(self, canvas: pygame.Surface) -> pygame.Surface:
        """A surface for one more frame to keep, in the canvas's own pixel format. The oldest
        kept frames go first, so that the new one is within the budget too: at full HD, where
        the budget holds one frame, no other is kept while it is drawn."""
        return self._blank_frame(canvas, self._keep_newest_frames(self._frames_kept(canvas) - 1))

    @staticmethod
    def _blank_frame(like: pygame.Surface, spare: pygame.Surface | None) -> pygame.Surface:
        """A surface of `like`'s size and pixel format to paint a frame on: `spare`, a kept
        frame just let go, where it is one (a new surface of a frame's size is fresh memory, and
        touching its pages the first time cost as much as painting a tenth of the frame)."""
        if (
            spare is not None
            and spare.get_size() == like.get_size()
            and spare.get_bitsize() == like.get_bitsize()
            and spare.get_masks() == like.get_masks()
            and not (like.get_flags() | spare.get_flags()) & pygame.SRCALPHA
        ):
            spare.set_clip(None)
            return spare
        return pygame.Surface(like.get_size(), 0, like)

    def forget_other_frames(self) -> None:
        """Keep only the frame shown last: the frames kept and drawn ahead for other states go
        (a game that ended: its next states will not come), before a large picture is drawn."""
        self._keep_newest_frames(1)

    def _keep_newest_frames(self, count: int) -> pygame.Surface | None:
        """Let the oldest kept frames go until `count` are left; the last let go, if any."""
        frame = None
        while len(self._stills) > count:
            gone, frame = self._stills.popitem(last=False)
            self._still_bounds.pop(gone, None)
        return frame

    def layers(self) -> list[list[Widget]]:
        """What is on screen in the order it is drawn, as layers that may cover the one below on
        purpose: the screen, its overlay (the story's card), a dialog, a toast (for tests)."""
        self._build_if_needed()
        split = getattr(self, "overlay_start", len(self.widgets))
        out = [self.widgets[:split], self.widgets[split:]]
        if self.dialog:
            out.append(list(self._dialog_widgets))
        if self.toast_text:
            out.append(self._toast_widgets())
        return out

    def all_widgets(self) -> list[Widget]:
        """Everything on screen now, dialog and toast included (for tests)."""
        self._build_if_needed()
        out = list(self.widgets)
        if self.dialog:
            out += self._dialog_widgets
        if self.toast_text:
            out += self._toast_widgets()
        return out

    def _toast_widgets(self) -> list[Widget]:
        text = self.toast_text
        assert text is not None  # asked for only while a toast shows
        area = self.screen.toast_area(self.frame, self.widgets) if self.screen is not None else None
        return toast_widgets(text, self.frame, self.toast_detail, area)

    # --- the game ---------------------------------------------------------------------------
    def _on_game_change(self, before, after, action) -> None:
        screen = self.screen
        self._to_show = self._foreseen_for(screen, before, action)
        handler = getattr(screen, "on_game_change", None)
        if handler is not None:
            handler(before, after, action)
        # the game screen just found this change's moments (its card): the voice says the same
        game = self.game_screen
        found = game.moments if handler is not None and game is not None and screen is game else None
        self.voice.game_changed(before, after, action, found)
        self.refresh()


def still_key(widgets: list[Widget], ctx: DrawContext, size: tuple[int, int]) -> StillKey | None:
    """What a frame of `widgets` shows, or None where one of them has no signature."""
    return parts_key(repaint.parts(widgets, ctx), ctx, size)


def parts_key(painted: list, ctx: DrawContext, size: tuple[int, int]) -> StillKey | None:
    """What a frame of the parts `painted` (repaint.parts) shows: each part's signature, with
    its clip where it has one; None where one has no signature."""
    signatures: list = []
    for widget, clip in painted:
        signature = widget.signature(ctx)
        if signature is None:
            return None
        signatures.append(signature if clip is None else (signature, tuple(clip)))
    try:
        return StillKey((size, ctx.theme.scale, tuple(signatures)))
    except TypeError:  # a colour given as a list: not kept
        return None


class StillKey:
    """A frame's signatures, hashed once (a few hundred values: looked up and stored)."""

    __slots__ = ("parts", "hash")

    def __init__(self, parts: tuple):
        self.parts, self.hash = parts, hash(parts)

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other) -> bool:
        return isinstance(other, StillKey) and self.hash == other.hash and self.parts == other.parts


def dialog_widgets(dialog: Dialog, frame: Frame, theme: th.Theme) -> list[Widget]:
    u = frame.u
    count = len(dialog.buttons)
    # side by side while they fit: portrait stacks three or more, landscape pairs up four or more
    columns = max(1, count if count <= (2 if frame.portrait else 3) else (1 if frame.portrait else 2))
    lines = max(1, -(-count // columns))  # a dialog without buttons (shutting down) keeps its shape
    w = min(frame.width - 2 * u(MARGIN), u(560))
    h = min(frame.height - 2 * u(MARGIN), u(300 + 76 * (lines - 1)))
    box = pygame.Rect(0, 0, w, h)
    box.center = frame.rect.center
    inner = inset(box, u(MARGIN))
    title, message, buttons = rows(inner, [1.1, 1.6 if lines < 3 else 1.0, 1.3 * lines], u(GAP))
    out: list[Widget] = [
        Panel(box, key="dialog"),
        Label(title, dialog.title, "prompt"),
        Label(message, dialog.message, "body", wrap=True),
    ]
    cells = grid(buttons, count, columns, u(GAP * (1 if columns < count else 2)))
    for rect, b in zip(cells, dialog.buttons):
        out.append(Button(rect, b.text, b.on_tap, kind=b.kind, key=f"dialog:{b.text}"))
    return even_siblings(out, theme)


def _toast_parts(text: str, detail: str, inner: pygame.Rect, u) -> tuple[pygame.Rect, pygame.Rect]:
    """The notice and its rule, each as tall as its lines, together in the middle of the box:
    the rule follows the notice at a line's distance however many lines the notice takes."""
    from ..kit.widgets import fit_text

    def height(words: str, room: int, role: str) -> int:
        px, weight = max(1, u(th.SIZES[role])), th.weight_of(role)
        fitted = fit_text(words, inner.w, room, px, max(1, u(th.SIZES["min"])), True, weight)
        return th.font(fitted.px, weight).block_height(len(fitted.lines)) + u(4)

    rule_h = min(inner.h // 2, height(detail, inner.h // 2, "min"))
    main_h = min(inner.h - rule_h, height(text, inner.h - rule_h, "body"))
    top = inner.y + (inner.h - main_h - rule_h) // 2
    return pygame.Rect(inner.x, top, inner.w, main_h), pygame.Rect(inner.x, top + main_h, inner.w, rule_h)


def toast_widgets(text: str, frame: Frame, detail: str | None = None, area: pygame.Rect | None = None) -> list[Widget]:
    u = frame.u
    box = area or pygame.Rect(u(MARGIN), frame.height - u(MARGIN) - u(88), frame.width - 2 * u(MARGIN), u(88))
    inner = box.inflate(-u(24), -u(10))
    out: list[Widget] = [Panel(box, colour=th.TOAST, border=None, key="toast")]
    if detail:
        main, small = _toast_parts(text, detail, inner, u)
        return out + [
            Label(main, text, "body", colour=(255, 255, 255), wrap=True, key="toast-text"),
            Label(small, detail, "min", colour=(214, 206, 210), wrap=True, key="toast-rule"),
        ]
    return out + [Label(inner, text, "body", colour=(255, 255, 255), wrap=True, key="toast-text")]


@dataclass(frozen=True)
class Foreseen:
    """A frame drawn ahead: what `action` on `screen`'s state `before` leads to, kept as `key`
    (`ends`: the end screen made from `screen`), with what else it depended on (`context`)."""

    screen: Any
    before: Any
    action: dict
    ends: bool
    key: Any
    context: tuple
