"""Speed of the spoken prompts: what the main loop pays (making the sentence, handing it over)
and what the speech worker pays (espeak-ng per language, a cached prompt)."""

from __future__ import annotations

import time
from functools import partial

from . import i18n
from .rules.match import Match
from .rules.simulate import random_game
from .speech import Speech, synthesize
from .ui.story import moments as story, spoken

SAMPLE = {
    "en": "Ben: jump or stay?",
    "de": "Ladet ein: zwei Regentropfen und ein Hagelkorn. Und los!",
    "hu": "Zsolt, te találgatsz!",
}


def bench() -> dict[str, float]:
    figures = {"speech.prompt_us": round(_prompt_seconds() * 1e6, 1)}
    delivered: list[object] = []
    speech = Speech(delivered.append)
    program = speech.program
    if program is None:
        return figures  # no espeak-ng here: only the main thread's share is measured
    try:
        for language, text in SAMPLE.items():
            best = min(_timed(partial(synthesize, language, text, program)) for _ in range(3))
            figures[f"speech.synthesize_{language}_ms"] = round(best * 1000, 1)
        speech.say("en", SAMPLE["en"])
        speech.wait_idle(10)
        start = time.perf_counter()
        calls = 1000
        for _ in range(calls):  # what the main loop pays per prompt: a slot and a notify
            speech.say("en", SAMPLE["en"])
        figures["speech.say_us"] = round((time.perf_counter() - start) / calls * 1e6, 2)
        speech.wait_idle(10)
        delivered.clear()
        start = time.perf_counter()
        speech.say("en", SAMPLE["en"])  # cached now: straight to delivery
        speech.wait_idle(10)
        figures["speech.cached_delivery_ms"] = round((time.perf_counter() - start) * 1000, 2)
    finally:
        speech.close()
    return figures


def _timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def _prompt_seconds() -> float:
    """Mean time of spoken.say() per action over random games of every game, in Hungarian: the
    sentence from the moments the game screen has found anyway (for its card and strip)."""
    language = i18n.current_language()
    i18n.set_language("hu")
    try:
        count, total = 0, 0.0
        for game, players in (("cloud9", 5), ("cloudship", 3), ("cloudmine", 6)):
            setup = {"game": game, "players": ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"][:players]}
            match = Match.start(setup)
            for action in random_game(setup, 1)[:300]:
                after = match.apply(action)
                after_view = after.view
                found = story.moments(match.view, after_view, action)
                start = time.perf_counter()
                spoken.say(found, after_view)
                total += time.perf_counter() - start
                count += 1
                match = after
        return total / max(1, count)
    finally:
        i18n.set_language(language)
