"""Settings: language, volume and mute, spoken prompts, rotation, the seat test, where the seats sit
around the screen, the sensor's status, the odds and the forecast, and the live page for the TV
and phones (its switch and QR code)."""

from __future__ import annotations

from functools import partial

import pygame

from ... import i18n
from ...appliance import power
from ...config import ROTATIONS
from ..boards import forecast_view, risk_meter
from ..kit.layout import GAP, cols, rows
from ..kit.widgets import Button, Label, Widget
from . import live_code
from .base import Screen, sensor_text
from .seat_edges import SeatEdgesScreen
from .seat_test import SeatTestScreen

_ = i18n.translator("app")

VOLUME_STEP = 0.1


class SettingsScreen(Screen):
    def title(self) -> str:
        return _("Settings")

    page = 0  # 0: the basics (language, sound, speech, rotation, seats); 1: more

    def build(self, f, t):
        c = f.content
        gap = f.u(GAP)
        out: list[Widget] = []
        # two pages, so that every target stays large at 800x480 (eleven rows do not fit)
        tabs, c = rows(c, [1, 6 if f.portrait else 4.2], gap)
        tabs = tabs if f.portrait else cols(tabs, [1, 1], 2 * gap)[0]
        for rect, (number, text, key) in zip(
            cols(tabs, 2, gap), ((0, _("Basics"), "settings:basics"), (1, _("More"), "settings:more"))
        ):
            out.append(
                Button(
                    rect, text, lambda n=number: self.show_page(n), kind="choice", selected=self.page == number, key=key
                )
            )
        fill = self.basics if self.page == 0 else self.more
        lines_wanted = fill(None, None, gap)
        n_rows = max(lines_wanted, 5)
        if f.portrait:  # one column, each caption left of its controls
            lines = rows(c, n_rows, gap)
        else:  # two columns, each caption above its controls: every target stays large
            per_column = -(-n_rows // 2)
            left, right = cols(c, 2, 2 * gap)
            lines = rows(left, per_column, gap) + rows(right, per_column, gap)[: n_rows - per_column]

        def row(rect, caption):
            if f.portrait:
                head, body = cols(rect, [1, 2.2], gap)
            else:
                head, body = rows(rect, [1, 2], f.u(2))
            if caption:  # a row that goes on with the one above has none
                out.append(Label(head, caption, "body", align="left", wrap=True))
            return body

        fill(lines, row, gap, out, f)
        return out

    def show_page(self, number: int) -> None:
        self.page = number
        self.refresh()

    def basics(self, lines, row, gap, out=None, f=None) -> int:
        """Language, sound, volume, spoken prompts, rotation, seat buttons (the rows it needs)."""
        if lines is None:
            return 6
        config = self.app.config
        languages = row(lines[0], _("Language"))
        for rect, code in zip(cols(languages, len(i18n.LANGUAGES), gap), i18n.LANGUAGES):
            out.append(
                Button(
                    rect,
                    i18n.LANGUAGE_NAMES[code],
                    partial(self.app.change_config, language=code),
                    kind="choice",
                    selected=config.language == code,
                    key=f"lang:{code}",
                )
            )

        # the state is the highlighted one of the pair, the other is the way to change it
        mute = row(lines[1], _("Sound"))
        if not self.app.sounds.available:  # no audio device: say so rather than offer a switch
            out.append(Label(mute, _("No sound device"), "small", wrap=True, key="mute"))
        else:
            on, off = cols(mute, 2, gap)
            out += [
                Button(
                    on,
                    _("Sound on"),
                    lambda: self.app.change_config(muted=False),
                    kind="choice",
                    selected=not config.muted,
                    key="unmute",
                ),
                Button(
                    off,
                    _("Sound off"),
                    lambda: self.app.change_config(muted=True),
                    kind="choice",
                    selected=config.muted,
                    key="mute",
                ),
            ]

        sound = row(lines[2], _("Volume"))
        minus, level, plus = cols(sound, [1, 1.2, 1], gap)
        out += [
            Button(
                minus,
                "-",
                lambda: self.volume(-VOLUME_STEP),
                kind="secondary",
                key="quieter",
                enabled=config.volume > 0,
                size="prompt",
            ),
            Label(level, f"{round(config.volume * 100)}%", "title", key="volume"),
            Button(
                plus,
                "+",
                lambda: self.volume(VOLUME_STEP),
                kind="secondary",
                key="louder",
                enabled=config.volume < 1,
                size="prompt",
            ),
        ]

        out += self.speech_row(row(lines[3], _("Spoken prompts")), gap)

        turn = row(lines[4], _("Rotation"))
        for rect, degrees in zip(cols(turn, len(ROTATIONS), gap), ROTATIONS):
            out.append(
                Button(
                    rect,
                    f"{degrees}°",
                    partial(self.app.change_config, rotate=degrees),
                    kind="choice",
                    selected=config.rotate == degrees,
                    key=f"rotate:{degrees}",
                )
            )

        seats = row(lines[5], _("Seat buttons"))
        test, where, result = cols(seats, [1, 1, 1.1], gap)
        out.append(
            Button(
                test,
                _("Test the seats"),
                lambda: self.app.show(SeatTestScreen(self.app)),
                kind="choice",
                key="seat-test",
            )
        )
        out.append(
            Button(
                where,
                _("Where they sit"),
                lambda: self.app.show(SeatEdgesScreen(self.app)),
                kind="choice",
                key="seat-edges",
            )
        )
        shown = self.app.hardware.status_line() or (_("Simulated") if self.app.hardware.simulated else _("Ready"))
        out.append(Label(result, shown, "small", wrap=True, key="seat-result"))
        return 6

    def more(self, lines, row, gap, out=None, f=None) -> int:
        """The ship sensor, the odds, the forecast, the live page, and on the Pi the power."""
        can_power_off = power.available()
        live = self.app.config.live  # on: its code gets a row of its own
        if lines is None:
            return 4 + live + can_power_off
        sensor = row(lines[0], _("Ship sensor"))
        status = self.app.hardware.sensor_status()
        out.append(
            Label(sensor, sensor_text(status) if status else _("none connected"), "body", align="left", key="sensor")
        )
        out += risk_meter.settings_buttons(row(lines[1], risk_meter.settings_caption()), self.app, gap)
        out += forecast_view.settings_buttons(row(lines[2], forecast_view.settings_caption()), self.app, gap)
        switch = row(lines[3], live_code.caption())
        out += self.live_buttons(switch, row(lines[4], "") if live else None, gap)
        if can_power_off:  # the Pi, running as the service: switch it off safely
            off = row(lines[4 + live], _("Power"))
            off = off if f.portrait else cols(off, [1, 1.3], gap)[0]
            out.append(Button(off, _("Shut down"), self.ask_shut_down, kind="secondary", key="shut-down"))
        return 4 + live + can_power_off

    def live_buttons(self, switch: pygame.Rect, below: pygame.Rect | None, gap: int) -> list[Widget]:
        """The live page's On and Off in the two halves the odds' and the forecast's pairs take
        (buttons that stand together share one shape), and once it is on, the way to its code
        on the row below, as wide as the pair: a button of another kind, not a third choice."""
        halves = cols(switch, 2, gap)
        places = {"live:on": halves[0], "live:off": halves[1]}
        if below is not None:
            places["live:code"] = below
        made = live_code.settings_buttons(switch, self.app, gap)
        return [
            Button(places[b.key], b.text, b.on_tap, kind=b.kind, selected=b.selected, key=b.key)
            for b in made
            if isinstance(b, Button) and b.key in places
        ]

    def speech_row(self, rect, gap) -> list[Widget]:
        """On / Off; where the app cannot speak, the buttons are off and the reason is shown."""
        voice, config = self.app.voice, self.app.config
        on, off, note = cols(rect, [1, 1, 2], gap)
        can_speak = voice.unavailable_reason is None
        if voice.speech.unavailable_reason:
            reason = _("Silent: no voice is installed")
        elif not can_speak:
            reason = _("No sound device")
        else:
            reason = ""
        return [
            Button(
                on,
                _("On"),
                lambda: self.app.change_config(speech=True),
                kind="choice",
                selected=config.speech and can_speak,
                enabled=can_speak,
                key="speech:on",
            ),
            Button(
                off,
                _("Off"),
                lambda: self.app.change_config(speech=False),
                kind="choice",
                selected=not (config.speech and can_speak),
                enabled=can_speak,
                key="speech:off",
            ),
            Label(note, reason, "small", wrap=True, key="speech-note"),
        ]

    def ask_shut_down(self) -> None:
        self.app.confirm(
            _("Shut down?"),
            _(
                "The games are saved. Unplug the companion once the green light on the "
                "Raspberry Pi has stopped blinking."
            ),
            _("Shut down"),
            self.shut_down,
        )

    def shut_down(self) -> None:
        """Show that it is going, then leave the loop: the app closes the journal and powers off."""
        from ..kit.widgets import Dialog

        power.request()
        self.app.ask(
            Dialog(_("Shutting down"), _("Unplug once the green light on the Raspberry Pi has stopped blinking."), [])
        )
        self.app.after(0.3, lambda: setattr(self.app, "running", False))

    def volume(self, step: float) -> None:
        level = min(1.0, max(0.0, round(self.app.config.volume + step, 2)))
        self.app.change_config(volume=level)
        self.app.sounds.play("right")  # hear the new level
