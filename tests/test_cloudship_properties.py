"""Cloudship invariants over long random legal games in every mode, and fuzzed refusals."""

import random

from hypothesis import event, given, settings, strategies as st

from companion.rules import Match, RulesError
from companion.rules.cloudship import BALLS, FACES, MODES, RULES

PLAYER_SETS = [["Ann", "Ben"], ["Ann", "Ben", "Cat"], ["Ann", "Ben", "Cat", "Dan"]]
# written out here rather than taken from the module, so the test checks the layout too
FIXED_HAIL = {"overcast": (3, 6, 9), "dreary": (2, 5, 8), "stormy": (1, 4, 7)}
ASKS_REVEALS = {"standard", "partly_cloudy", "tornado"}
STEP_LIMIT = 300  # a long evening; a crew that never rolls a storm may fly for ever


@st.composite
def hail_lists(draw, mode, removed):
    if mode == "sunny":
        spaces = []
    elif mode in FIXED_HAIL:
        spaces = list(FIXED_HAIL[mode])
    elif mode == "tornado":
        spaces = draw(st.lists(st.integers(1, 9), min_size=3, max_size=3, unique=True))
    else:  # one hail tile per set, somewhere in its own section
        spaces = [draw(st.integers(1, 3)) + 3 * (section - 1) for section in (1, 2, 3) if section not in removed]
    return [space in spaces for space in range(1, 13)]


@st.composite
def setups(draw):
    mode = draw(st.sampled_from(MODES))
    players = draw(st.sampled_from(PLAYER_SETS))
    setup = {"game": "cloudship", "players": players, "mode": mode, "first_commander": draw(st.sampled_from(players))}
    removed = []
    if mode == "partly_cloudy":
        removed = draw(st.lists(st.integers(1, 3), min_size=1, max_size=2, unique=True))
        setup["removed_sets"] = removed
    if draw(st.booleans()):
        setup["hail"] = draw(hail_lists(mode, removed))
    return setup


def check_state(setup, v):
    assert sum(v["beds"].values()) + v["engine_room"] == 12
    assert v["engine_room"] == sum(space["flower"] for space in v["engine"])
    assert all(0 <= n <= 3 for n in v["beds"].values())
    assert 0 <= v["storm"] <= v["storm_end"] == 13
    assert set(v["scores"].values()) == {sum(v["beds"].values())}
    assert v["over"] == (v["phase"] == "over") == (v["result"] is not None)
    assert v["winners"] == (v["players"] if v["result"] == "won" else [])
    assert (v["result"] == "lost") == (v["storm"] == 13)
    if v["result"] == "won":
        assert v["engine_room"] == 0
    assert v["hail_visible"] == sum(1 for s in v["engine"] if not s["flower"] and s["tile"] == "hail")
    if v["phase"] in ("roll", "over"):  # the ship holds a load only while a round is played
        assert v["load"] == {"rain": 0, "hail": 0}
    if v["phase"] == "roll" or v["result"] == "lost":
        assert v["drops"] == []
    if v["phase"] in ("flight", "plant", "reveal"):
        for ball in BALLS:
            assert sum(1 for d in v["drops"] if d["ball"] == ball) <= v["load"][ball]
    if v["phase"] == "reveal":
        assert "hail" not in setup and setup["mode"] in ASKS_REVEALS
    if v["phase"] == "plant":
        assert sum(1 for n in v["beds"].values() if n < 3) >= 2 and v["wild_pending"] >= 1


def check_step(before, action, after):
    assert after["storm"] >= before["storm"]
    # a tile once flipped never turns back over
    for old, new in zip(before["engine"], after["engine"]):
        if old["tile"] != "face_down":
            assert new["tile"] == old["tile"]
    if action["act"] == "roll":
        if action["dice"].count("storm") == 3:
            assert after == before
        elif after["result"] != "lost":
            rain = sum(1 for face in action["dice"] if face != "storm")
            assert after["load"] == {"rain": rain, "hail": before["hail_visible"]}
            assert after["storm"] == before["storm"] + action["dice"].count("storm")
    elif after["phase"] in ("flight", "plant", "reveal"):
        assert after["load"] == before["load"]  # the round's load holds until the round ends
    round_ended = before["phase"] != "roll" and after["phase"] == "roll"
    if round_ended:
        seat = before["players"].index(before["commander"])
        assert after["commander"] == before["players"][(seat + 1) % len(before["players"])]
    else:
        assert after["commander"] == before["commander"]


