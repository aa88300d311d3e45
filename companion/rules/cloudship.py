"""Cloudship: the cooperative flying game for 2 to 4 players (storm, beds, engine room, hail).

Rulebook: Cloudship's English edition; board data and readings 1-9:
docs/rulings.md, "Cloudship"; actions and view: docs/reference/replay-contract.md.

A round: the commander rolls, the storm moves, the ship is loaded and flies; every ball that
comes to rest in a bed is told with a `drop`, and `land` resolves the round. The resolution
pauses whenever the crew must tell something the companion cannot see: where a wild flower
goes (`plant`) or what a freshly flipped tile shows (`reveal`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement
from math import factorial, prod
from typing import Any, TypeVar

from .common import (
    N_,
    Action,
    Outcome,
    RulesError,
    SetupError,
    canonical_action,
    evolve,
    field,
    next_seat,
    setup_player_choice,
    setup_players,
    string_list,
    terms,
)

# --- board data (docs/rulings.md, "Cloudship", board data) -------------------------------

BEDS = ("yellow", "purple", "white", "blue")  # also the order of regular plantings (contract)
STORM = "storm"
FACES = BEDS + (STORM,)
DICE = 3
# each die shows the four bed colours on one face each and the storm symbol on two faces
FACE_WEIGHTS = {"yellow": 1, "purple": 1, "white": 1, "blue": 1, STORM: 2}
# the weather bar's end square; reviews disagree between 12 and 13, so it lives only here
STORM_END = 13
BED_CAPACITY = 3
FLOWERS = 12
ENGINE_SPACES = 12  # numbered 1-12 along the pipe from the red arrow
SECTION_SIZE = 3  # sections 1-3, 4-6, 7-9, 10-12
TILE_SECTIONS = (1, 2, 3)  # section 4 has no tool parts and never takes a tile
HAIL_PER_SET = 1  # each set of three tiles holds exactly one hail tile
BALLS = ("rain", "hail")
# the contract: the ship holds a load only through flight, plant and reveal; before the first
# roll, between rounds and once the game is over (won or lost) it is empty
UNLOADED = (0, 0)
T = TypeVar("T")

MODES = ("standard", "sunny", "partly_cloudy", "overcast", "dreary", "stormy", "tornado")
# reading 7: where the hail tile lies face up within each section (0 = its first space)
FIXED_HAIL_PLACE = {"stormy": 0, "dreary": 1, "overcast": 2}

RULE_ROLL = "1. Roll the Dice"
RULE_STORM = "2. Move Storm Marker"
RULE_LOAD = "3. Load the Cloud Ship"
RULE_FLY = "4. Fly"
RULE_PLANT = "6. Plant and Remove Flowers"
RULE_HAIL = "Hail"
RULE_WILD = "Wild Colors"
RULE_END = "End of the Game"
RULE_CONTRACT = "replay contract"


def section_spaces(section: int) -> range:
    """The engine-room spaces (1-based) of a pipe section."""
    return range((section - 1) * SECTION_SIZE + 1, section * SECTION_SIZE + 1)


@dataclass(frozen=True)
class Tile:
    """A hail tile on an engine-room space. `hail` is None while nobody knows its face."""

    face_up: bool
    hail: bool | None


# --- the readings, one function each -------------------------------------------------------


def storm_after(storm: int, dice: Sequence[str]) -> int:
    """Reading 1: one square per storm symbol, at once; the marker stops on the end square."""
    return min(storm + list(dice).count(STORM), STORM_END)


def raindrops_for(dice: Sequence[str]) -> int:
    """Reading 2: one raindrop per die showing a colour."""
    return sum(1 for face in dice if face != STORM)


def hail_visible(flowers: Sequence[bool], tiles: Sequence[Tile | None]) -> int:
    """Reading 2 and 5: hail counts while its tile is face up and no flower covers it."""
    return sum(
        1 for flower, tile in zip(flowers, tiles) if not flower and tile is not None and tile.face_up and tile.hail
    )


def bed_outcome(rain: int, hail: int, rolled: int) -> tuple[int, int]:
    """Reading 3: (hailstones left to remove flowers, flowers watered) for the balls in one bed.

    Raindrops and hailstones cancel pairwise whatever the bed's colour; what rain is left
    plants at most as many flowers as dice show the bed's colour.
    """
    cancelled = min(rain, hail)
    return hail - cancelled, min(rain - cancelled, rolled)


def next_flower(flowers: Sequence[bool]) -> int:
    """Reading 5: the first flower following the pipe from the red arrow (0-based index)."""
    return list(flowers).index(True)


def return_space(flowers: Sequence[bool]) -> int:
    """Reading 6: a removed flower goes back on the empty space furthest from the temperature
    controller, read as sitting at the red arrow: the empty space with the highest number."""
    return max(i for i, flower in enumerate(flowers) if not flower)


def tile_spaces(mode: str, removed_sets: Sequence[int]) -> list[int]:
    """Reading 7: the spaces (1-based) that hold a tile. Sunny has none; partly cloudy leaves
    out the removed sets; every other mode fills the tool spaces of sections 1-3."""
    if mode == "sunny":
        return []
    return [space for section in TILE_SECTIONS if section not in removed_sets for space in section_spaces(section)]


def fixed_hail_spaces(mode: str) -> set[int]:
    """Reading 7: overcast / dreary / stormy lay the hail tile on the last / middle / first
    space of each section 1-3."""
    place = FIXED_HAIL_PLACE[mode]
    return {section_spaces(section)[place] for section in TILE_SECTIONS}


def check_hail_fits(mode: str, removed_sets: Sequence[int], hail: Sequence[bool]) -> None:
    """SetupError unless the setup's hail list can be what the mode lays out (reading 7)."""
    hailed = {space for space, h in enumerate(hail, start=1) if h}
    tiled = tile_spaces(mode, removed_sets)
    stray = sorted(hailed - set(tiled))
    if stray:
        raise SetupError(f'"hail": space {stray[0]} has no hail tile in {mode} mode, so it cannot show hail')
    if mode in FIXED_HAIL_PLACE:
        expected = fixed_hail_spaces(mode)
        if hailed != expected:
            where = ", ".join(map(str, sorted(expected)))
            raise SetupError(f'"hail": in {mode} mode the hail tiles lie on spaces {where}')
    elif mode == "tornado":
        total = len(TILE_SECTIONS) * HAIL_PER_SET
        if len(hailed) != total:
            raise SetupError(f'"hail": tornado mode has {total} hail tiles among spaces 1-9, not {len(hailed)}')
    elif mode in ("standard", "partly_cloudy"):  # each set shuffled within its own section
        for section in TILE_SECTIONS:
            if section in removed_sets:
                continue
            spaces = section_spaces(section)
            count = sum(1 for space in spaces if space in hailed)
            if count != HAIL_PER_SET:
                raise SetupError(
                    f'"hail": each set of tiles has exactly {HAIL_PER_SET} hail tile, but section '
                    f"{section} (spaces {spaces[0]}-{spaces[-1]}) has {count}"
                )


