"""`cloud-companion run` (the app; also plain `cloud-companion`) and `cloud-companion demo`."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from ... import i18n
from ...console import command, fail

_ = i18n.translator("app")

NO_DISPLAY = "no display to show the app on ({why}). To see every screen without one, run: {command} demo --out DIR"


def size_arg(text: str) -> tuple[int, int]:
    try:
        w, h = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must look like 800x480, not {text!r}") from None
    if not (200 <= w <= 8000 and 200 <= h <= 8000):
        raise argparse.ArgumentTypeError(f"size {text} is out of range")
    return w, h


def register(sub: argparse._SubParsersAction) -> None:
    run = sub.add_parser("run", help="start the app (the default)")
    run.add_argument("--windowed", action="store_true", help="a window instead of the full screen")
    run.add_argument("--rotate", type=int, choices=(0, 90, 180, 270), help="turn the picture clockwise")
    run.add_argument("--size", type=size_arg, help="window size, e.g. 1024x600 (default: the screen's)")
    run.add_argument("--db", type=Path, help="the journal file (default: in the user's data directory)")
    run.add_argument("--config", type=Path, help="the settings file (default: in the user's config directory)")
    run.add_argument("--first-frame-exit", action="store_true", help=argparse.SUPPRESS)  # for bench
    run.set_defaults(func=cmd_run)
    demo = sub.add_parser("demo", help="save a PNG of every screen of a scripted game of each title")
    demo.add_argument("--out", type=Path, required=True, help="the folder for the pictures")
    demo.add_argument(
        "--language",
        choices=("en", "de", "hu", "all"),
        action="append",
        help="en, de or hu (again for more, or all); several go into DIR/<language>/",
    )
    demo.add_argument(
        "--size",
        type=size_arg,
        action="append",
        metavar="WxH",
        help="a screen size, e.g. 1024x600 (again for more); each goes into DIR/WxH/ (default: 800x480 and 720x1280)",
    )
    demo.add_argument(
        "--players",
        type=players_arg,
        metavar="N",
        help="play each title with N players (3 to its most) of the longest names, "
        "a random legal game (default: the scripted games)",
    )
    demo.set_defaults(func=cmd_demo)


def players_arg(text: str) -> int:
    try:
        count = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"players must be a whole number, not {text!r}") from None
    if not 3 <= count <= 8:
        raise argparse.ArgumentTypeError(f"players must be 3 to 8 (each title keeps its own most), not {count}")
    return count


# SDL's stand-ins when no real display answers: they show nothing to anyone
HEADLESS_DRIVERS = ("offscreen", "dummy")
# a desktop session's drivers (where the app needs its own Quit); kmsdrm is the Pi's console
DESKTOP_DRIVERS = ("x11", "wayland", "windows", "cocoa")


def open_display(args):
    """The display surface, or a one-line reason why there is none.

    A window needs a desktop session; without one (or with a DISPLAY no X server answers at)
    SDL would fall back to a driver that shows nothing, and the app would run unseen. A driver
    chosen on purpose with SDL_VIDEODRIVER (dummy, for tests) is used as chosen.
    """
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    chosen = os.environ.get("SDL_VIDEODRIVER")
    desktop = os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    if sys.platform.startswith("linux") and not chosen:
        if not args.windowed and not desktop:
            os.environ["SDL_VIDEODRIVER"] = "kmsdrm"  # the Pi's console: no desktop needed
        elif args.windowed and not desktop:
            return None, "no desktop session: DISPLAY and WAYLAND_DISPLAY are not set"
        elif not os.environ.get("WAYLAND_DISPLAY"):
            os.environ["SDL_VIDEODRIVER"] = "x11"  # not wayland: it prints its own errors on the way
    if os.environ.get("SDL_VIDEODRIVER") == "kmsdrm":
        from ..loop.sdl import choose_console_renderer

        choose_console_renderer(os.environ)
    import pygame

    try:
        pygame.display.init()
        if not chosen and pygame.display.get_driver() in HEADLESS_DRIVERS:
            pygame.display.quit()
            return None, f"nothing answers at {desktop or 'the display'}"
        # our own icon: otherwise SDL's default is looked up through pkg_resources (0.3 s)
        pygame.display.set_icon(app_icon())
        if args.windowed:
            size = args.size or (800, 480)
            display = pygame.display.set_mode(size, pygame.RESIZABLE)
        else:
            display = pygame.display.set_mode(args.size or (0, 0), pygame.FULLSCREEN)
    except pygame.error as exc:
        if not chosen and desktop:
            return None, f"nothing answers at {desktop}: {exc}"
        return None, str(exc) or "SDL found no video device"
    pygame.display.set_caption("Cloud Companion")
    pygame.font.init()
    if not args.windowed:
        pygame.mouse.set_visible(False)  # a touchscreen needs no pointer
    return display, None


def app_icon():
    import pygame

    from ..kit.shapes import draw_token

    icon = pygame.Surface((32, 32), pygame.SRCALPHA)
    draw_token(icon, "wild", (16, 16), 14)
    return icon


def cmd_run(args: argparse.Namespace) -> int:
    from ... import config as settings
    from ..loop.heap import give_back_large_blocks

    started = time.perf_counter()
    give_back_large_blocks()  # before the first picture is made
    config_path = args.config or settings.default_path()
    config, problems = settings.load(config_path)
    from ...appliance.service import Service, setup_logging

    log = setup_logging(config.log_level)
    for problem in problems:  # the system log says too what the screen says
        log.warning(problem)
    problems = settings_notices(problems, config_path)
    args.size = args.size or config.size
    if args.rotate is not None:
        config = config.with_changes(rotate=args.rotate)
    display, why = open_display(args)
    if display is None:
        return fail(NO_DISPLAY.format(why=why, command=command()))

    from ...controller import GameController
    from ..kit.layout import Viewport
    from ..loop.app import App
    from ..loop.hardware import NoHardware
    from ..story.sounds import Silence

    # the first frame comes first; the journal, sounds and seat buttons load right after it
    app = App(
        Viewport(display, config.rotate),
        config,
        GameController(),
        config_path=config_path,
        sounds=Silence(config.volume, config.muted),
        hardware=NoHardware(),
    )
    import pygame

    app.desktop = args.windowed or pygame.display.get_driver() in DESKTOP_DRIVERS
    app.home()
    app.pump()
    from ...appliance.usb import sticks_now

    # the sticks in at the first frame; one put in while the rest starts is offered a backup
    sticks_at_start = sticks_now()
    if args.first_frame_exit:
        print(f"first frame after {time.perf_counter() - started:.3f} s", flush=True)
    from ...journal import JournalBusy, JournalError
    from ...journal.follow import EXIT_BUSY

    try:
        journal = attach_the_rest(app, args, config, problems, sticks_at_start)
    except JournalBusy as exc:  # a second app on the same journal: refused, same code as the CLI
        return fail(str(exc), EXIT_BUSY)
    except JournalError as exc:  # --db names a folder or another kind of file: left alone
        return fail(str(exc))
    service = Service()
    service.started(app)
    try:
        if not args.first_frame_exit:
            app.run()
    except Exception:  # logged with the last actions; systemd restarts the app into the game
        service.crashed()
        return 70
    finally:
        service.stopping()
        app.finish_idle_work()  # a recap picture still to save, say
        app.hardware.close()
        app.voice.close()
        app.sounds.close()  # waits for a resting audio device to finish closing
        journal.close()
        import pygame

        pygame.quit()
    from ...appliance import power

    if power.requested():  # Settings > Shut down: the journal is closed, now the Pi goes off
        return 0 if power.power_off() else 1
    return 0


def settings_notices(problems: list[str], config_path) -> list[str]:
    """The settings' problems for the screen, without the long path: "Settings: volume: ..."."""
    return [_("Settings: {problem}").format(problem=p.removeprefix(f"{config_path}: ")) for p in problems]


