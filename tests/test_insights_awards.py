"""A game's story (trips, rounds) and its awards, from the rebuilt Match and its actions."""

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from companion.insights import awards as told
from companion.rules import Match
from companion.rules.cloudmine import cards_per_round

EXAMPLES = Path("companion/examples")


def played(name: str) -> Match:
    rows = [json.loads(line) for line in (EXAMPLES / name).read_text(encoding="utf-8").splitlines() if line.strip()]
    match = Match.start(rows[0])
    for action in rows[1:]:
        match = match.apply(action)
    return match


def test_cloud9_trips_add_up_to_the_final_scores_and_end_with_the_final_hands():
    match = played("cloud9-four-players-tie-break.jsonl")
    trips = told.cloud9_trips(match)
    view = match.view
    assert [t.number for t in trips] == list(range(1, view["trip"] + 1))
    for name in view["players"]:
        assert sum(t.points[name] for t in trips) == view["scores"][name]
    assert trips[-1].hands == view["hands"]
    # the hands that broke the tie: Cat and Ann level on 52, Cat with 13 cards to Ann's 5
    assert trips[-1].hands["Cat"] == 13 and trips[-1].hands["Ann"] == 5
    assert {t.ending for t in trips} <= {"fall", "top", "jumped"}


def test_a_trip_to_the_top_cloud_is_told_so():
    trips = told.cloud9_trips(played("cloud9-five-players-to-cloud-nine.jsonl"))
    top = [t for t in trips if t.ending == "top"]
    assert top and all(t.highest == 9 for t in top)
    assert all(t.points[name] == 25 for t in top for name in t.aboard_at_highest)


def test_cloud9_awards_of_a_real_game():
    found = {a.kind: a for a in told.awards(played("cloud9-four-players-tie-break.jsonl"))}
    assert found["boldest_stay"] == told.Award("boldest_stay", ("Ben",), 6)
    assert found["best_trip"] == told.Award("best_trip", ("Dan",), 15, 23)
    assert found["highest_flight"].value == 7 and found["highest_flight"].round == 23


def test_boldest_stay_is_the_highest_cloud_anyone_stayed_on():
    match = played("cloud9-five-players-to-cloud-nine.jsonl")
    stays = [(before.cloud, action["player"]) for before, action, _ in told.steps(match) if action["act"] == "stay"]
    best = max(cloud for cloud, _ in stays)
    award = next(a for a in told.awards(match) if a.kind == "boldest_stay")
    assert award.value == best
    assert set(award.players) == {name for cloud, name in stays if cloud == best}


def test_cloudship_rounds_tell_the_storm_flowers_and_hail():
    match = played("cloudship-won.jsonl")
    rounds = told.cloudship_rounds(match)
    assert [r.number for r in rounds] == list(range(1, match.view["round"] + 1))
    assert rounds[-1].result == "won" and rounds[-1].storm == match.view["storm"]
    assert sum(r.storm_moved for r in rounds) == match.view["storm"]
    assert sum(r.planted - r.hail_took for r in rounds) == sum(match.view["beds"].values())
    award = told.awards(match)[0]
    assert award.kind == "best_commander"
    per_commander = {}
    for r in rounds:
        per_commander[r.commander] = per_commander.get(r.commander, 0) + r.planted
    assert award.value == max(per_commander.values())


def test_a_lost_cloudship_game_ends_with_the_storm_at_its_end():
    rounds = told.cloudship_rounds(played("cloudship-lost.jsonl"))
    assert rounds[-1].result == "lost" and rounds[-1].storm == 13


def test_the_cloud_mine_says_the_deck_ran_out_and_its_rounds_add_up():
    match = played("cloudmine-six-players.jsonl")
    out = told.deck_ran_out(match)
    assert out == told.DeckRanOut(match.view["deck"], cards_per_round(6)) and out.left < out.needed
    rounds = told.cloudmine_rounds(match)
    assert rounds[-1].deck == match.view["deck"]
    for name in match.view["players"]:
        assert sum(r.cards[name] for r in rounds) == match.view["scores"][name]
    for r in rounds:  # a round nobody found: the Chooser takes it all
        if r.finder is None:
            assert r.cards[r.chooser] == sum(r.cards.values())
    found = {a.kind: a for a in told.awards(match)}
    assert found["sharpest_guesser"] == told.Award("sharpest_guesser", ("Zsolt",), 3)


def test_an_unfinished_cloud_mine_has_no_empty_deck():
    match = Match.start({"game": "cloudmine", "players": ["Ann", "Ben", "Cat"]})
    assert told.deck_ran_out(match) is None and told.awards(match) == []


SETUPS = {"cloud9": (3, 6), "cloudship": (2, 4), "cloudmine": (3, 8)}


@st.composite
def games(draw):
    """Any legal game: random legal actions, undo and redo among them, to its end or not."""
    game = draw(st.sampled_from(sorted(SETUPS)))
    low, high = SETUPS[game]
    players = [f"P{i}" for i in range(draw(st.integers(low, high)))]
    match = Match.start({"game": game, "players": players})
    for _ in range(draw(st.integers(0, 400))):
        legal = match.legal_actions()
        if game == "cloudship":  # the flight needs a drop or a landing; keep the dice few
            legal = [a for a in legal if a["act"] != "roll"] or legal[:40]
        if not legal:
            break
        match = match.apply(draw(st.sampled_from(legal)))
    return match


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(games())
def test_awards_name_players_of_the_game_and_never_fail(match):
    players = set(match.state.players)
    for award in told.awards(match):
        assert award.players and set(award.players) <= players
        assert award.value > 0
        assert list(award.players) == [p for p in match.state.players if p in award.players]  # seat order
    name = match.rules.name
    if name == "cloud9":
        trips = told.cloud9_trips(match)
        for p in players:
            assert sum(t.points[p] for t in trips) == match.state.score(p)
    elif name == "cloudship":
        rounds = told.cloudship_rounds(match)
        assert all(r.commander in players for r in rounds)
    else:
        rounds = told.cloudmine_rounds(match)
        assert all(r.dreamer in players and r.chooser in players and r.dreamer != r.chooser for r in rounds)
        assert (told.deck_ran_out(match) is not None) == match.state.over
