"""One error root: every exception class of the package derives from CompanionError and keeps
the builtin it resembles, so `except CompanionError` and `except ValueError` both still work."""

import ast
import doctest
import importlib
from pathlib import Path

import companion
import companion.rules.match
from companion.errors import CompanionError

PACKAGE = Path(companion.__file__).parent
# code that also runs on the ship's MicroPython board imports nothing of the package
OUTSIDE = {"companion.ship.protocol", "companion.ship.board.pico"}


def exception_classes():
    """(module, class name) of every class defined in the package that is an exception."""
    for path in sorted(PACKAGE.rglob("*.py")):
        name = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__")
        if any(name == o or name.startswith(o + ".") for o in OUTSIDE):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        classes = [
            n.name
            for n in ast.walk(tree)
            if isinstance(n, ast.ClassDef)
            and any(
                ast.unparse(b).split(".")[-1].endswith(("Error", "Exception")) or ast.unparse(b) in dir(__builtins__)
                for b in n.bases
            )
        ]
        if classes:
            module = importlib.import_module(name)
            for cls in classes:
                found = getattr(module, cls, None)
                if isinstance(found, type) and issubclass(found, BaseException):
                    yield name, found


def test_every_exception_class_derives_from_the_root():
    found = list(exception_classes())
    assert len(found) >= 25  # the scan sees the package's classes (29 today)
    strays = sorted(f"{m}.{c.__name__}" for m, c in found if not issubclass(c, CompanionError))
    assert strays == []


def test_each_keeps_its_builtin():
    from companion.config import ConfigError
    from companion.devices.pins import NoPinFactory
    from companion.journal.errors import JournalBusy
    from companion.rules import RulesError, SetupError
    from companion.ship.link import NoPort

    assert issubclass(RulesError, ValueError) and issubclass(SetupError, ValueError)
    assert issubclass(ConfigError, ValueError) and issubclass(NoPort, OSError)
    assert issubclass(NoPinFactory, RuntimeError) and issubclass(JournalBusy, CompanionError)


def test_the_rules_core_examples_run():
    failed, tried = doctest.testmod(companion.rules.match, report=True)
    assert tried >= 8 and failed == 0
