"""The players of a game as the screens draw them: name, colour, and seat at the table."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from . import theme as th


@dataclass(frozen=True)
class Player:
    name: str
    colour: str
    seat: int | None = None


def players_from_setup(setup: Mapping[str, Any]) -> list[Player]:
    """The players with the colours and seats the players screen stored in the setup."""
    colours = setup.get("colours") or {}
    seats = setup.get("seats") or {}
    palette = th.PLAYER_COLOURS
    return [
        Player(name, colours[name] if colours.get(name) in th.COLOURS else palette[i % len(palette)], seats.get(name))
        for i, name in enumerate(setup["players"])
    ]
