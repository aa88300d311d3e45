"""Spoken prompts: real speech from espeak-ng (not silence, a plausible length) in English, German
and Hungarian; the worker says only the newest prompt; no espeak-ng means silence with a reason;
what is said follows the game (companion/ui/story/spoken.py: the story's big moments, then the
prompt) in the chosen language."""

from __future__ import annotations

import io
import os
import threading
import wave
from array import array

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from companion import i18n  # noqa: E402
from companion.config import Config  # noqa: E402
from companion.speech import ESPEAK, Speech, SpeechUnavailable, find_espeak, speakable, synthesize  # noqa: E402

ESPEAK_PROGRAM = find_espeak()
needs_espeak = pytest.mark.skipif(ESPEAK_PROGRAM is None, reason="espeak-ng is not installed (apt install espeak-ng)")

RMS_FLOOR = 500  # 16-bit samples: espeak speaks at several thousand, silence is 0
SAMPLE_RATE = 22050


def wav_facts(data: bytes) -> tuple[int, int, float, float]:
    """(rate, channels, seconds, RMS of the samples) of a 16-bit WAV."""
    with wave.open(io.BytesIO(data)) as wav:
        assert wav.getsampwidth() == 2
        frames = wav.readframes(wav.getnframes())
        samples = array("h", frames)
        rms = (sum(s * s for s in samples) / max(1, len(samples))) ** 0.5
        return wav.getframerate(), wav.getnchannels(), wav.getnframes() / wav.getframerate(), rms


SENTENCES = {
    "en": "Ben: jump or stay?",
    "de": "Ladet ein: zwei Regentropfen und ein Hagelkorn. Und los!",
    "hu": "Zsolt, te találgatsz!",
}


@needs_espeak
@pytest.mark.parametrize("language", sorted(SENTENCES))
def test_espeak_speaks_each_language_aloud(language):
    rate, channels, seconds, rms = wav_facts(synthesize(language, SENTENCES[language], ESPEAK_PROGRAM))
    assert (rate, channels) == (SAMPLE_RATE, 1)  # as the sound effects: the mixer needs no resampling
    words = len(SENTENCES[language].split())
    assert 0.15 * words < seconds < 1.0 * words + 1.5, seconds  # about 150 words a minute
    assert rms > RMS_FLOOR, rms


@needs_espeak
def test_a_name_is_spoken_as_written_and_never_read_as_an_option_or_phonemes():
    assert speakable("[[h@'loU]] Ann") == "[ [h@'loU] ] Ann"
    for name in ("--help", "-v xx", "[[aI]]"):
        _, _, seconds, rms = wav_facts(synthesize("en", f"{name}, your guess.", ESPEAK_PROGRAM))
        assert seconds > 0.5 and rms > RMS_FLOOR


def test_a_missing_espeak_ng_leaves_speech_silent_with_the_reason(tmp_path):
    assert find_espeak(path=str(tmp_path)) is None
    delivered = []
    speech = Speech(delivered.append, path=str(tmp_path))
    assert not speech.available
    assert speech.unavailable_reason == f"{ESPEAK} is not installed"
    speech.say("en", "Ann, roll the dice.")
    assert speech.wait_idle(1.0) and delivered == []
    with pytest.raises(SpeechUnavailable):
        synthesize("en", "hello", str(tmp_path / ESPEAK))


def test_without_espeak_ng_nothing_is_logged_until_something_is_to_be_said_then_once(tmp_path, caplog):
    with caplog.at_level("WARNING", logger="companion.speech"):
        speech = Speech(lambda sound: None, path=str(tmp_path))
        assert caplog.records == []  # speech switched off (the default) never asks: no warning
        for _ in range(5):
            speech.say("en", "Ann, roll the dice.")
    assert [r.getMessage() for r in caplog.records] == [f"speech is off: {ESPEAK} is not installed"]


def test_an_unknown_language_is_a_mistake_in_the_code():
    with pytest.raises(ValueError, match="no voice for language 'fr'"):
        synthesize("fr", "bonjour")


