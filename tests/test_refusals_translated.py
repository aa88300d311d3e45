"""Refusals in the players' language: the rules core's RulesError shown in German and Hungarian
by the real app (pygame on the dummy driver) and through the seat buttons (gpiozero on
MockFactory pins); every refusal the rules can raise has its template, rule and game words in
the "rules" catalog; English reasons stay exactly as the rules core writes them."""

from __future__ import annotations

import ast
import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from gpiozero.pins.mock import MockFactory  # noqa: E402

from companion import i18n  # noqa: E402
from companion.config import DEFAULT_SEATS, Config  # noqa: E402
from companion.controller import GameController  # noqa: E402
from companion.devices.events import JUMP  # noqa: E402
from companion.devices.keyboard import KeyboardSeats  # noqa: E402
from companion.devices.seats import SeatInput  # noqa: E402
from companion.devices.table import SeatTable  # noqa: E402
from companion.i18n.refusals import GAME_WORDS  # noqa: E402
from companion.rules import GAME_MODULES, Match, RulesError, cloud9, cloudship  # noqa: E402
from companion.rules.common import Listing, Term  # noqa: E402
from companion.rules.simulate import random_actions  # noqa: E402
from companion.ui.kit.layout import SIZES  # noqa: E402
from companion.ui.loop.hardware import SeatHardware  # noqa: E402
from companion.ui.tools.harness import Harness  # noqa: E402
from timekeeping import ManualClock

PACKAGE = Path(__file__).resolve().parent.parent / "companion"
SHOTS = os.environ.get("REFUSAL_SCREENSHOTS")  # a folder to keep the screenshots in, to look at
TRANSLATED = [lang for lang in i18n.LANGUAGES if lang != i18n.SOURCE_LANGUAGE]
# the toast: the reason first, the rule on a second, smaller line
NOT_ALLOWED = {"de": ("Nicht erlaubt: {reason}", "Regel: {rule}"), "hu": ("Nem szabályos: {reason}", "Szabály: {rule}")}


def toast_for(language: str, reason: str, rule: str) -> tuple[str, str]:
    text, detail = NOT_ALLOWED[language]
    return text.format(reason=reason), detail.format(rule=rule)


def shown(h) -> tuple[str | None, str | None]:
    return h.app.toast_text, h.app.toast_detail


def start(language: str, setup: dict, size=(800, 480)):
    h = Harness(size, config=Config(language=language))
    return h, h.start_game(setup)


def toast_overflows(h: Harness) -> list[str]:
    """The toast's text where it does not fit its box (must be none)."""
    return [text for w in h.widgets() if w.key in ("toast-text", "toast-rule") for text in w.overflow(h.app.theme)]


def shot(h: Harness, name: str, tmp_path) -> Path:
    return h.save(Path(SHOTS or tmp_path) / name)


# --- the real app shows each game's refusals in German and Hungarian ---------------------------

CLOUD9 = {
    "de": {
        "roll": ("der Pilot würfelt auf Wolke 1 mit 2 Würfeln, nicht mit 1", "Spielablauf, Schritt 1"),
        "name": ("Cat kann noch nicht im Ballonkorb bleiben: zuerst entscheidet Ben", "Spielablauf, Schritt 2"),
        "colour": ("der Wurf verlangt Ballonkarten in Rot (1) und Grün (1) oder einen Joker", "Spielablauf, Schritt 1"),
    },
    "hu": {
        "roll": ("a(z) 1. felhőn a pilóta 2 kockával dob, nem 1 kockával", "A játék menete, 1. lépés"),
        "name": ("Cat még nem maradhat: először Ben dönt", "A játék menete, 2. lépés"),
        "colour": ("a dobáshoz 1 piros és 1 zöld lap kell, vagy egy joker", "A játék menete, 1. lépés"),
    },
}