def tile_layout(mode: str, removed_sets: Sequence[int], hail: Sequence[bool] | None) -> tuple[Tile | None, ...]:
    """Reading 7: the tiles as set up. Fixed modes lie face up (known); the others face down,
    known only when the setup gives the hail list."""
    tiles: list[Tile | None] = [None] * ENGINE_SPACES
    fixed = fixed_hail_spaces(mode) if mode in FIXED_HAIL_PLACE else None
    for space in tile_spaces(mode, removed_sets):
        if fixed is not None:
            tiles[space - 1] = Tile(face_up=True, hail=space in fixed)
        else:
            tiles[space - 1] = Tile(face_up=False, hail=None if hail is None else hail[space - 1])
    return tuple(tiles)


def is_won(beds: Sequence[int]) -> bool:
    """Reading 8: the crew wins when all 12 flowers are planted."""
    return sum(beds) == FLOWERS


# --- the state -------------------------------------------------------------------------------


@dataclass(frozen=True)
class ShipState:
    players: tuple[str, ...]
    mode: str
    commander: str
    storm: int
    beds: tuple[int, ...]  # flowers per bed, in BEDS order
    flowers: tuple[bool, ...]  # engine room, spaces 1-12: is a flower there?
    tiles: tuple[Tile | None, ...]  # engine room, spaces 1-12: the tile beneath, if any
    phase: str = "roll"
    round: int = 1
    dice: tuple[str, ...] | None = None  # the roll being resolved (None between rounds)
    load: tuple[int, int] = UNLOADED  # raindrops, hailstones loaded this round
    drops: tuple[tuple[str, str], ...] = ()  # (ball, bed) in the order they came to rest
    to_plant: tuple[str, ...] = ()  # regular plantings still owed this round
    wild: int = 0  # wild flowers still owed this round
    revealing: int | None = None  # 0-based space whose flipped tile awaits its face
    planted: tuple[str, ...] = ()  # beds that got a flower this round, in order
    removed: tuple[str, ...] = ()  # beds that lost a flower to hail this round
    result: str | None = None  # "won", "lost" or None

    def bed(self, colour: str) -> int:
        return self.beds[BEDS.index(colour)]

    def dropped(self, ball: str) -> int:
        return sum(1 for kind, _ in self.drops if kind == ball)

    def open_beds(self) -> list[str]:
        return [colour for colour, count in zip(BEDS, self.beds) if count < BED_CAPACITY]


