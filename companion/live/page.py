"""The live page's HTML, CSS and script: a picture of the Pi's screen and the game in words.

Everything from the journal (player names above all) is escaped. The pages work without the
script (they show the game as it was when loaded); with it, the game part is fetched again
each time the server says the game changed, and the browser's EventSource reconnects by itself
after the network drops (the script starts a new one if the browser gave up).

Called on the drawing thread only: `_` reads the language that thread set.
"""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache
from html import escape
from pathlib import Path
from typing import Any

from .. import i18n
from ..i18n import N_, translator

_ = translator("live")
# the app's own typeface (Atkinson Hyperlegible), served from memory
FONTS = Path(__file__).resolve().parent.parent / "ui" / "kit" / "fonts"
BUSY = N_("Busy for a moment: this page tries again by itself.")


def _e(value: Any) -> str:
    return escape(str(value), quote=True)


def _local(stamp: str | None) -> str:
    if not stamp:
        return ""
    try:
        return datetime.fromisoformat(stamp).astimezone().strftime("%Y-%m-%d %H:%M")
    except (ValueError, OverflowError):
        return stamp[:16]


@lru_cache(maxsize=2)
def font(weight: str) -> bytes:
    """The typeface's file for `weight` (regular, bold), read once."""
    return (FONTS / f"AtkinsonHyperlegible-{weight.title()}.ttf").read_bytes()


def busy_page(retry_s: int) -> str:
    """What a connection over the cap is sent: a line in each language, large enough to read
    across a room on a TV, and the page loads itself again a few seconds later (safe on any
    thread: no current language used)."""
    lines = "".join(f'<p lang="{code}">{_e(i18n.catalog("live", code).gettext(BUSY))}</p>' for code in i18n.LANGUAGES)
    return (
        f'<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="refresh" content="{retry_s}">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1"><title>Cloud Companion</title>'
        f'<link rel="icon" href="/favicon.svg"></head>'
        f'<body style="font-family: sans-serif; font-size: clamp(1.2rem, 2.6vw, 3rem); line-height: 1.4; '
        f'background: #dcecfb; color: #14213d; margin: 0; padding: 8vh 6vw">{lines}</body></html>'
    )  # TV-sized


def document(language: str, chosen: bool, title: str, body: str, here: str) -> str:
    """A whole page: the head, the navigation between the three pages, the languages. A
    language the viewer `chosen` is kept in the links; otherwise the page is the table's."""
    nav = [("/", _("Game"), "game"), ("/history", _("History"), "history"), ("/records", _("Records"), "records")]
    asked = f"?lang={language}" if chosen else ""
    links = " ".join(
        f'<a href="{href}{asked}"{" aria-current=page" if key == here else ""}>{_e(text)}</a>'
        for href, text, key in nav
    )
    path = {"game": "/", "history": "/history", "records": "/records"}[here]
    languages = " ".join(
        f'<a href="{path}?lang={code}" lang="{code}"{" aria-current=true" if code == language else ""}>{_e(name)}</a>'
        for code, name in i18n.LANGUAGE_NAMES.items()
    )
    return f"""<!doctype html>
<html lang="{language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_e(title)} · Cloud Companion</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="preload" href="/font/bold.ttf" as="font" type="font/ttf" crossorigin>
<link rel="stylesheet" href="/style.css">
<script src="/live.js" defer></script>
</head>
<body data-page="{here}" data-link="on" data-chosen="{"yes" if chosen else "no"}">
<header><nav>{links}</nav><span class="link" data-off="{_e(_("Reconnecting…"))}"></span><nav class="languages">{languages}</nav></header>
<main>
{body}
</main>
</body>
</html>
"""