def attach_the_rest(app, args, config, problems: list[str], sticks_at_start=None):
    """The journal (and any game to resume), the sounds, the seat buttons and the watch for
    USB sticks (offered a backup when put in since `sticks_at_start` was read, at the first frame)."""
    import logging

    logged = len(problems)
    from ...journal import Journal
    from ...sound import Sounds
    from ..loop.hardware import SeatHardware

    journal = Journal.open(args.db)  # JournalBusy: another app writes to it
    app.journal = journal
    journal.on_damage = lambda text: app.call_soon(lambda: tell_damage(app, text))  # its check's thread
    if journal.damage:
        tell_damage(app, journal.damage)
    app.controller.log = journal
    from ...appliance.storage import lost_at_reboot

    app.storage_warning = lost_at_reboot(journal.path.parent)  # Home says so while it lasts
    if app.storage_warning is not None:
        logging.getLogger("cloud-companion").warning(
            "%s is on %s (%s): every game is lost at the next reboot",
            journal.path.parent,
            app.storage_warning[1],
            app.storage_warning[0],
        )
    app.sounds = Sounds(config.volume, config.muted)
    try:
        app.hardware = SeatHardware.open(config, wake=app.wake)
        app.hardware.enter(app.screen)
    except Exception as exc:  # no pins, a broken pin map: the app still keeps the books by touch
        problems.append(f"seat buttons unavailable: {exc}")
    from ..loop.usb_backup import watch_for_sticks

    try:
        # offers a backup onto a USB stick put in since the first frame
        app.stick_watcher = watch_for_sticks(app, journal.path, sticks_at_start)
    except OSError as exc:
        problems.append(f"USB sticks are not watched: {exc}")
    from ..loop.ship_view import attach_ship

    attach_ship(app, config, problems)
    notices = problems + list(journal.messages)
    for line in notices[logged:]:  # the settings' problems were logged as they were read
        logging.getLogger("cloud-companion").warning(line)
    if len(notices) > 1:  # one toast at a time: the first, and where to read them all
        notices = [_("{first} (and {count} more in the log)").format(first=notices[0], count=len(notices) - 1)]
    for line in notices:
        app.toast(line, seconds=8)
    offer_resume(app, journal)
    from ..screens.end import keep_latest_recap

    app.when_idle(lambda: keep_latest_recap(journal))  # the app stopped before it was saved
    from ..screens.records_work import work_out_stale_records

    # games that came without their records (a restore, an older version): ready before asked
    app.when_idle(lambda: work_out_stale_records(app, journal))
    app.refresh()
    return journal