@settings(max_examples=40, deadline=None)
@given(setup=setups(), data=st.data())
def test_random_games_keep_every_invariant_and_undo_restores_the_view(setup, data):
    m = Match.start(setup)
    check_state(setup, m.view)
    for _ in range(STEP_LIMIT):
        legal = RULES.legal_actions(m.state)
        if not legal:
            break
        action = data.draw(st.sampled_from(legal))
        before = m.view
        m_after = m.apply(action)
        after = m_after.view
        check_state(setup, after)
        check_step(before, action, after)
        assert m_after.apply({"act": "undo"}).view == before
        m = m_after
    event(f"game ended: {m.view['result']}")


# --- fuzzed refusals from every phase ------------------------------------------------------


def _states_by_phase():
    """States in every phase, from seeded random games over all modes."""
    found = {}
    rng = random.Random(7)
    for game in range(60):
        mode = MODES[game % len(MODES)]
        setup = {"game": "cloudship", "players": ["Ann", "Ben", "Cat"], "mode": mode}
        if mode == "partly_cloudy":
            setup["removed_sets"] = [1 + game % 3]
        m = Match.start(setup)
        while True:
            found.setdefault(m.view["phase"], []).append(m)
            legal = RULES.legal_actions(m.state)
            if not legal:
                break
            m = m.apply(rng.choice(legal))
    return {phase: matches[:: max(1, len(matches) // 40)] for phase, matches in found.items()}


STATES = _states_by_phase()

junk = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-2, 14),
    st.text(max_size=5),
    st.sampled_from(FACES + BALLS + ("red", "outside", "Rain")),
    st.lists(st.sampled_from(FACES + ("red", "")), max_size=4),
    st.lists(st.one_of(st.integers(), st.none()), max_size=3),
)
fuzzed_actions = st.fixed_dictionaries(
    {
        "act": st.one_of(
            st.sampled_from(["roll", "drop", "land", "plant", "reveal", "fly", "undo!", ""]), st.integers(), st.none()
        )
    },
    optional={"dice": junk, "ball": junk, "bed": junk, "hail": junk},
)


def test_states_were_found_in_every_phase():
    assert set(STATES) == {"roll", "flight", "plant", "reveal", "over"}


@settings(max_examples=300, deadline=None)
@given(phase=st.sampled_from(sorted(STATES)), pick=st.integers(0, 10_000), action=fuzzed_actions)
def test_fuzzed_actions_are_refused_with_a_reason_or_are_legal(phase, pick, action):
    m = STATES[phase][pick % len(STATES[phase])]
    state, view = m.state, m.view
    try:
        after = m.apply(action)
    except RulesError as err:
        assert isinstance(err.reason, str) and err.reason.strip()
        assert err.rule
        assert m.state is state and m.view == view
        return
    assert RULES.canonical(action) in RULES.legal_actions(state)
    assert after.view["storm"] >= view["storm"]


OWN_PHASE = {"roll": "roll", "drop": "flight", "land": "flight", "plant": "plant", "reveal": "reveal"}
WELL_FORMED = {
    "roll": {"dice": ["blue"] * 3},
    "drop": {"ball": "rain", "bed": "blue"},
    "land": {},
    "plant": {"bed": "blue"},
    "reveal": {"hail": True},
}
MISPLACED = [(phase, act) for phase in sorted(STATES) for act in OWN_PHASE if OWN_PHASE[act] != phase]


@settings(max_examples=60, deadline=None)
@given(misplaced=st.sampled_from(MISPLACED), pick=st.integers(0, 10_000))
def test_every_well_formed_action_of_another_phase_is_refused(misplaced, pick):
    phase, act = misplaced
    m = STATES[phase][pick % len(STATES[phase])]
    try:
        m.apply({"act": act, **WELL_FORMED[act]})
    except RulesError as err:
        assert err.reason and err.rule
    else:
        raise AssertionError(f"{act} was accepted in phase {phase}")