@pytest.mark.parametrize("language", TRANSLATED)
def test_cloud9_refusals_read_in_the_players_language(language, tmp_path):
    h, screen = start(language, {"game": "cloud9", "players": ["Ann", "Ben", "Cat"]})
    expected = CLOUD9[language]
    h.tap("face:yellow")  # one die where cloud 1 rolls two
    h.tap("done")
    assert shown(h) == toast_for(language, *expected["roll"])
    assert screen.submit({"act": "roll", "dice": ["red", "green"]})
    assert not screen.submit({"act": "stay", "player": "Cat"})  # Ben decides first
    assert shown(h) == toast_for(language, *expected["name"])
    assert screen.submit({"act": "stay", "player": "Ben"}) and screen.submit({"act": "stay", "player": "Cat"})
    assert not screen.submit({"act": "rise", "cards": ["red"]})  # the green card is missing
    assert shown(h) == toast_for(language, *expected["colour"])
    assert h.app.controller.match.view["phase"] == "resolve"  # nothing changed
    assert toast_overflows(h) == []
    assert shot(h, f"cloud9-refusal-{language}.png", tmp_path).exists()


CLOUDSHIP = {
    "de": {
        "name": ("zuerst würfelt Ann", "1. Würfeln"),
        "full": (
            "das gelbe Beet ist voll: pflanzt die Joker-Blume in ein Beet, das nicht voll ist (Lila, Weiß, Blau)",
            "Joker-Farben",
        ),
        "wait": ("eine Joker-Blume wartet auf ihr Beet: wählt Lila, Weiß oder Blau", "Joker-Farben"),
    },
    "hu": {
        "name": ("először Ann dob", "1. Dobás"),
        "full": (
            "a sárga ágyás tele van: a joker virágot egy nem teli ágyásba ültessétek (lila, fehér, kék)",
            "Joker színek",
        ),
        "wait": ("egy joker virág ágyásra vár; válasszatok: lila, fehér vagy kék", "Joker színek"),
    },
}


def to_a_wild_flower(screen) -> None:
    """Sunny mode (no tiles to reveal): fill the yellow bed, then water it once more."""
    for action in (
        [{"act": "roll", "dice": ["yellow"] * 3}]
        + [{"act": "drop", "ball": "rain", "bed": "yellow"}] * 3
        + [
            {"act": "land"},
            {"act": "roll", "dice": ["yellow", "purple", "storm"]},
            {"act": "drop", "ball": "rain", "bed": "yellow"},
            {"act": "land"},
        ]
    ):
        assert screen.submit(action), action


@pytest.mark.parametrize("language", TRANSLATED)
def test_cloudship_refusals_read_in_the_players_language(language, tmp_path):
    h, screen = start(language, {"game": "cloudship", "players": ["Ann", "Ben"], "mode": "sunny"})
    expected = CLOUDSHIP[language]
    assert not screen.submit({"act": "land"})
    assert shown(h) == toast_for(language, *expected["name"])
    to_a_wild_flower(screen)
    h.app.pump()
    assert h.app.controller.match.view["phase"] == "plant"
    h.tap("plant:yellow")  # the full bed's button, offered disabled
    assert shown(h) == toast_for(language, *expected["full"])
    assert not screen.submit({"act": "land"})
    assert shown(h) == toast_for(language, *expected["wait"])
    assert h.app.controller.match.view["phase"] == "plant"
    assert toast_overflows(h) == []
    assert shot(h, f"cloudship-refusal-{language}.png", tmp_path).exists()


CLOUDMINE = {
    "de": ("Ann ist Träumer und rät nicht; jetzt rät Ben", "Eine Runde, Schritt 4"),
    "hu": ("Ann az Álmodozó, ő nem találgat; most Ben következik", "A játék menete, 4. lépés"),
}


@pytest.mark.parametrize("language", TRANSLATED)
def test_cloudmine_refusals_read_in_the_players_language(language, tmp_path):
    h, screen = start(language, {"game": "cloudmine", "players": ["Ann", "Ben", "Cat", "Dan"]})
    assert not screen.submit({"act": "guess", "player": "Ann", "correct": True})
    assert shown(h) == toast_for(language, *CLOUDMINE[language])
    assert h.app.controller.match.actions() == []
    assert toast_overflows(h) == []
    assert shot(h, f"cloudmine-refusal-{language}.png", tmp_path).exists()