def _with(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return values[:index] + (value,) + values[index + 1 :]


# --- resolving a round ---------------------------------------------------------------------


def _resolve(state: ShipState) -> ShipState:
    """Reading 3 and 4: hail removals in every bed first, then the plantings they leave."""
    assert state.dice is not None  # the flight that lands follows a roll
    beds, flowers = list(state.beds), list(state.flowers)
    removed: list[str] = []
    watered: list[int] = []
    for i, colour in enumerate(BEDS):
        rain = state.drops.count(("rain", colour))
        hail = state.drops.count(("hail", colour))
        hail_left, water = bed_outcome(rain, hail, state.dice.count(colour))
        for _ in range(min(hail_left, beds[i])):  # hail on an empty bed does nothing
            beds[i] -= 1
            flowers[return_space(flowers)] = True
            removed.append(colour)
        watered.append(water)
    to_plant: list[str] = []
    wild = 0
    for i, colour in enumerate(BEDS):
        regular = min(watered[i], BED_CAPACITY - beds[i])
        to_plant += [colour] * regular
        wild += watered[i] - regular  # watering a full bed of a rolled colour: a wild flower
    after = evolve(
        state, beds=tuple(beds), flowers=tuple(flowers), removed=tuple(removed), to_plant=tuple(to_plant), wild=wild
    )
    return _carry_on(after)


def _carry_on(state: ShipState) -> ShipState:
    """Plant what the round still owes, one flower at a time, pausing for the crew's word."""
    while state.result is None and state.revealing is None:
        if state.to_plant:
            state = _plant(evolve(state, to_plant=state.to_plant[1:]), state.to_plant[0])
        elif state.wild:
            open_beds = state.open_beds()
            if len(open_beds) > 1:  # reading 4: the crew is asked only when there is a choice
                return evolve(state, phase="plant")
            state = _plant(evolve(state, wild=state.wild - 1), open_beds[0])
        else:
            return _next_round(state)
    return evolve(state, phase="over" if state.result else "reveal")


def _plant(state: ShipState, colour: str) -> ShipState:
    """One flower from the engine room into `colour`; its tile is flipped (reading 5)."""
    space = next_flower(state.flowers)
    i = BEDS.index(colour)
    state = evolve(
        state,
        beds=_with(state.beds, i, state.beds[i] + 1),
        flowers=_with(state.flowers, space, False),
        planted=state.planted + (colour,),
    )
    if is_won(state.beds):  # a win ends everything: nothing else is planted or asked
        return evolve(state, result="won", to_plant=(), wild=0, load=UNLOADED)
    tile = state.tiles[space]
    if tile is None or tile.face_up:
        return state
    if tile.hail is None:
        return evolve(state, revealing=space)
    return evolve(state, tiles=_with(state.tiles, space, Tile(face_up=True, hail=tile.hail)))


def _next_round(state: ShipState) -> ShipState:
    """The round is over: the dice pass to the left and the ship is emptied."""
    return evolve(
        state,
        phase="roll",
        round=state.round + 1,
        commander=next_seat(state.players, state.commander),
        dice=None,
        load=UNLOADED,
        drops=(),
        to_plant=(),
        wild=0,
    )


# --- the rules object ----------------------------------------------------------------------


class CloudshipRules:
    """Cloudship's rules (common.GameRules). `setup` raises SetupError for a setup that cannot
    start a game; `apply` raises RulesError, with the reason and the rule, for any action the
    rules do not allow now; the other methods never raise for a state the rules made."""

    name = "cloudship"
    title = "Cloudship"
    min_players = 2
    max_players = 4

    def setup(self, config: Mapping[str, Any]) -> ShipState:
        players = setup_players(config, self.min_players, self.max_players, self.title)
        commander = setup_player_choice(config, "first_commander", players)
        mode = config.get("mode", "standard")
        if mode not in MODES:
            raise SetupError(f'unknown "mode" {mode!r}: expected one of {", ".join(MODES)}')
        removed_sets = _setup_removed_sets(config, mode)
        hail = _setup_hail(config)
        if hail is not None:
            check_hail_fits(mode, removed_sets, hail)
        return ShipState(
            players=players,
            mode=mode,
            commander=commander,
            storm=0,
            beds=(0,) * len(BEDS),
            flowers=(True,) * ENGINE_SPACES,
            tiles=tile_layout(mode, removed_sets, hail),
        )

    def legal_actions(self, state: ShipState) -> list[dict[str, Any]]:
        if state.phase == "roll":
            return [{"act": "roll", "dice": list(dice)} for dice in combinations_with_replacement(FACES, DICE)]
        if state.phase == "flight":
            drops = [
                {"act": "drop", "ball": ball, "bed": colour}
                for ball, loaded in zip(BALLS, state.load)
                if state.dropped(ball) < loaded
                for colour in BEDS
            ]
            return drops + [{"act": "land"}]
        if state.phase == "plant":
            return [{"act": "plant", "bed": colour} for colour in state.open_beds()]
        if state.phase == "reveal":
            return [{"act": "reveal", "hail": face} for face in (False, True)]
        return []

    def roll_outcomes(self, state: ShipState) -> list[Outcome]:
        """Every roll the commander can make now, with its true probability."""
        if state.phase != "roll":
            return []
        sides = sum(FACE_WEIGHTS.values())
        outcomes = []
        for dice in combinations_with_replacement(FACES, DICE):
            orders = factorial(DICE) // prod(factorial(n) for n in Counter(dice).values())
            chance = orders * prod(FACE_WEIGHTS[face] / sides for face in dice)
            outcomes.append(Outcome({"act": "roll", "dice": list(dice)}, chance))
        return outcomes

    def canonical(self, action: Action) -> dict[str, Any]:
        """The action's one spelling: a roll's dice in face order (the storm counts them, it
        does not read their order), fields Cloudship does not read left out."""
        return canonical_action(action, ACTION_FIELDS, {"dice": FACES})

    def apply(self, state: ShipState, action: Action) -> ShipState:
        act = action.get("act")
        if state.phase == "over":
            if state.result == "won":
                raise RulesError("the game is over, the crew won: all 12 flowers are planted", RULE_END)
            raise RulesError("the game is over, the crew lost: the storm has arrived", RULE_END)
        if not isinstance(act, str) or (handler := _HANDLERS.get(act)) is None:
            raise RulesError(
                "{act!r} is not an action in Cloudship (roll, drop, land, plant, reveal)", RULE_CONTRACT, act=act
            )
        expected = _PHASE_OF[act]
        if state.phase != expected:
            raise _wrong_phase(state)
        return handler(state, action)

    def view(self, state: ShipState) -> dict[str, Any]:
        planted = sum(state.beds)
        return {
            "game": self.name,
            "players": list(state.players),
            "over": state.phase == "over",
            "phase": state.phase,
            "winners": list(state.players) if state.result == "won" else [],
            "scores": dict.fromkeys(state.players, planted),
            "storm": state.storm,
            "storm_end": STORM_END,
            "beds": dict(zip(BEDS, state.beds)),
            "engine_room": sum(state.flowers),
            "hail_visible": hail_visible(state.flowers, state.tiles),
            "load": {"rain": state.load[0], "hail": state.load[1]},
            "commander": state.commander,
            "result": state.result,
            # project extras for the screen
            "mode": state.mode,
            "round": state.round,
            "dice": None if state.dice is None else list(state.dice),
            "drops": [{"ball": ball, "bed": bed} for ball, bed in state.drops],
            "engine": [_space_view(state, i) for i in range(ENGINE_SPACES)],
            "reveal_space": None if state.revealing is None else state.revealing + 1,
            "wild_pending": state.wild,
            "planted": list(state.planted),  # this round's (or the round just ended) plantings
            "removed": list(state.removed),  # and the flowers hail took back
        }


def _space_view(state: ShipState, i: int) -> dict[str, Any]:
    tile = state.tiles[i]
    if tile is None:
        face = None
    elif not tile.face_up:
        face = "face_down"  # even when the setup told the hail: the screen must not spoil it
    else:
        face = "hail" if tile.hail else "blank"
    return {"space": i + 1, "flower": state.flowers[i], "tile": face}


# --- setup fields --------------------------------------------------------------------------


def _setup_removed_sets(config: Mapping[str, Any], mode: str) -> tuple[int, ...]:
    removed = config.get("removed_sets")
    if mode != "partly_cloudy":
        if removed is not None:
            raise SetupError(f'"removed_sets" is only for partly_cloudy mode, not {mode}')
        return ()
    if removed is None:
        raise SetupError('partly_cloudy mode needs "removed_sets": the one or two sets (sections 1-3) left out')
    if (
        not isinstance(removed, list)
        or not 1 <= len(removed) <= 2
        or any(isinstance(s, bool) or s not in TILE_SECTIONS for s in removed)
        or len(set(removed)) != len(removed)
    ):
        raise SetupError(f'"removed_sets" must list one or two different sections from 1, 2, 3, not {removed!r}')
    return tuple(removed)


def _setup_hail(config: Mapping[str, Any]) -> tuple[bool, ...] | None:
    hail = config.get("hail")
    if hail is None:
        return None
    if not isinstance(hail, list) or len(hail) != ENGINE_SPACES or not all(isinstance(h, bool) for h in hail):
        raise SetupError(
            f'"hail" must be a list of {ENGINE_SPACES} true/false values, engine spaces 1-12 in pipe order'
        )
    return tuple(hail)


# --- the actions ---------------------------------------------------------------------------


def _roll(state: ShipState, action: Action) -> ShipState:
    dice = string_list(action, "dice", FACES, N_("three die faces"))
    if len(dice) != DICE:
        raise RulesError("a roll has {want} dice, not {count}", RULE_ROLL, want=DICE, count=len(dice))
    if dice.count(STORM) == DICE:  # "the roll does not count: roll the dice again"
        return state
    storm = storm_after(state.storm, dice)
    fresh = evolve(state, storm=storm, dice=tuple(dice), drops=(), planted=(), removed=())
    if storm >= STORM_END:  # reading 1 and 8: lost at once, before any flight
        return evolve(fresh, phase="over", result="lost", load=UNLOADED)
    load = (raindrops_for(dice), hail_visible(state.flowers, state.tiles))
    return evolve(fresh, phase="flight", load=load)


def _drop(state: ShipState, action: Action) -> ShipState:
    ball = field(action, "ball", str, N_('"rain" or "hail"'))
    if ball not in BALLS:
        raise RulesError('{ball!r} is not a ball: "rain" or "hail"', RULE_CONTRACT, ball=ball)
    colour = _colour(action)
    loaded = state.load[BALLS.index(ball)]
    if state.dropped(ball) >= loaded:
        raise RulesError(_ALL_DOWN[ball, min(loaded, 2)], RULE_LOAD, count=loaded)
    return evolve(state, drops=state.drops + ((ball, colour),))


# (ball, none / one / more loaded) -> why no more can fall: whole sentences, plurals included
_ALL_DOWN = {
    ("rain", 0): N_("no raindrops were loaded this round, so none can fall"),
    ("rain", 1): N_("only {count} raindrop was loaded this round, and all of them have come down"),
    ("rain", 2): N_("only {count} raindrops were loaded this round, and all of them have come down"),
    ("hail", 0): N_("no hailstones were loaded this round, so none can fall"),
    ("hail", 1): N_("only {count} hailstone was loaded this round, and all of them have come down"),
    ("hail", 2): N_("only {count} hailstones were loaded this round, and all of them have come down"),
}


def _land(state: ShipState, action: Action) -> ShipState:
    return _resolve(state)


def _plant_wild(state: ShipState, action: Action) -> ShipState:
    colour = _colour(action)
    if state.bed(colour) >= BED_CAPACITY:
        raise RulesError(_BED_FULL[colour], RULE_WILD, open=terms(state.open_beds()))
    return _carry_on(_plant(evolve(state, wild=state.wild - 1), colour))


# one sentence per bed, so that each language can put the colour into it its own way
_BED_FULL = {
    "yellow": N_("the yellow bed is full: plant the wild flower in a bed that is not full ({open})"),
    "purple": N_("the purple bed is full: plant the wild flower in a bed that is not full ({open})"),
    "white": N_("the white bed is full: plant the wild flower in a bed that is not full ({open})"),
    "blue": N_("the blue bed is full: plant the wild flower in a bed that is not full ({open})"),
}


def _reveal(state: ShipState, action: Action) -> ShipState:
    hail = field(action, "hail", bool, N_("true or false"))  # either face: tiles get set up wrong
    assert state.revealing is not None  # the reveal phase names the flipped space
    tiles = _with(state.tiles, state.revealing, Tile(face_up=True, hail=hail))
    return _carry_on(evolve(state, tiles=tiles, revealing=None))


def _colour(action: Action) -> str:
    colour: str = field(action, "bed", str, N_("a bed colour"))
    if colour not in BEDS:
        raise RulesError("{colour!r} is not a bed: {beds}", RULE_CONTRACT, colour=colour, beds=terms(BEDS))
    return colour


def _wrong_phase(state: ShipState) -> RulesError:
    """Why only the phase's own action fits now, in words for the table."""
    if state.phase == "roll":
        return RulesError("{commander} rolls the dice first", RULE_ROLL, commander=state.commander)
    if state.phase == "flight":
        return RulesError("the ship is flying: tell where balls come to rest (drop) or land", RULE_FLY)
    if state.phase == "plant":
        return RulesError(
            "a wild flower waits for its bed: plant it in {beds}", RULE_WILD, beds=terms(state.open_beds(), "or")
        )
    assert state.revealing is not None  # the only phase left: a flipped tile awaits its face
    return RulesError(
        "the tile on engine space {space} was just flipped: tell whether it shows hail (reveal)",
        RULE_HAIL,
        space=state.revealing + 1,
    )


_HANDLERS = {"roll": _roll, "drop": _drop, "land": _land, "plant": _plant_wild, "reveal": _reveal}
_PHASE_OF = {"roll": "roll", "drop": "flight", "land": "flight", "plant": "plant", "reveal": "reveal"}
# the fields each action has (others are ignored)
ACTION_FIELDS = {"roll": ("dice",), "drop": ("ball", "bed"), "land": (), "plant": ("bed",), "reveal": ("hail",)}

RULES = CloudshipRules()
roll_outcomes = RULES.roll_outcomes