class GatedSynthesis:
    """Real espeak-ng, but the first synthesis waits at a gate: prompts pile up meanwhile."""

    def __init__(self):
        self.gate = threading.Event()
        self.started = threading.Event()
        self.calls: list[str] = []

    def __call__(self, language, text, program):
        self.calls.append(text)
        if len(self.calls) == 1:
            self.started.set()
            assert self.gate.wait(5)
        return synthesize(language, text, program)


@needs_espeak
def test_a_newer_prompt_replaces_stale_ones_and_no_queue_of_old_prompts_is_played():
    delivered: list[str] = []
    gated = GatedSynthesis()
    speech = Speech(delivered.append, prepare=lambda wav: wav_facts(wav), synthesize=gated)
    speech.say("en", "Ann, roll the dice.")
    assert gated.started.wait(5)
    speech.say("en", "Ben: jump or stay?")  # returns at once, and waits while Ann's is synthesized ...
    speech.say("en", "Cat: jump or stay?")  # ... and is replaced before it is started
    gated.gate.set()
    assert speech.wait_idle(10)
    assert gated.calls == ["Ann, roll the dice.", "Cat: jump or stay?"]  # Ben's never synthesized
    assert len(delivered) == 1  # Ann's came too late
    assert delivered[0][3] > RMS_FLOOR
    speech.close()


@needs_espeak
def test_speech_is_cached_by_language_and_text():
    delivered = []
    calls = []

    def counting(language, text, program):
        calls.append((language, text))
        return synthesize(language, text, program)

    speech = Speech(delivered.append, synthesize=counting)
    for language in ("en", "en", "de", "en"):
        speech.say(language, "Ann")
        assert speech.wait_idle(10)
    assert calls == [("en", "Ann"), ("de", "Ann")]
    assert len(delivered) == 4 and speech.cached("de", "Ann")
    speech.close()


# --- in the app ----------------------------------------------------------------------------


@pytest.fixture
def harness():
    from companion.ui.tools.harness import Harness

    made = []

    def make(language="en", speech=True, size=(800, 480)):
        h = Harness(size, config=Config(language=language, speech=speech))
        made.append(h)
        return h

    yield make
    for h in made:
        h.app.voice.close()
    i18n.set_language("en")


def test_the_app_says_each_prompt_in_the_chosen_language(harness):
    h = harness("hu")
    h.start_game({"game": "cloudmine", "players": ["Ann", "Ben", "Zsolt", "Dan"]})
    first = h.app.controller.match.view["to_guess"]
    assert h.app.voice.said[-1] == f"{first}, te találgatsz!"
    h.app.controller.submit({"act": "guess", "player": first, "correct": False})
    nxt = h.app.controller.match.view["to_guess"]
    assert h.app.voice.said[-1] == f"{nxt}, te találgatsz!"
    h.app.controller.submit({"act": "guess", "player": nxt, "correct": True})
    then = h.app.controller.match.view["to_guess"]
    # the big moment is the one the result card shows (the story's text), then the prompt
    assert h.app.voice.said[-1] == f"{h.app.game_screen.card.text}. {then}, te találgatsz!"
    assert h.app.voice.said[-1].startswith(f"{nxt} megtalálta a lapot: ")


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_the_voice_asks_in_the_words_of_the_screen(harness, language):
    """Where the screen asks the table in the words a voice would use, the voice says exactly
    the screen's prompt (one translation, so the two never disagree)."""
    h = harness(language)
    h.start_game({"game": "cloud9", "players": ["Ann", "Ben", "Cat"]})
    h.app.controller.submit({"act": "roll", "dice": ["red", "green"]})
    h.app.pump()
    assert h.app.voice.said[-1] == h.find("prompt").text  # "Ben: jump or stay?"
    h.app.controller.submit({"act": "stay", "player": "Ben"})
    h.app.controller.submit({"act": "stay", "player": "Cat"})
    h.app.pump()
    assert h.app.voice.said[-1] == h.find("prompt").text  # "Ann: rise or fall?"