@pytest.mark.parametrize("size", SIZES)
def test_the_longest_translated_refusal_fits_its_toast_at_every_size(size):
    h, screen = start("de", {"game": "cloudship", "players": ["Ann", "Ben"], "mode": "sunny"}, size)
    to_a_wild_flower(screen)
    assert not screen.submit({"act": "plant", "bed": "yellow"})
    assert "das gelbe Beet ist voll" in h.app.toast_text
    assert toast_overflows(h) == [] and "toast" not in h.off_canvas()


def test_the_language_can_change_between_refusals():
    h, screen = start("de", {"game": "cloudmine", "players": ["Ann", "Ben", "Cat", "Dan"]})
    h.app.change_config(language="hu")
    screen.submit({"act": "guess", "player": "Ann", "correct": True})
    assert shown(h) == toast_for("hu", *CLOUDMINE["hu"])
    h.app.change_config(language="en")
    screen.submit({"act": "guess", "player": "Ann", "correct": True})
    assert shown(h) == ("Not allowed: Ann is the Dreamer and does not guess; Ben guesses now", "Rule: a round, step 4")


# --- the seat buttons: refusals by the rules core and by the seat router -----------------------


@pytest.fixture
def seats():
    clock = ManualClock(10.0)
    seat_input = SeatInput(DEFAULT_SEATS, pin_factory=MockFactory(), clock=clock)
    table = SeatTable(seat_input, together_s=0)
    yield clock, seat_input, SeatHardware(table, simulated=True, keyboard=KeyboardSeats(seat_input))
    table.close()


def press(clock, seat_input, seat, button, h):
    pin = seat_input.pin(seat, button)
    pin.drive_low()
    clock.now += 0.05
    pin.drive_high()
    clock.now += 0.05
    h.app.pump()


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_seat_press_the_rules_core_refuses_reads_in_the_players_language(language, seats, monkeypatch):
    clock, seat_input, hardware = seats
    h = Harness((800, 480), config=Config(language=language), hardware=hardware)
    h.start_game({"game": "cloud9", "players": ["Ann", "Ben", "Cat"]})
    controller = h.app.controller
    controller.submit({"act": "roll", "dice": ["red", "green"]})
    real_submit = controller.submit

    def overtaken(action):
        # as if another press got in first: the rules core has the last word and refuses Ben
        return real_submit({"act": "stay", "player": "Cat"})

    monkeypatch.setattr(controller, "submit", overtaken)
    press(clock, seat_input, 2, JUMP, h)  # seat 2 is Ben, who decides now
    assert shown(h) == toast_for(language, *CLOUD9[language]["name"])
    assert controller.match.view["to_decide"] == "Ben"


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_seat_router_refusal_names_its_rule_in_the_players_language(language, seats):
    clock, seat_input, hardware = seats
    h = Harness((800, 480), config=Config(language=language), hardware=hardware)
    h.start_game({"game": "cloudship", "players": ["Ann", "Ben"]})
    press(clock, seat_input, 1, JUMP, h)  # the commander's JUMP before the roll
    rule = {"de": "1. Würfeln", "hu": "1. Dobás"}[language]
    assert h.app.toast_detail.endswith(f" {rule}") and "roll the dice" not in h.app.toast_text


def test_every_rule_the_seat_router_names_is_translated():
    tree = ast.parse((PACKAGE / "devices" / "router.py").read_text(encoding="utf-8"))
    rules = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Decision":
            args = [k.value for k in node.keywords if k.arg == "rule"] + node.args[4:5]
            rules |= {a.value for a in args if isinstance(a, ast.Constant) and isinstance(a.value, str)}
    assert len(rules) >= 5
    for language in TRANSLATED:
        untranslated = sorted(r for r in rules if not translates(r, language))
        assert not untranslated, f"{language}: {untranslated}"


# --- every refusal the rules can raise is in the catalog ---------------------------------------

