"""The live page's address as a QR code: a phone on the home network opens the game with it.

The Settings screen shows the switch and, when it is on, a button to this screen; the game menu
has one too. The address is the one the live page's service published (it sees the network,
the app does not), else the machine's name on the home network while Avahi announces it. When
no phone could open either (the page listens on loopback alone, or has said nothing and the
name is not announced), the screen says so plainly instead of showing a code that leads nowhere.
"""

from __future__ import annotations

import pygame

from ... import i18n
from ...live import address
from ..kit.layout import GAP, cols, rows
from ..kit.widgets import Button, Label, Panel, Widget
from .base import Screen

_ = i18n.translator("app")


class QRCode(Widget):
    """A QR code of `text`, black on white with its quiet zone, as large as the box allows."""

    def __init__(self, rect, text: str, key: str | None = "qr"):
        super().__init__(rect, key)
        self.text = text
        # imported only when a code is shown: segno's writers bring in xml, urllib and ssl
        # (about 7 MiB of the app's memory for a screen seldom opened)
        import segno

        self.matrix = segno.make(text, error="m").matrix

    def draw(self, surface, ctx):
        count = len(self.matrix) + 8  # four modules of white around it, as readers need
        module = max(1, min(self.rect.w, self.rect.h) // count)
        side = module * count
        box = pygame.Rect(0, 0, side, side)
        box.center = self.rect.center
        pygame.draw.rect(surface, (255, 255, 255), box)
        for y, line in enumerate(self.matrix):
            for x, dark in enumerate(line):
                if dark:
                    pygame.draw.rect(
                        surface, (0, 0, 0), (box.x + (x + 4) * module, box.y + (y + 4) * module, module, module)
                    )


def page_url(app) -> tuple[str | None, str | None]:
    """The address a phone can open, or None and why not (see address.phone_url)."""
    return address.phone_url(app.config.live_port)


def no_address_text(reason: str) -> str:
    if reason == address.LOOPBACK_ONLY:
        return _(
            "The live page listens on this machine alone: it found no home network (or was told "
            "to listen on loopback only). A phone cannot open it."
        )
    return _(
        "The live page has not said where it listens, and this machine's name is not announced "
        "on the home network (no Avahi). A phone cannot open it yet."
    )


def caption() -> str:
    return _("Live page")


def settings_buttons(body: pygame.Rect, app, gap: int) -> list[Widget]:
    """On / Off, and the code to open it on a phone once it is on."""
    on = app.config.live
    yes, no, code = cols(body, [1, 1, 1.4], gap)
    out: list[Widget] = [
        Button(yes, _("On"), lambda: app.change_config(live=True), kind="choice", selected=on, key="live:on"),
        Button(no, _("Off"), lambda: app.change_config(live=False), kind="choice", selected=not on, key="live:off"),
    ]
    if on:
        out.append(
            Button(code, _("Show the code"), lambda: app.show(LiveCodeScreen(app)), kind="secondary", key="live:code")
        )
    return out


class LiveCodeScreen(Screen):
    def title(self) -> str:
        return caption()

    def build(self, f, t):
        c = f.content
        gap = f.u(GAP * 2)
        url, reason = page_url(self.app)
        if url is None:
            card = c.inflate(-f.u(GAP * 4), -f.u(GAP * 4))
            if f.portrait:  # the words together, not spread down a tall screen
                card.h //= 2
            title, text = rows(card.inflate(-f.u(24), -f.u(24)), [1, 2.5], gap)
            return [
                Panel(card, key="no-address"),
                Label(title, _("No address a phone can open"), "title", wrap=True, key="live-none"),
                Label(text, no_address_text(reason), "body", wrap=True, key="live-why"),
            ]
        if f.portrait:
            picture, words = rows(c, [3, 1.3], gap)
        else:
            picture, words = cols(c, [1, 1.2], gap)
        hint, link = rows(words, [2, 1], gap)
        return [
            Panel(picture, key="qr-card"),
            QRCode(picture.inflate(-f.u(16), -f.u(16)), url),
            Label(
                hint,
                _(
                    "Scan it with a phone on the home network to follow the game there, "
                    "or open the address on a TV's browser."
                ),
                "body",
                wrap=True,
                key="live-hint",
            ),
            Label(link, url, "title", wrap=True, key="live-url"),
        ]