def test_speech_is_off_by_default_and_when_muted(harness):
    h = harness(speech=False)
    assert Config().speech is False
    h.start_game({"game": "cloud9", "players": ["Ann", "Ben", "Cat"]})
    assert h.app.voice.said == []
    h.app.change_config(speech=True, muted=True)
    h.app.controller.submit({"act": "roll", "dice": ["red", "blank"]})
    assert h.app.voice.said == []
    h.app.change_config(muted=False)
    h.app.controller.submit({"act": "jump", "player": "Ben"})
    assert h.app.voice.said == ["Cat: jump or stay?"]


@needs_espeak
def test_speech_plays_through_the_mixer_on_its_own_channel(harness):
    import pygame

    from companion.sound import Sounds

    h = harness()
    h.app.sounds = Sounds()  # the real effects, on SDL's dummy audio device
    try:
        h.start_game({"game": "cloud9", "players": ["Ann", "Ben", "Cat"]})
        assert h.app.voice.speech.wait_idle(10)
        h.app.pump()  # the finished sound is started on the main thread
        channel = pygame.mixer.Channel(0)
        assert channel.get_busy()
        assert channel.get_sound().get_length() > 0.5
        h.app.sounds.play("roll")  # an effect does not take the voice's channel
        assert channel.get_busy()
    finally:
        h.app.voice.stop()
        h.app.sounds.close()


@needs_espeak
def test_a_sentence_after_the_device_rested_wakes_it_and_is_spoken(harness):
    import pygame

    from companion.sound import QUIET_S, Sounds

    h = harness()
    clock = [1000.0]
    h.app.sounds = sounds = Sounds(clock=lambda: clock[0])  # the real effects, on SDL's dummy audio device
    try:
        clock[0] += QUIET_S
        h.app.pump()
        assert sounds.resting
        h.start_game({"game": "cloud9", "players": ["Ann", "Ben", "Cat"]})  # says whose turn it is
        assert not sounds.resting  # opened after that frame, while the sentence is made
        assert h.app.voice.speech.wait_idle(10)
        h.app.pump()
        channel = pygame.mixer.Channel(0)
        assert channel.get_busy() and channel.get_sound().get_length() > 0.5
        clock[0] += 10 * QUIET_S
        h.app.pump()
        assert not sounds.resting and channel.get_busy()  # speaking holds the device open
    finally:
        h.app.voice.stop()
        sounds.close()


def test_settings_say_why_the_app_is_silent_without_espeak_ng(harness, monkeypatch, tmp_path):
    from companion.ui.screens.settings import SettingsScreen

    monkeypatch.setenv("PATH", str(tmp_path))  # a PATH without espeak-ng
    for language, reason in (
        ("en", "Silent: no voice is installed"),
        ("de", "Stumm: keine Stimme installiert"),
        ("hu", "Néma: nincs telepített hang"),
    ):
        h = harness(language)
        h.app.show(SettingsScreen(h.app))
        h.app.pump()
        assert h.find("speech-note").text == reason
        assert not h.find("speech:on").enabled
        assert h.overflows() == []
        h.start_game({"game": "cloud9", "players": ["Ann", "Ben", "Cat"]})  # and the game goes on
        assert h.app.voice.speech.wait_idle(1)


def test_speech_can_be_switched_on_in_settings(harness, tmp_path):
    from companion.ui.screens.settings import SettingsScreen

    h = harness(speech=False)
    h.app.show(SettingsScreen(h.app))
    h.app.pump()
    if h.app.voice.unavailable_reason:
        pytest.skip(h.app.voice.unavailable_reason)
    h.tap("speech:on")
    assert h.app.config.speech is True and h.find("speech:on").selected
    h.tap("speech:off")
    assert h.app.config.speech is False


@needs_espeak
def test_the_bench_reports_what_the_main_loop_and_the_worker_pay():
    from companion.speech_bench import bench

    figures = bench()
    assert set(figures) == {
        "speech.prompt_us",
        "speech.say_us",
        "speech.cached_delivery_ms",
        "speech.synthesize_en_ms",
        "speech.synthesize_de_ms",
        "speech.synthesize_hu_ms",
    }
    assert all(value > 0 for value in figures.values())
