"""Spoken prompts: espeak-ng turns a sentence into a WAV on a worker thread; the newest one plays.

Speech is a view, like the sounds: it follows what already happened and never holds anything up.
`Speech.say(language, text)` only records the request and returns; a worker thread runs
espeak-ng (offline, voices en, de, hu), keeps the result in a small cache by (language, text),
and hands it to `deliver` (the app plays it through pygame.mixer on its own thread). A newer
request replaces an older one that is still waiting or being synthesized: the table only ever
hears the prompt that is current, never a queue of old ones.

Where espeak-ng is not installed (or stops working) speech goes quiet and `unavailable_reason`
says why, for the Settings screen; the log says it once, when something is first to be said
(with speech switched off, nothing is). This module does not import pygame: `prepare` (WAV bytes to
whatever `deliver` plays) is passed in.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .errors import CompanionError

log = logging.getLogger(__name__)

ESPEAK = "espeak-ng"
VOICES = {"en": "en-gb", "de": "de", "hu": "hu"}
WORDS_PER_MINUTE = 150  # a little slower than espeak's 175: the listeners are children at a table
SYNTHESIS_TIMEOUT_S = 10.0
CACHE_SIZE = 64


class SpeechError(CompanionError, RuntimeError):
    """espeak-ng could not turn a text into speech."""


class SpeechUnavailable(SpeechError):
    """There is no espeak-ng to run."""


def find_espeak(path: str | None = None) -> str | None:
    """The espeak-ng program on `path` (default: the PATH of this process), or None."""
    return shutil.which(ESPEAK, path=path)


def speakable(text: str) -> str:
    """The text as espeak-ng should read it: a name is spoken as written, so nothing in it may
    switch espeak into phoneme input ("[[...]]") or read as a command-line option."""
    return " ".join(text.replace("[[", "[ [").replace("]]", "] ]").split())


def synthesize(language: str, text: str, program: str = ESPEAK) -> bytes:
    """The WAV (22050 Hz, 16-bit mono, as the sound effects) of `text` spoken in `language`."""
    if language not in VOICES:
        raise ValueError(f"no voice for language {language!r}; the voices are: {', '.join(VOICES)}")
    with tempfile.TemporaryDirectory(prefix="companion-speech-") as folder:
        out = Path(folder) / "speech.wav"
        # the text goes in on stdin, so no name can be taken for an option
        command = [program, "-v", VOICES[language], "-s", str(WORDS_PER_MINUTE), "-b", "1", "-w", str(out), "--stdin"]
        try:
            done = subprocess.run(
                command,
                input=speakable(text).encode("utf-8"),
                capture_output=True,
                timeout=SYNTHESIS_TIMEOUT_S,
                check=False,
            )
        except FileNotFoundError:
            raise SpeechUnavailable(f"{ESPEAK} is not installed") from None
        except (OSError, subprocess.TimeoutExpired) as error:
            raise SpeechError(f"{ESPEAK} did not run: {error}") from error
        if done.returncode != 0 or not out.exists():
            detail = done.stderr.decode("utf-8", "replace").strip() or f"exit status {done.returncode}"
            raise SpeechError(f"{ESPEAK} failed: {detail}")
        return out.read_bytes()


class Speech:
    """Says the newest prompt. `say` and `stop` are cheap and safe to call from the main loop."""

    def __init__(
        self,
        deliver: Callable[[Any], None],
        *,
        prepare: Callable[[bytes], Any] = lambda wav: wav,
        path: str | None = None,
        synthesize: Callable[[str, str, str], bytes] = synthesize,
        cache_size: int = CACHE_SIZE,
    ):
        self._deliver = deliver
        self._prepare = prepare
        self._synthesize = synthesize
        self._cache: OrderedDict[tuple[str, str], Any] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)  # a request came, or the worker went idle
        self._pending: tuple[str, str] | None = None
        self._request = 0  # grows with every say/stop: a result for an older one is stale
        self._closed = False
        self._busy = False  # the worker is synthesizing or delivering
        self._thread: threading.Thread | None = None
        self.program = find_espeak(path)  # `path`: where to look (default: this process's PATH)
        self._unavailable_reason = None if self.program else f"{ESPEAK} is not installed"
        self._told = False  # the reason is logged once, when speech is first asked for: speech
        # switched off (the default) needs no espeak-ng and no warning

    @property
    def unavailable_reason(self) -> str | None:
        """Why nothing can be spoken, or None while speech works."""
        return self._unavailable_reason

    @property
    def available(self) -> bool:
        return self._unavailable_reason is None

    def say(self, language: str, text: str) -> None:
        """Speak `text` as soon as it is ready, instead of anything said or waiting before."""
        if not self.available:
            if not self._told:
                self._told = True
                log.warning("speech is off: %s", self._unavailable_reason)
            return
        if not text:
            return
        with self._lock:
            self._request += 1
            self._pending = (language, text)
            if self._thread is None:
                self._thread = threading.Thread(target=self._work, name="speech", daemon=True)
                self._thread.start()
            self._changed.notify_all()

    def stop(self) -> None:
        """Forget what waits; a prompt being synthesized now will not be delivered."""
        with self._lock:
            self._request += 1
            self._pending = None
            self._changed.notify_all()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._pending = None
            self._changed.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=SYNTHESIS_TIMEOUT_S)

    def cached(self, language: str, text: str) -> bool:
        with self._lock:
            return (language, text) in self._cache

    def wait_idle(self, timeout: float = 5.0) -> bool:
        """For tests and the demo: True once nothing waits and nothing is being synthesized."""
        with self._changed:
            return self._changed.wait_for(lambda: self._pending is None and not self._busy, timeout)

    def _work(self) -> None:
        while True:
            with self._lock:
                while self._pending is None and not self._closed:
                    self._changed.wait()
                if self._closed:
                    return
                key, request = self._pending, self._request
                assert key is not None  # the wait above ends only on a request or on close
                self._pending = None
                self._busy = True
                prepared = self._cache.get(key)
                if prepared is not None:
                    self._cache.move_to_end(key)
            try:
                if prepared is None:
                    prepared = self._render(key)
                if prepared is None:
                    continue
                with self._lock:
                    current = request == self._request and not self._closed
                if current:  # a newer prompt (or a stop) since then makes this one stale
                    self._deliver(prepared)
            finally:
                with self._lock:
                    self._busy = False
                    self._changed.notify_all()

    def _render(self, key: tuple[str, str]) -> Any:
        language, text = key
        assert self.program is not None  # without espeak-ng `say` queues nothing
        try:
            prepared = self._prepare(self._synthesize(language, text, self.program))
        except SpeechUnavailable as error:
            self._unavailable_reason = str(error)
            self._told = True
            log.warning("speech is off: %s", error)
            return None
        except Exception as error:  # noqa: BLE001  (speech must never take the app down)
            log.warning("could not speak %r: %s", text, error)
            return None
        with self._lock:
            self._cache[key] = prepared
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        return prepared