SETUPS = {
    "cloud9": [
        {"game": "cloud9", "players": ["Ann", "Ben", "Cat", "Dan"]},
        {"game": "cloud9", "players": ["A{0}", "Bé}", "Cs{x"]},
    ],  # braces in names
    "cloudship": [
        {"game": "cloudship", "players": ["Ann", "Ben", "Cat"]},
        {"game": "cloudship", "players": ["Ann", "Ben"], "mode": "tornado"},
        {"game": "cloudship", "players": ["Ann", "Ben"], "mode": "sunny"},
    ],
    "cloudmine": [
        {"game": "cloudmine", "players": ["Ann", "Ben", "Cat"]},
        {"game": "cloudmine", "players": ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]},
    ],
}
WORDS = [
    "Ann",
    "Ben",
    "Zed",
    "A{0}",
    "red",
    "yellow",
    "green",
    "purple",
    "blue",
    "white",
    "wild",
    "blank",
    "storm",
    "rain",
    "hail",
    "pink",
    "",
]
ACTS = ["roll", "jump", "stay", "rise", "fall", "drop", "land", "plant", "reveal", "guess", "undo", "redo", "pass", ""]


def translates(msgid: str, language: str) -> bool:
    return i18n.catalog("rules", language).gettext(msgid) != msgid


def words_in(value) -> list[str]:
    if isinstance(value, Listing):
        return [w for item in value.items for w in words_in(item)]
    return [str(value)] if isinstance(value, Term) else []


def check_translated(error: RulesError) -> None:
    """The template, the rule and every game word are in both catalogs, and the sentence
    explained in each language is that language's (no fallback to the English reason)."""
    assert error.reason == (error.template.format(**error.params) if error.params else error.template)
    for language in TRANSLATED:
        assert translates(error.template, language), (language, error.template)
        assert translates(error.rule, language), (language, error.rule)
        for word in (w for value in error.params.values() for w in words_in(value)):
            assert translates(word, language), (language, word)
        i18n.set_language(language)
        try:
            reason, rule = i18n.explain(error)
        finally:
            i18n.set_language("en")
        assert reason != error.reason and rule != error.rule, (language, error.template)
    assert i18n.explain(error) == (error.reason, error.rule)  # English: exactly the rules core's


def long_games(game: str, seeds: int = 4):
    """Every match along a few random games played to their end (undo now and then)."""
    out = []
    for setup in SETUPS[game]:
        for seed in range(seeds):
            last = None
            for before, action in random_actions(setup, seed, undo_rate=0.05):
                out.append(before)
                last = before.apply(action)
            if last is not None:
                out.append(last)
    return out


_POOL: dict[str, list[Match]] = {}


def pool(game: str) -> list[Match]:
    if game not in _POOL:
        _POOL[game] = long_games(game)
    return _POOL[game]


def near_misses(match: Match) -> list[dict]:
    """A few legal actions tried by every player and with each field swapped or left out."""
    out: list[dict] = [{"act": a} for a in ACTS]
    players = match.view["players"] + ["Zed"]
    legal = match.legal_actions()
    for action in legal[:3] + legal[-3:]:
        out += [{**action, "player": p} for p in players]
        for key in action:
            if key != "act":
                out.append({k: v for k, v in action.items() if k != key})
                out += [{**action, key: v} for v in (None, True, 3, "pink", ["pink"], ["red"] * 5)]
        out += [dict(action, act=a) for a in ACTS]
    return out


@pytest.mark.parametrize("game", sorted(GAME_MODULES))
def test_every_refusal_along_long_random_games_is_in_the_catalog(game):
    templates = set()
    for match in pool(game)[::3]:
        for action in near_misses(match):
            try:
                match.apply(action)
            except RulesError as error:
                if error.template not in templates:  # each template checked once
                    templates.add(error.template)
                    check_translated(error)
    assert len(templates) >= {"cloud9": 20, "cloudship": 12, "cloudmine": 8}[game]


json_leaf = st.one_of(st.none(), st.booleans(), st.integers(-3, 20), st.sampled_from(WORDS))
json_value = st.recursive(
    json_leaf,
    lambda inner: st.one_of(st.lists(inner, max_size=5), st.dictionaries(st.sampled_from(WORDS), inner, max_size=3)),
    max_leaves=8,
)
junk_action = st.fixed_dictionaries(
    {"act": st.one_of(st.sampled_from(ACTS), json_leaf)},
    optional=dict.fromkeys(["player", "dice", "cards", "ball", "bed", "hail", "correct"], json_value),
)