def game_part(language: str, chosen: bool, version: str, text, problem: str | None) -> str:
    """The part of the game page that changes: its root carries the version it shows."""
    head = f'<div id="live" data-version="{_e(version)}">'
    if problem:
        return (
            head + f'<p class="notice">{_e(_("The game cannot be shown: {problem}").format(problem=problem))}</p></div>'
        )
    if not text.title:
        return (
            head + f'<p class="notice">{_e(_("No game yet. The page shows the game as soon as one starts."))}</p></div>'
        )
    picture = (
        f'<picture><source media="(orientation: portrait)" srcset="/picture/{_e(version)}/portrait.png?lang={language}">'
        f'<img src="/picture/{_e(version)}/landscape.png?lang={language}" alt="{_e(_("The game on the table’s screen"))}">'
        f"</picture>"
    )
    rows = []
    for p in text.players:
        marks = " turn" if p.turn else ""
        marks += " winner" if p.winner else ""
        rows.append(
            f'<li class="player{marks}"><span class="token" style="background:{_e(p.colour)}">{_e(p.mark)}</span>'
            f'<span class="name">{_e(p.name)}</span><span class="score">{_e(p.score)}</span></li>'
        )
    if text.over:
        ranking = "".join(
            f'<li><span class="place">{place}.</span><span class="name">{_e(name)}</span>'
            f'<span class="score">{score}</span></li>'
            for place, name, score in text.ranking
        )
        step = (
            f'<section class="end"><h2>{_e(_("Game over"))}</h2><p class="headline">{_e(text.headline)}</p>'
            + (f'<p class="note">{_e(text.note)}</p>' if text.note else "")
            + f'<ol class="ranking">{ranking}</ol></section>'
        )
    else:
        step = f'<p class="prompt">{_e(text.prompt)}</p>'
    story = "".join(f"<li>{_e(line)}</li>" for line in reversed(text.story))
    # the words first (a phone shows them above the picture), the picture, what happened
    return (
        head + f'<section class="now"><h1>{_e(text.title)} <small>{_e(text.subtitle)}</small></h1>{step}'
        f'<h2>{_e(_("Scores"))}</h2><ul class="players">{"".join(rows)}</ul></section>'
        f'<div class="screen">{picture}</div>'
        + (
            f'<section class="happened"><h2>{_e(_("What just happened"))}</h2><ol class="story">{story}</ol></section>'
            if story
            else ""
        )
        + "</div>"
    )


def game_page(language: str, chosen: bool, version: str, text, problem: str | None) -> str:
    return document(
        language, chosen, text.title or _("Game"), game_part(language, chosen, version, text, problem), "game"
    )


def history_page(language: str, chosen: bool, games: list[dict[str, Any]], problem: str | None) -> str:
    if problem:
        body = f'<p class="notice">{_e(problem)}</p>'
    elif not games:
        body = f'<p class="notice">{_e(_("No games yet."))}</p>'
    else:
        statuses = {"playing": _("in progress"), "over": _("finished"), "abandoned": _("not finished")}
        rows = []
        for g in games:
            if g["damaged"]:
                result = _("damaged")
            else:
                result = statuses.get(g["status"], g["status"])
                if g["status"] == "over":
                    result = (
                        _("won by {names}").format(names=", ".join(g["winners"])) if g["winners"] else _("nobody won")
                    )
            scores = ", ".join(f"{name} {g['scores'].get(name, 0)}" for name in g["players"])
            rows.append(
                f"<tr><td>{_e(_local(g['started']))}</td><td>{_e(g['title'])}</td>"
                f"<td>{_e(scores)}</td><td>{_e(result)}</td></tr>"
            )
        body = (
            f"<table><thead><tr><th>{_e(_('Started'))}</th><th>{_e(_('Game'))}</th><th>{_e(_('Scores'))}</th>"
            f"<th>{_e(_('Result'))}</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
        )
    return document(language, chosen, _("History"), f"<h1>{_e(_('History'))}</h1>{body}", "history")


def records_page(language: str, chosen: bool, sections: list[tuple[str, list[str]]], problem: str | None) -> str:
    if problem:
        body = f'<p class="notice">{_e(problem)}</p>'
    elif not sections:
        body = f'<p class="notice">{_e(_("No finished games yet."))}</p>'
    else:
        body = "".join(
            f"<section><h2>{_e(title)}</h2><ul>{''.join(f'<li>{_e(line)}</li>' for line in lines)}</ul></section>"
            for title, lines in sections
        )
    return document(language, chosen, _("Records"), f"<h1>{_e(_('Records'))}</h1>{body}", "records")


# the page's icon: a white cloud on the app's sky blue
ICON = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" '
    'fill="#3d8be0"/><path d="M17 47h30a11 11 0 0 0 1-22 15 15 0 0 0-28-2 12 12 0 0 0-3 24z" fill="#fff" '
    'stroke="#14213d" stroke-width="3" stroke-linejoin="round"/></svg>\n'
)

