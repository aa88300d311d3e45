"""The ui package's rooms: each imports only the rooms below it, and no module imports itself
back through others (imports inside functions count: they are circles all the same)."""

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
    loose = [name for name in MODULES if name != "companion.ui" and room(name) not in BELOW
             and not (name.count(".") == 2 and name.split(".")[2] in BELOW)]
    assert loose == []


def test_rooms_import_only_the_rooms_below_them():
    wrong = sorted(f"{name} imports {target}" for name, targets in GRAPH.items() for target in targets
                   if room(name) and room(target) and room(target) != room(name)
                   and room(target) not in BELOW[room(name)])
    assert wrong == []


def test_no_import_circles():
    circles = []
    state: dict[str, int] = {}  # 1: on the path, 2: done

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        for target in sorted(GRAPH[name]):
            if state.get(target) == 1:
                circles.append(" -> ".join(path[path.index(target):] + [target]))
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
