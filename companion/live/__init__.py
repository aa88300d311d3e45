"""The live page: the game in progress on every screen in the room (a TV, the players' phones).

A small web server of its own (`cloud-companion live`, its own systemd unit), apart from the app:
it reads the journal read-only, hears of each new action through an inotify watch on the
journal's folder, and pushes the change to every open page (server-sent events). It can only
look: nothing it serves changes a game.

    address.py   where it listens (the home network only) and the URL it publishes for the QR code
    reader.py    the journal, read-only: the latest game, the history, the records
    events.py    the inotify watch (debounced) and the viewers' bounded queues
    picture.py   the app's own screen drawn headless (pygame), and every text of the ui it shows
    page.py      the HTML, CSS and script of the pages
    web.py       HTTP/1.1 on asyncio with h11's parser, and the limits of every request
    server.py    the routes, the pages' rules, the on/off switch of the settings

Only this __init__ and address.py are imported by the app (for the QR code): both are light.
"""