STYLE = """\
@font-face { font-family: "Atkinson Hyperlegible"; font-weight: normal; font-display: swap;
  src: url(/font/regular.ttf) format("truetype"); }
@font-face { font-family: "Atkinson Hyperlegible"; font-weight: bold; font-display: swap;
  src: url(/font/bold.ttf) format("truetype"); }
:root { --sky: #dcecfb; --ink: #14213d; --soft: #51607a; --card: #ffffff; --line: #b9cde6; --turn: #f5a300; }
* { box-sizing: border-box; }
html { background: linear-gradient(#9cc6ef, var(--sky)) fixed; min-height: 100%; }
body { margin: 0; color: var(--ink); font-family: "Atkinson Hyperlegible", system-ui, sans-serif; }
body { font-size: clamp(16px, 1.1vw + 0.6vh, 30px); }
header { display: flex; flex-wrap: wrap; gap: .5em 1.2em; align-items: center; padding: .4em .8em;
  background: var(--card); border-bottom: 2px solid var(--line); }
header nav { display: flex; gap: .8em; }
header a { color: var(--ink); text-decoration: none; padding: .2em .4em; border-radius: .3em; }
header a[aria-current] { background: var(--sky); font-weight: bold; }
.languages { margin-left: auto; }
.link::after { content: ""; }
body[data-link="off"] .link::after { content: attr(data-off); color: #b3261e; font-weight: bold; }
main { padding: .8em; }
#live { display: grid; grid-template-columns: minmax(0, 1fr); gap: .8em; align-items: start; }
.screen img { width: 100%; height: auto; display: block; border-radius: .5em; box-shadow: 0 2px 8px #0003; }
.now, .happened, section, table, .notice { background: var(--card); border-radius: .6em; padding: .6em .9em; }
h1 { font-size: 1.5em; margin: .1em 0 .3em; } h1 small { color: var(--soft); font-weight: normal; font-size: .7em; }
h2 { font-size: 1.05em; color: var(--soft); margin: .8em 0 .3em; }
.prompt { font-size: 1.6em; font-weight: bold; margin: .2em 0; }
.players, .story, .ranking { list-style: none; margin: 0; padding: 0; }
.player, .ranking li { display: flex; align-items: center; gap: .5em; padding: .25em .3em; border-radius: .4em; }
.player.turn { outline: .18em solid var(--turn); }
.player.winner .name::after { content: " ★"; color: var(--turn); }
.token { display: inline-grid; place-items: center; width: 1.8em; height: 1.8em; border-radius: 50%;
  color: #fff; font-weight: bold; border: 2px solid var(--ink); text-shadow: 0 0 2px #000; }
.name { flex: 1; } .score { font-size: 1.5em; font-weight: bold; }
.story li { padding: .15em 0; border-bottom: 1px solid var(--line); } .story li:first-child { font-weight: bold; }
.end .headline { font-size: 1.6em; font-weight: bold; margin: .2em 0; } .note { color: var(--soft); }
.place { width: 1.6em; }
table { border-collapse: collapse; width: 100%; } td, th { text-align: left; padding: .35em .5em; border-bottom: 1px solid var(--line); }
@media (orientation: portrait) {
  body { font-size: clamp(16px, 2.2vw + .4vh, 30px); }
  table { font-size: .85em; }
}
/* a screen across (a TV): the picture is the whole screen; the words and the links below it */
@media (orientation: landscape) and (min-width: 900px) {
  body[data-page="game"] { display: flex; flex-direction: column; }
  body[data-page="game"] header { order: 1; }
  body[data-page="game"] main { padding: 0; }
  body[data-page="game"] #live { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: .8em 0; }
  #live .screen { grid-column: 1 / -1; order: -1; }
  #live .screen img { height: 100vh; object-fit: contain; border-radius: 0; box-shadow: none; }
  #live .now { margin-left: .8em; } #live .happened { margin: 0 .8em; }
}
"""

SCRIPT = """\
(function () {
  "use strict";
  var lang = document.documentElement.lang;
  var chosen = document.body.dataset.chosen === "yes";  // else the page is in the table's language
  var retry = null;
  function part() { return document.getElementById("live"); }
  function refresh() {
    fetch("/fragment" + (chosen ? "?lang=" + encodeURIComponent(lang) : ""), {cache: "no-store"})
      .then(function (r) { if (!r.ok) { throw new Error(r.status); } return r.text(); })
      .then(function (html) { var old = part(); if (old) { old.outerHTML = html; } })
      .catch(function () {});
  }
  function connect() {
    var source = new EventSource("/events");
    source.addEventListener("change", function (e) {
      var data = JSON.parse(e.data), now = data.version, old = part();
      if (!chosen && data.language && data.language !== lang) { location.reload(); return; }
      if (document.body.dataset.page === "game" && old && old.dataset.version !== now) { refresh(); }
      else if (document.body.dataset.page !== "game") { document.body.dataset.seen = now; }
    });
    source.onopen = function () { document.body.dataset.link = "on"; };
    source.onerror = function () {
      document.body.dataset.link = "off";
      if (source.readyState === EventSource.CLOSED) {  // the browser gave up (a refusal): try again later
        source.close(); clearTimeout(retry); retry = setTimeout(connect, 3000);
      }
    };
  }
  connect();
})();
"""
