"""The package's layers and the ui package's rooms: each imports only what sits below it, and no
module imports itself back through others (imports inside functions count: they are circles all
the same).

The package: rules < the base modules < journal < insights < ship, devices and the settings <
ui. The command line and the benchmarks (`cli`, every `commands` and `bench` module), the live
page and the appliance sit on top of everything and may import anything."""

from __future__ import annotations

import ast
from pathlib import Path

import companion.ui

UI = Path(companion.ui.__file__).parent
# a room may import the rooms after it in its list (and itself); loop and tools sit on top
BELOW = {
    "kit": set(),
    "story": {"kit"},
    "boards": {"kit", "story"},
    "screens": {"kit", "story", "boards"},
    "loop": {"kit", "story", "boards", "screens"},
    "tools": {"kit", "story", "boards", "screens", "loop"},
}


def module_name(path: Path) -> str:
    parts = ["companion", "ui", *path.relative_to(UI).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """The companion.ui modules `path` imports, anywhere in it."""
    here = module_name(path).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1] + ([node.module] if node.module else []))
            targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            continue
        found |= {t for t in targets if t.startswith("companion.ui.") and t in MODULES}
    return found - {module_name(path)}


MODULES = {module_name(p): p for p in UI.rglob("*.py")}
GRAPH = {name: imports(path) for name, path in MODULES.items()}


def room(name: str) -> str | None:
    parts = name.split(".")
    return parts[2] if len(parts) > 3 else None  # companion.ui.<room>.<module>


def test_every_module_sits_in_a_room():
    loose = [
        name
        for name in MODULES
        if name != "companion.ui"
        and room(name) not in BELOW
        and not (name.count(".") == 2 and name.split(".")[2] in BELOW)
    ]
    assert loose == []


def test_rooms_import_only_the_rooms_below_them():
    wrong = sorted(
        f"{name} imports {target}"
        for name, targets in GRAPH.items()
        for target in targets
        if room(name) and room(target) and room(target) != room(name) and room(target) not in BELOW[room(name)]
    )
    assert wrong == []


def test_no_import_circles():
    circles = []
    state: dict[str, int] = {}  # 1: on the path, 2: done

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        for target in sorted(GRAPH[name]):
            if state.get(target) == 1:
                circles.append(" -> ".join(path[path.index(target) :] + [target]))
            elif target not in state:
                visit(target, path + [target])
        state[name] = 2

    for name in sorted(GRAPH):
        if name not in state:
            visit(name, [name])
    assert circles == []


def test_the_room_test_sees_imports():
    # the screens' base imports the kit's widgets; a graph without it would pass every test
    assert "companion.ui.kit.widgets" in GRAPH["companion.ui.screens.base"]
    assert "companion.ui.screens.routes" in GRAPH["companion.ui.loop.app"]


# --- the whole package ------------------------------------------------------------------------

PACKAGE = UI.parent
# top-level package or module -> its layer; a layer imports only its own and lower ones
LAYER = {
    "rules": 0,
    # small modules every layer may use: the error root, the replay format, the console's
    # one-line messages, who owns a file, the controller (the door to the rules), translations,
    # the settings file's bytes
    "companion": 1,
    "settings_file": 1,
    "errors": 1,
    "replay": 1,
    "console": 1,
    "whose": 1,
    "controller": 1,
    "i18n": 1,
    "journal": 2,
    "insights": 3,
    "ship": 4,
    "devices": 4,
    "config": 4,
    "sound": 4,
    "sounds_data": 4,
    "speech": 4,
    "ui": 5,
}
ON_TOP = {"cli", "__main__", "bench", "speech_bench", "live", "appliance"}
FIRMWARE = PACKAGE / "ship" / "board" / "pico"  # MicroPython: imports nothing of the package


def package_name(path: Path) -> str:
    parts = ["companion", *path.relative_to(PACKAGE).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


PACKAGE_MODULES = {package_name(p): p for p in PACKAGE.rglob("*.py") if FIRMWARE not in p.parents}


def package_imports(path: Path) -> set[str]:
    """The companion modules `path` imports, anywhere in it."""
    here = package_name(path).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1] + ([node.module] if node.module else []))
            targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            continue
        found |= {t for t in targets if t in PACKAGE_MODULES}
    return found - {package_name(path)}


PACKAGE_GRAPH = {name: package_imports(path) for name, path in PACKAGE_MODULES.items()}


def unit(name: str) -> str:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else "companion"


def on_top(name: str) -> bool:
    return unit(name) in ON_TOP or name.rsplit(".", 1)[-1] in ("commands", "bench")


def test_every_package_and_module_has_a_layer():
    assert sorted({unit(n) for n in PACKAGE_MODULES} - set(LAYER) - ON_TOP) == []


def test_layers_import_only_the_layers_below_them():
    wrong = sorted(
        f"{name} imports {target}"
        for name, targets in PACKAGE_GRAPH.items()
        if not on_top(name)
        for target in targets
        if not on_top(target) and LAYER[unit(target)] > LAYER[unit(name)]
    )
    assert wrong == []
    # and nothing but the command line and the benchmarks imports them
    assert (
        sorted(
            f"{name} imports {target}"
            for name, targets in PACKAGE_GRAPH.items()
            if not on_top(name)
            for target in targets
            if on_top(target) and unit(target) not in ("live", "appliance")
        )
        == []
    )


def test_the_rules_core_imports_nothing_outside_it():
    assert (
        sorted(
            f"{name} imports {target}"
            for name, targets in PACKAGE_GRAPH.items()
            if unit(name) == "rules"
            for target in targets
            if unit(target) != "rules"
        )
        == []
    )


def test_no_import_circles_between_packages():
    # the journal and the records were such a circle: the records keeper is now passed in
    circles = []
    state: dict[str, int] = {}

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        for target in sorted(t for t in PACKAGE_GRAPH[name] if not on_top(t)):
            if state.get(target) == 1:
                circle = path[path.index(target) :] + [target]
                if len({unit(n) for n in circle}) > 1:  # a package's own late imports are its affair
                    circles.append(" -> ".join(circle))
            elif target not in state:
                visit(target, path + [target])
        state[name] = 2

    for name in sorted(PACKAGE_GRAPH):
        if name not in state and not on_top(name):
            visit(name, [name])
    assert circles == []
    assert not any(
        unit(t) == "insights" for n, ts in PACKAGE_GRAPH.items() if unit(n) == "journal" and not on_top(n) for t in ts
    )


def test_the_layer_test_sees_imports():
    assert "companion.rules" in PACKAGE_GRAPH["companion.journal.journal"]
    assert "companion.journal.hooks" in PACKAGE_GRAPH["companion.insights.records"]
