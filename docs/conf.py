"""Sphinx: the Cloud Companion manual (MyST Markdown, the Furo theme) and its man page."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the command line page reads the parsers from this checkout

project = "Cloud Companion"
author = "the Cloud Companion project"
extensions = ["myst_parser", "sphinxarg.ext"]
source_suffix = {".md": "markdown"}
exclude_patterns = ["man"]
myst_enable_extensions = ["deflist"]  # the man page's FILES list
myst_heading_anchors = 3  # a link such as "data.md#back-up" reaches that heading

html_theme = "furo"
html_title = "Cloud Companion"
html_permalinks_icon = "#"

# `make man`: the man page from the same parsers as the command line page
man_pages = [
    ("cli", "cloud-companion", "keeps the books for Cloud 9, Cloudship and The Cloud Mine at the table", [author], 1)
]
man_show_urls = False
today_fmt = "%Y"  # the man page's date
