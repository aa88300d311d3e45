"""Settings: language, volume and mute, rotation, the seat test and the sensor's status."""

from __future__ import annotations

from ... import i18n
from ...config import ROTATIONS
from .. import risk_meter
from ..layout import GAP, cols, rows
from ..widgets import Button, Label, Widget
from .base import Screen, sensor_text
from .seat_test import SeatTestScreen

_ = i18n.translator("app")

VOLUME_STEP = 0.1


class SettingsScreen(Screen):
    def title(self) -> str:
        return _("Settings")

    def build(self, f, t):
        c = f.content
        gap = f.u(GAP)
        config = self.app.config
        n_rows = 6
        lines = rows(c, n_rows, gap)
        out: list[Widget] = []

        def row(rect, caption):
            head, body = cols(rect, [1, 2.6] if not f.portrait else [1, 2.2], gap)
            out.append(Label(head, caption, "body", align="left", wrap=True))
            return body

        languages = row(lines[0], _("Language"))
        for rect, code in zip(cols(languages, len(i18n.LANGUAGES), gap), i18n.LANGUAGES):
            out.append(Button(rect, i18n.LANGUAGE_NAMES[code], lambda c=code: self.app.change_config(language=c),
                              kind="choice", selected=config.language == code, key=f"lang:{code}"))

        sound = row(lines[1], _("Volume"))
        minus, level, plus, mute = cols(sound, [1, 1.2, 1, 2], gap)
        out += [Button(minus, "-", lambda: self.volume(-VOLUME_STEP), kind="secondary", key="quieter",
                       enabled=config.volume > 0, size="prompt"),
                Label(level, f"{round(config.volume * 100)}%", "title", key="volume"),
                Button(plus, "+", lambda: self.volume(VOLUME_STEP), kind="secondary", key="louder",
                       enabled=config.volume < 1, size="prompt"),
                Button(mute, self.sound_state(config),
                       lambda: self.app.change_config(muted=not self.app.config.muted),
                       kind="choice", selected=config.muted, key="mute")]

        turn = row(lines[2], _("Rotation"))
        for rect, degrees in zip(cols(turn, len(ROTATIONS), gap), ROTATIONS):
            out.append(Button(rect, f"{degrees}°", lambda d=degrees: self.app.change_config(rotate=d),
                              kind="choice", selected=config.rotate == degrees, key=f"rotate:{degrees}"))

        seats = row(lines[3], _("Seat buttons"))
        test, result = cols(seats, [1, 1.3], gap)
        out.append(Button(test, _("Test the seats"), lambda: self.app.show(SeatTestScreen(self.app)),
                          kind="choice", key="seat-test"))
        shown = self.app.hardware.status_line() or (_("Simulated") if self.app.hardware.simulated else _("Ready"))
        out.append(Label(result, shown, "small", wrap=True, key="seat-result"))

        sensor = row(lines[4], _("Ship sensor"))
        status = self.app.hardware.sensor_status()
        out.append(Label(sensor, sensor_text(status) if status else _("none connected"), "body", align="left",
                         key="sensor"))
        out += risk_meter.settings_row(lines[5], self.app, f, gap)  # the odds, on or off
        return out

    def volume(self, step: float) -> None:
        level = min(1.0, max(0.0, round(self.app.config.volume + step, 2)))
        self.app.change_config(volume=level)
        self.app.sounds.play("right")  # hear the new level


    def sound_state(self, config) -> str:
        if not self.app.sounds.available:  # no audio device: say so rather than "Sound on"
            return _("No sound device")
        return _("Sound off") if config.muted else _("Sound on")
