"""`python -m companion.i18n`: compile every .po catalog to the .mo beside it (needs polib,
which the `test` extra installs)."""

from __future__ import annotations

import polib

from . import LOCALE_DIR


def compile_all() -> list[str]:
    written = []
    for po_file in sorted(LOCALE_DIR.glob("*/LC_MESSAGES/*.po")):
        polib.pofile(str(po_file)).save_as_mofile(str(po_file.with_suffix(".mo")))
        written.append(str(po_file.relative_to(LOCALE_DIR)))
    return written


if __name__ == "__main__":
    for name in compile_all():
        print(f"compiled {name}")