def tell_damage(app, text: str) -> None:
    import logging

    logging.getLogger("cloud-companion").error(text)
    app.toast(text, seconds=12)


def offer_resume(app, journal) -> None:
    """An unfinished game: straight back into it after a crash, else ask."""
    from ..kit.widgets import Dialog, DialogButton

    offer = journal.offer()
    if offer is None:
        return

    def resume():
        app.close_dialog()
        if app.controller.resume(offer.game.id) is not None:
            app.show_game()

    def drop():
        app.close_dialog()
        journal.abandon(offer.game.id)

    if offer.automatic:
        resume()
        return
    from ..screens.base import game_title

    app.ask(
        Dialog(
            _("Continue the game?"),
            _("{game} with {names} is not finished.").format(
                game=game_title(offer.game.game), names=", ".join(offer.game.players)
            ),
            [DialogButton(_("New game"), drop, "secondary"), DialogButton(_("Continue"), resume, "primary")],
        )
    )


def cmd_demo(args: argparse.Namespace) -> int:
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    try:
        args.out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return fail(f"cannot make the folder {args.out} for the pictures: {exc.strerror or exc}")
    import pygame

    from .demo import record, sized

    languages = args.language or ["en"]
    if "all" in languages:
        languages = list(i18n.LANGUAGES)
    languages = list(dict.fromkeys(languages))
    files = []
    try:
        for language in languages:
            # one language: DIR/landscape, DIR/portrait as ever; several: a folder each
            out = args.out if len(languages) == 1 else args.out / language
            files += record(out, language=language, log=print, sizes=sized(args.size), players=args.players)
    except (OSError, pygame.error) as exc:  # a read-only or full disk, a folder taken away
        why = getattr(exc, "strerror", None) or str(exc)
        return fail(f"cannot save the pictures in {args.out}: {why}")
    print(f"saved {len(files)} pictures in {args.out}")
    return 0
