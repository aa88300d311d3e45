"""Sound effects: the synthesizer script, the shipped WAVs, and Sounds on a real pygame.mixer
(SDL's dummy audio driver, and a driver that cannot open)."""

from __future__ import annotations

import importlib.util
import json
import logging
import math
import os
import shutil
import subprocess
import sys
import wave
from array import array
from contextlib import contextmanager
from pathlib import Path

import pygame
import pytest
from hypothesis import given, settings, strategies as st

from companion.sound import QUIET_S, SOUND_NAMES, VOICE_CHANNEL, Sounds
from timekeeping import ManualClock

ROOT = Path(__file__).resolve().parents[1]
SOUNDS_DIR = ROOT / "sounds"
DATA_DIR = ROOT / "companion" / "sounds_data"
SCRIPT = SOUNDS_DIR / "synthesize.py"


def load_script():
    spec = importlib.util.spec_from_file_location("synthesize", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def read_wav(path: Path) -> tuple[wave._wave_params, list[float]]:
    with wave.open(str(path), "rb") as file:
        params = file.getparams()
        pcm = array("h", file.readframes(params.nframes))
    if sys.byteorder == "big":
        pcm.byteswap()
    return params, [x / 32767 for x in pcm]


def rms(samples: list[float]) -> float:
    return math.sqrt(sum(x * x for x in samples) / len(samples))


def loudest_window(samples: list[float], rate: int, seconds: float = 0.05) -> float:
    width = int(rate * seconds)
    return max(rms(samples[i : i + width]) for i in range(0, len(samples) - width, width // 2))


def brightness(samples: list[float], rate: int) -> float:
    """A rough 'centre frequency' in Hz: how fast the wave moves for its size. For a pure tone
    it is exactly the tone's frequency; for noise it follows where the energy sits."""
    slope = rms([b - a for a, b in zip(samples, samples[1:])])
    return rate / math.pi * math.asin(min(1.0, slope / rms(samples) / 2))


def window(name: str, start: float = 0.0, end: float | None = None) -> float:
    """Brightness of a stretch (in seconds; by default all) of a shipped effect."""
    params, samples = read_wav(SOUNDS_DIR / f"{name}.wav")
    rate = params.framerate
    return brightness(samples[int(start * rate) : None if end is None else int(end * rate)], rate)


# --- the script and the shipped files --------------------------------------------------------


def test_script_regenerates_the_shipped_files_byte_for_byte(tmp_path):
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--out", str(tmp_path)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    for name in SOUND_NAMES:
        fresh = (tmp_path / f"{name}.wav").read_bytes()
        assert fresh == (SOUNDS_DIR / f"{name}.wav").read_bytes(), f"sounds/{name}.wav is stale"
        assert fresh == (DATA_DIR / f"{name}.wav").read_bytes(), f"sounds_data/{name}.wav is stale"


def test_check_mode_names_a_file_that_differs(tmp_path, capsys):
    for name in SOUND_NAMES:
        shutil.copy(DATA_DIR / f"{name}.wav", tmp_path)
    (tmp_path / "hail.wav").write_bytes(b"RIFF but not really")
    assert load_script().main(["--check", "--out", str(tmp_path)]) == 1
    assert capsys.readouterr().err.strip() == f"out of date: {tmp_path / 'hail.wav'}"
    # --check never writes
    assert (tmp_path / "hail.wav").read_bytes() == b"RIFF but not really"


def test_every_name_has_a_file_in_both_places_and_there_are_no_others():
    assert set(load_script().EFFECTS) == set(SOUND_NAMES)
    expected = {f"{name}.wav" for name in SOUND_NAMES}
    assert {p.name for p in SOUNDS_DIR.glob("*.wav")} == expected
    assert {p.name for p in DATA_DIR.glob("*.wav")} == expected


@pytest.mark.parametrize("name", SOUND_NAMES)
def test_each_effect_is_short_audible_unclipped_and_click_free(name):
    params, samples = read_wav(DATA_DIR / f"{name}.wav")
    assert (params.nchannels, params.sampwidth, params.framerate) == (1, 2, 22050)
    assert 0.1 <= params.nframes / params.framerate <= 1.2
    peak = max(abs(x) for x in samples)
    assert 0.2 <= peak <= 0.75  # clearly there, and headroom left (no clipping)
    assert 0.05 <= loudest_window(samples, params.framerate) <= 0.25  # none far louder
    assert abs(samples[0]) < 0.01 and abs(samples[-1]) < 0.01  # starts and stops without a click


def test_effects_are_all_different():
    contents = {(DATA_DIR / f"{name}.wav").read_bytes() for name in SOUND_NAMES}
    assert len(contents) == len(SOUND_NAMES)


def test_each_effect_has_its_character():
    assert window("rise", 0.01, 0.07) * 1.5 < window("rise", 0.3, 0.4)  # goes up
    assert window("jump", 0.01, 0.06) * 2 < window("jump", 0.25, 0.35)  # shoots up
    assert window("fall", 0.02, 0.1) > 2 * window("fall", 0.45, 0.55)  # slides down
    assert window("lost", 0.05, 0.18) > window("lost", 0.75, 0.95)  # sinks
    assert window("right", 0.02, 0.1) < window("right", 0.15, 0.25)  # second tone higher
    assert window("won", 0.01, 0.08) < window("won", 0.6, 0.8)  # ends high
    storm = window("storm")
    assert storm < 400 and window("wrong") < 400  # low rumble, low buzz
    everything = {name: window(name) for name in SOUND_NAMES}
    assert max(everything, key=everything.get) == "hail"  # the sharpest ticks
    assert everything["hail"] > 10 * storm


# --- Sounds on a real mixer ------------------------------------------------------------------


@contextmanager
def audio_driver(name: str):
    """Run with SDL's audio driver `name`, from a closed mixer, leaving it closed."""
    pygame.mixer.quit()
    before = os.environ.get("SDL_AUDIODRIVER")
    os.environ["SDL_AUDIODRIVER"] = name
    try:
        yield
    finally:
        pygame.mixer.quit()
        if before is None:
            del os.environ["SDL_AUDIODRIVER"]
        else:
            os.environ["SDL_AUDIODRIVER"] = before


@pytest.fixture
def dummy_audio():
    with audio_driver("dummy"):
        yield


def test_loads_every_effect_and_plays_it(dummy_audio):
    sounds = Sounds()
    assert sounds.available and sounds.unavailable_reason is None
    for name in SOUND_NAMES:
        channel = sounds.play(name)
        assert channel is not None and channel.get_busy()
        # the mixer runs at the files' own format, so it holds exactly the shipped samples
        with wave.open(str(DATA_DIR / f"{name}.wav"), "rb") as file:
            assert channel.get_sound().get_raw() == file.readframes(file.getnframes())
    sounds.close()
    assert pygame.mixer.get_init() is None  # it opened the mixer, so it closed it


def test_shares_a_mixer_someone_else_opened(dummy_audio):
    pygame.mixer.init(frequency=44100, size=-16, channels=2)
    sounds = Sounds()
    assert sounds.available and sounds.play("flower") is not None
    sounds.close()
    assert pygame.mixer.get_init() == (44100, -16, 2)  # not its mixer to close


def test_the_newest_sound_always_gets_a_channel(dummy_audio):
    sounds = Sounds()
    channels = [sounds.play("storm") for _ in range(pygame.mixer.get_num_channels() * 2)]
    assert all(channel is not None for channel in channels)
    assert channels[-1].get_busy()
    sounds.close()


def test_volume_applies_at_once_even_to_a_sound_already_playing(dummy_audio):
    sounds = Sounds(volume=0.5)
    channel = sounds.play("won")
    assert channel.get_sound().get_volume() == pytest.approx(0.5, abs=1 / 128)
    sounds.set_volume(0.25)
    assert sounds.volume == 0.25
    assert channel.get_sound().get_volume() == pytest.approx(0.25, abs=1 / 128)
    sounds.close()


@pytest.mark.parametrize(
    "bad, error",
    [
        (-0.1, ValueError),
        (1.5, ValueError),
        (math.nan, ValueError),
        ("loud", TypeError),
        (True, TypeError),
        (None, TypeError),
    ],
)
def test_a_volume_that_makes_no_sense_is_refused_and_changes_nothing(dummy_audio, bad, error):
    with pytest.raises(error, match="volume"):
        Sounds(volume=bad)
    sounds = Sounds(volume=0.6)
    with pytest.raises(error, match="volume"):
        sounds.set_volume(bad)
    assert sounds.volume == 0.6
    assert sounds.play("rise").get_sound().get_volume() == pytest.approx(0.6, abs=1 / 128)
    sounds.close()


def test_mute_silences_and_cuts_off_what_is_playing(dummy_audio):
    sounds = Sounds(muted=True)
    assert sounds.play("roll") is None and not pygame.mixer.get_busy()
    sounds.set_muted(False)
    assert sounds.play("roll") is not None and pygame.mixer.get_busy()
    sounds.set_muted(True)
    assert sounds.muted and not pygame.mixer.get_busy()
    assert sounds.play("storm") is None
    with pytest.raises(TypeError, match="muted"):
        sounds.set_muted("yes")
    assert sounds.muted
    sounds.close()


def test_an_unknown_name_is_a_programming_error(dummy_audio):
    sounds = Sounds()
    with pytest.raises(ValueError, match="trumpet.*roll"):
        sounds.play("trumpet")
    sounds.close()


op = st.one_of(
    st.tuples(st.just("play"), st.sampled_from(SOUND_NAMES)),
    st.tuples(st.just("volume"), st.floats(0.0, 1.0)),
    st.tuples(st.just("mute"), st.booleans()),
)


@settings(max_examples=30, deadline=None)
@given(start_volume=st.floats(0.0, 1.0), start_muted=st.booleans(), ops=st.lists(op, max_size=30))
def test_plays_exactly_when_unmuted_at_the_volume_last_set(start_volume, start_muted, ops):
    with audio_driver("dummy"):
        sounds = Sounds(volume=start_volume, muted=start_muted)
        volume, muted = start_volume, start_muted
        for kind, value in ops:
            if kind == "volume":
                sounds.set_volume(value)
                volume = value
            elif kind == "mute":
                sounds.set_muted(value)
                muted = value
                if muted:
                    assert not pygame.mixer.get_busy()
            else:
                channel = sounds.play(value)
                assert (channel is None) == muted
                if channel is not None:
                    assert channel.get_sound().get_volume() == pytest.approx(volume, abs=1 / 128)
        sounds.close()


# --- the device rests in a quiet spell -------------------------------------------------------


def shipped_samples(name: str) -> bytes:
    with wave.open(str(DATA_DIR / f"{name}.wav"), "rb") as file:
        return file.readframes(file.getnframes())


def closed_soon(seconds: float = 10.0) -> bool:
    """The device was closed on a thread of its own: give it the moment it takes."""
    import time

    end = time.monotonic() + seconds
    while pygame.mixer.get_init() is not None and time.monotonic() < end:
        time.sleep(0.01)
    return pygame.mixer.get_init() is None


def rested(clock: ManualClock, **kwargs) -> Sounds:
    sounds = Sounds(clock=clock, **kwargs)
    clock.advance(QUIET_S)
    sounds.tend()
    assert sounds.resting and closed_soon()
    return sounds


def test_the_device_rests_after_the_quiet_spell_and_the_next_sound_still_plays(dummy_audio):
    clock = ManualClock()
    sounds = Sounds(clock=clock)
    clock.advance(QUIET_S - 0.1)
    sounds.tend()
    assert not sounds.resting and pygame.mixer.get_init() is not None
    clock.advance(0.1)
    sounds.tend()
    assert sounds.resting and closed_soon()  # SDL's audio thread is gone with the device
    channel = sounds.play("seat3")  # the first chime after the rest
    assert not sounds.resting and pygame.mixer.get_init() == (22050, -16, 1)
    assert channel is not None and channel.get_busy()
    assert channel.get_sound().get_raw() == shipped_samples("seat3")
    sounds.close()
    assert pygame.mixer.get_init() is None


def test_a_sound_or_an_input_starts_the_quiet_spell_again(dummy_audio):
    clock = ManualClock()
    sounds = Sounds(clock=clock)
    clock.advance(QUIET_S - 1)
    sounds.play("roll")
    pygame.mixer.stop()  # it has finished playing
    clock.advance(QUIET_S - 1)
    sounds.tend()
    assert not sounds.resting  # 24 s after the sound
    sounds.tend(last_input=clock.now - 1)
    clock.advance(2)
    sounds.tend(last_input=clock.now - 2)
    assert not sounds.resting  # 23 s after a tap
    clock.advance(QUIET_S)
    sounds.tend(last_input=clock.now - QUIET_S)
    assert sounds.resting
    sounds.close()


def test_a_sound_still_playing_holds_the_device_open(dummy_audio):
    clock = ManualClock()
    sounds = Sounds(clock=clock)
    channel = sounds.play("won")
    clock.advance(10 * QUIET_S)  # the clock runs on; the sound plays in real time on the device
    sounds.tend()
    assert channel.get_busy() and not sounds.resting
    channel.stop()
    clock.advance(QUIET_S - 0.5)
    sounds.tend()
    assert not sounds.resting  # the spell counts from the last moment it was heard playing
    clock.advance(0.5)
    sounds.tend()
    assert sounds.resting
    sounds.close()


def test_the_first_input_after_a_rest_opens_the_device_ahead_of_its_sound(dummy_audio):
    clock = ManualClock()
    sounds = rested(clock)
    sounds.tend(last_input=clock.now - 0.001)  # an input from before the rest began
    assert sounds.resting
    clock.advance(60)
    sounds.tend(last_input=clock.now)  # a tap: after its frame, the device opens
    assert not sounds.resting and pygame.mixer.get_init() is not None
    sounds.set_volume(0.25)
    assert sounds.play("flower").get_sound().get_volume() == pytest.approx(0.25, abs=1 / 128)
    sounds.close()


def test_while_muted_the_device_rests_and_input_does_not_wake_it(dummy_audio):
    clock = ManualClock()
    sounds = rested(clock, muted=True)
    clock.advance(1)
    sounds.tend(last_input=clock.now)
    assert sounds.resting and sounds.play("roll") is None
    assert pygame.mixer.get_init() is None
    sounds.set_volume(0.5)  # remembered for when it opens
    sounds.set_muted(False)
    channel = sounds.play("roll")
    assert channel.get_busy() and channel.get_sound().get_volume() == pytest.approx(0.5, abs=1 / 128)
    sounds.close()


def speech_wav(seconds: float) -> bytes:
    import io

    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as file:
        file.setnchannels(1), file.setsampwidth(2), file.setframerate(22050)
        samples = array("h", (int(8000 * math.sin(i / 9)) for i in range(int(22050 * seconds))))
        file.writeframes(samples.tobytes())
    return buffer.getvalue()


def test_speech_wakes_the_device_ahead_and_holds_it_open_while_it_speaks(dummy_audio):
    clock = ManualClock()
    sounds = rested(clock)
    sounds.wanted()  # a sentence is being made
    assert sounds.resting  # opened after the frame, not in the middle of it
    sounds.tend()
    assert not sounds.resting and pygame.mixer.get_init() is not None
    wav = speech_wav(4.0)
    channel = sounds.speak(wav)
    assert channel.id == VOICE_CHANNEL and channel.get_busy()
    assert channel.get_sound().get_raw() == wav[44:]
    assert sounds.play("storm") is not None and channel.get_busy()  # effects keep off its channel
    clock.advance(3 * QUIET_S)
    sounds.tend()
    assert not sounds.resting  # still speaking
    sounds.set_muted(True)
    assert not channel.get_busy()  # mute cuts the voice off too
    clock.advance(QUIET_S)
    sounds.tend()
    assert sounds.resting and closed_soon()
    sounds.set_muted(False)
    assert sounds.speak(wav) is not None  # after a rest the voice has its channel again
    assert pygame.mixer.Channel(VOICE_CHANNEL).get_busy()
    sounds.close()


def test_a_device_back_in_another_format_gets_the_sounds_loaded_for_it(dummy_audio):
    clock = ManualClock()
    sounds = rested(clock)
    pygame.mixer.init(frequency=44100, size=-16, channels=2)  # opened meanwhile by someone else
    channel = sounds.play("seat1")
    assert channel.get_busy()
    assert len(channel.get_sound().get_raw()) == pytest.approx(4 * len(shipped_samples("seat1")), rel=0.01)
    sounds.close()


def test_a_mixer_someone_else_opened_never_rests(dummy_audio):
    pygame.mixer.init(frequency=44100, size=-16, channels=2)
    clock = ManualClock()
    sounds = Sounds(clock=clock)
    clock.advance(10 * QUIET_S)
    sounds.tend()
    assert not sounds.resting and pygame.mixer.get_init() == (44100, -16, 2)
    sounds.close()


# --- no audio: silence, said once, never a crash ---------------------------------------------


def test_without_an_audio_device_it_is_silent_and_says_why_once(caplog):
    with audio_driver("nonexistent"), caplog.at_level(logging.WARNING, "companion.sound"):
        sounds = Sounds()
        assert not sounds.available
        assert "nonexistent" in sounds.unavailable_reason
        assert all(sounds.play(name) is None for name in SOUND_NAMES * 3)
        sounds.set_volume(0.1)
        sounds.set_muted(True)
        sounds.set_muted(False)
        with pytest.raises(ValueError):
            sounds.play("trumpet")  # still a programming error
        sounds.close()
    warnings = [r for r in caplog.records if r.name == "companion.sound"]
    assert len(warnings) == 1 and "nonexistent" in warnings[0].getMessage()


NO_DEVICE_PROGRAM = """
import json, logging
logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s")
from companion.sound import SOUND_NAMES, Sounds
sounds = Sounds()
played = [sounds.play(name) is not None for name in SOUND_NAMES for _ in range(3)]
sounds.set_volume(0.3)
sounds.set_muted(True)
sounds.set_muted(False)
played.append(sounds.play("won") is not None)
print(json.dumps({"available": sounds.available, "reason": sounds.unavailable_reason,
                  "played": any(played)}))
"""


def test_a_driver_that_cannot_open_does_not_crash_the_program():
    env = {**os.environ, "SDL_AUDIODRIVER": "nonexistent"}
    done = subprocess.run(
        [sys.executable, "-c", NO_DEVICE_PROGRAM], env=env, cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["available"] is False and result["played"] is False
    assert "nonexistent" in result["reason"]
    assert done.stderr.count("companion.sound: sounds are off") == 1


def test_missing_files_mean_silence_with_the_file_named(dummy_audio, tmp_path):
    sounds = Sounds(directory=tmp_path)
    assert not sounds.available and "roll.wav" in sounds.unavailable_reason
    assert sounds.play("roll") is None
    assert pygame.mixer.get_init() is None  # gave the mixer back


def test_a_damaged_file_means_silence_with_the_file_named(dummy_audio, tmp_path):
    for name in SOUND_NAMES:
        shutil.copy(DATA_DIR / f"{name}.wav", tmp_path)
    (tmp_path / "storm.wav").write_bytes(b"RIFF\x00\x00\x00\x00WAVEjunk")
    sounds = Sounds(directory=tmp_path)
    assert not sounds.available and "storm.wav" in sounds.unavailable_reason
    assert sounds.play("flower") is None


def python_stderr(code: str, **env: str) -> list[str]:
    clean = {k: v for k, v in os.environ.items() if k != "SDL_AUDIODRIVER"}
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env={**clean, **env}, cwd=ROOT
    )
    assert run.returncode == 0, run.stderr
    return run.stderr.splitlines()


def test_opening_the_mixer_says_at_most_one_line_of_its_own():
    # with no sound card alsa-lib prints its own lines; here at most our one warning is left
    lines = python_stderr("from companion.sound import Sounds; Sounds()")
    assert not any("ALSA lib" in line for line in lines), lines
    assert len(lines) <= 1 and all(line.startswith("sounds are off: ") for line in lines), lines


def test_only_alsa_lines_are_dropped_while_the_mixer_opens():
    lines = python_stderr(
        "import os, sys\n"
        "from companion.sound import alsa_lines_dropped\n"
        "print('before', file=sys.stderr)\n"
        "with alsa_lines_dropped():\n"
        "    os.write(2, b'ALSA lib conf.c:5180:(_snd_config_evaluate) function returned error\\n')\n"
        "    os.write(2, b'something else a library said\\n')\n"
        "    print('and a Python line', file=sys.stderr)\n"
        "print('after', file=sys.stderr)\n"
    )
    assert lines == ["before", "something else a library said", "and a Python line", "after"]


def test_the_app_rests_the_device_when_quiet_and_a_tap_opens_it_after_its_frame(dummy_audio):
    from companion.ui.tools.harness import Harness

    clock = ManualClock()
    sounds = Sounds(clock=clock)
    h = Harness(sounds=sounds, clock=clock)
    try:
        clock.advance(QUIET_S)
        h.app.pump()
        assert sounds.resting and closed_soon()
        frames = h.app.frames_drawn
        h.tap_at((5, 5))  # anywhere: any input means someone is at the table
        assert h.app.frames_drawn >= frames and not sounds.resting
        assert pygame.mixer.get_init() is not None
    finally:
        sounds.close()