@pytest.mark.parametrize("game", sorted(GAME_MODULES))
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_refusal_of_junk_is_in_the_catalog(game, data):
    match = data.draw(st.sampled_from(pool(game)))
    action = data.draw(st.one_of(junk_action, json_value))
    try:
        match.apply(action)
    except RulesError as error:
        check_translated(error)


def test_the_controller_refusal_is_in_the_catalog():
    with pytest.raises(RulesError) as caught:
        GameController().submit({"act": "roll"})
    check_translated(caught.value)


def test_every_game_word_is_in_the_catalog():
    vocabulary = set(cloud9.FACES) | set(cloud9.CARDS) | set(cloudship.FACES) | set(cloudship.BEDS)
    assert vocabulary <= set(GAME_WORDS)
    for language in TRANSLATED:
        assert all(translates(word, language) for word in vocabulary)


def test_every_refusal_template_is_written_whole_in_the_source():
    """No template is put together by code (an f-string, a join, a .format): translators get
    whole sentences. A template is a literal, or picked from a table of N_() literals."""
    sources = sorted((PACKAGE / "rules").glob("*.py")) + [PACKAGE / "controller.py"]
    calls = 0
    for path in sources:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "RulesError":
                calls += 1
                template = node.args[0]
                assert isinstance(template, (ast.Constant, ast.Subscript)), (
                    f"{path.name}:{node.lineno}: RulesError needs a literal template"
                )
    assert calls > 50


# --- explain: the one place a refusal is put into words ----------------------------------------


def in_language(language, error):
    i18n.set_language(language)
    return i18n.explain(error)


def test_shared_winners_are_joined_the_way_each_language_does():
    error = RulesError(
        "the game is over: {winners} won", "winning the game", winners=Listing(["Ann", "Ben", "Cat"], "and")
    )
    assert error.reason == "the game is over: Ann and Ben and Cat won"
    assert in_language("de", error) == ("das Spiel ist vorbei. Gewonnen: Ann, Ben und Cat", "Spielgewinn")
    assert in_language("hu", error)[0] == "vége a játéknak: Ann, Ben és Cat nyert"


def test_a_template_without_a_translation_falls_back_to_the_english_reason():
    error = RulesError("{player} may not sing now", "house rule", player="Ann")
    assert in_language("de", error) == ("Ann may not sing now", "house rule")


def test_a_translation_that_does_not_fit_its_params_falls_back_to_the_english_reason():
    class Mangled(RulesError):
        pass

    error = Mangled("{pilot} must roll the dice first", "playing the game, step 1", pilot="Ann")
    error.params = {"someone": "Ann"}  # the catalog's sentence asks for {pilot}
    assert in_language("de", error) == ("Ann must roll the dice first", "Spielablauf, Schritt 1")


def test_anything_with_a_reason_is_explained_as_it_is():
    class Said:
        reason, rule = "schon übersetzt", "4. Fly"

    assert in_language("de", Said()) == ("schon übersetzt", "4. Fliegen")
    assert in_language("hu", ValueError("plain")) == ("plain", None)


def test_names_with_braces_are_never_formatted():
    assert RulesError("{not a placeholder}").reason == "{not a placeholder}"
    error = RulesError("{player} has already jumped out of this trip", "playing the game, step 2", player="A{0}}")
    assert error.reason == "A{0}} has already jumped out of this trip"
    assert in_language("de", error)[0] == "A{0}} ist aus dieser Ballonfahrt schon herausgesprungen"
    assert (error.template, error.params) == ("{player} has already jumped out of this trip", {"player": "A{0}}"})


def test_game_words_stay_plain_strings_for_the_replay_contract():
    with pytest.raises(RulesError) as caught:
        Match.start(SETUPS["cloudship"][0]).apply({"act": "roll", "dice": ["pink"] * 3})
    error = caught.value
    assert error.reason == "'pink' is not one of yellow, purple, white, blue, storm"
    assert json.loads(json.dumps({"reason": error.reason})) == {"reason": error.reason}
