"""Find the translatable strings in the source, per domain, and keep the catalogs in step.

A module takes part by binding `_ = translator("<domain>")` at module level; every literal in
`_("...")`, `N_("...")` and `_.ngettext("...", "...", n)` in that module belongs to the domain.

The "rules" domain also holds the refusals of the rules core (companion/rules/) and the
controller, which import nothing from here: the literal template and rule name of every
`RulesError(...)` call, every `N_("...")` literal (common.N_), and the rule names kept in
module constants `RULE_... = "..."`.

    python -m companion.i18n.extract [DOMAIN ...]   # add new strings to the domains' .po files
                                                    # (msgstr empty), drop strings no longer used
then translate the empty entries and run `python -m companion.i18n` to compile.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

from . import LANGUAGES, SOURCE_LANGUAGE, po_path

PACKAGE_DIR = Path(__file__).resolve().parent.parent
RULES_DOMAIN = "rules"
# where the refusals the app shows are written, relative to the package
REFUSAL_SOURCES = ("rules", "controller.py")


def module_domain(tree: ast.Module) -> str | None:
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Call)
            and (
                getattr(node.value.func, "id", None) == "translator"
                or getattr(node.value.func, "attr", None) == "translator"
            )
            and any(getattr(t, "id", None) == "_" for t in node.targets)
            and node.value.args
            and (domain := _literal(node.value.args[0])) is not None
        ):
            return domain
    return None


def _literal(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def strings_in(tree: ast.Module) -> list[tuple[str, str | None]]:
    """(msgid, msgid_plural or None) in source order."""
    found: list[tuple[str, str | None]] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        if (isinstance(func, ast.Name) and func.id in ("_", "N_")) or (
            isinstance(func, ast.Attribute) and func.attr == "N_"
        ):
            text = _literal(node.args[0])
            if text is not None:
                found.append((text, None))
        elif (
            isinstance(func, ast.Attribute)
            and func.attr == "ngettext"
            and getattr(func.value, "id", None) == "_"
            and len(node.args) >= 2
        ):
            one, many = _literal(node.args[0]), _literal(node.args[1])
            if one is not None and many is not None:
                found.append((one, many))
    return found


def refusal_strings(tree: ast.Module) -> list[str]:
    """The "rules" strings of a rules-core module, in source order: templates and rule names of
    `RulesError(...)` calls, `N_("...")` literals, and `RULE_...` constants."""
    found: list[str] = []
    for stmt in tree.body:  # rule names kept in module constants
        if (
            isinstance(stmt, ast.Assign)
            and (constant := _literal(stmt.value)) is not None
            and any(getattr(t, "id", "").startswith("RULE_") for t in stmt.targets)
        ):
            found.append(constant)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
        if name == "RulesError":
            rule = (
                node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "rule"), None)
            )
            found += [
                text
                for text in (
                    _literal(node.args[0]) if node.args else None,
                    _literal(rule) if rule is not None else None,
                )
                if text is not None
            ]
        elif name == "N_" and node.args and (text := _literal(node.args[0])) is not None:
            found.append(text)
    return found


def _is_refusal_source(path: Path, root: Path) -> bool:
    return path.relative_to(root).parts[0] in REFUSAL_SOURCES


def extract(root: Path = PACKAGE_DIR) -> dict[str, dict[str, str | None]]:
    """domain -> {msgid: msgid_plural or None} over every module under `root`."""
    out: dict[str, dict[str, str | None]] = defaultdict(dict)
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        if _is_refusal_source(path, root):
            for msgid in refusal_strings(tree):
                out[RULES_DOMAIN].setdefault(msgid, None)
        domain = module_domain(tree)
        if domain is None:
            continue
        for msgid, plural in strings_in(tree):
            out[domain].setdefault(msgid, plural)
    return dict(out)


def update_catalogs(only: list[str] | None = None, root: Path = PACKAGE_DIR) -> list[str]:
    """Bring the catalogs of the `only` domains (default: every domain) in step with the source."""
    import polib  # a development tool: the `test` extra installs it

    changed = []
    for domain, messages in extract(root).items():
        if only and domain not in only:
            continue
        for language in LANGUAGES:
            if language == SOURCE_LANGUAGE:
                continue
            path = po_path(domain, language)
            po = polib.pofile(str(path)) if path.exists() else polib.POFile()
            po.metadata.update(
                {
                    "Content-Type": "text/plain; charset=UTF-8",
                    "Language": language,
                    "Plural-Forms": "nplurals=2; plural=(n != 1);",
                }
            )
            present = {e.msgid for e in po}
            for msgid, plural in messages.items():
                if msgid not in present:
                    entry = polib.POEntry(msgid=msgid, msgstr="")
                    if plural:
                        entry = polib.POEntry(msgid=msgid, msgid_plural=plural, msgstr_plural={0: "", 1: ""})
                    po.append(entry)
            for entry in [e for e in po if e.msgid not in messages]:
                po.remove(entry)
            path.parent.mkdir(parents=True, exist_ok=True)
            po.save(str(path))
            changed.append(f"{language}/{domain}")
    return changed


def main(argv: list[str] | None = None) -> int:
    import argparse

    known = sorted(extract())
    parser = argparse.ArgumentParser(
        prog="python -m companion.i18n.extract",
        description="Add the new translatable strings of the source to each domain's .po files "
        "(with empty translations) and drop the strings no longer used; then translate "
        "the empty entries and compile with `python -m companion.i18n`.",
    )
    parser.add_argument(
        "domains", nargs="*", metavar="DOMAIN", help=f"the domains to update (default: all of them: {', '.join(known)})"
    )
    args = parser.parse_args(argv)
    unknown = [domain for domain in args.domains if domain not in known]
    if unknown:
        parser.error(f"no domain {', '.join(map(repr, unknown))}: the domains are {', '.join(known)}")
    for name in update_catalogs(args.domains or None):
        print(f"updated {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
