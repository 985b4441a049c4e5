"""The `scopa` command: its parser, ``local``, ``rules`` and ``options``, and the
dispatch to the modules of the other subcommands (:mod:`.serve`, :mod:`.net`,
:mod:`.admin`, :mod:`.lan`, :mod:`.records`, :mod:`.arena`, :mod:`.web`)."""

from __future__ import annotations

import argparse
import random
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import Sequence

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from scopa.client.text import DeckStyle, level_named, level_text, name_problem, rules_problem_text, set_language, tr
from scopa.engine import Preset, RuleSetError
from scopa.protocol.parties import normal_name

from . import admin, arena, cluster, helptext, interrupt, lan, net, records, serve, tournament, web
from .options import add_rules_arguments, rules_from_args
from .terminal import sane_terminal


def lang_argument(p: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """``--lang``: the client's language, over the locale's."""
    p.add_argument("--lang", choices=("en", "it"), default=None,
                   help="the language of the game: en (English) or it (italiano); default: the locale's "
                        "(LANG=it_IT.UTF-8 is it)")


def _display_arguments(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("display")
    lang_argument(g)
    g.add_argument("--deck", choices=[s.value for s in DeckStyle], default="italian",
                   help="italian: Italian cards, their names and suits (Denari, Coppe, Spade, Bastoni); french: "
                        "the French (classic) deck")
    g.add_argument("--no-autoplay", action="store_true",
                   help="do not play a forced last card automatically")
    g.add_argument("--delay", type=float, default=None, metavar="S",
                   help="seconds to pause after each play by someone else (default: 0.6 in the "
                        "full-screen app, none in the plain log)")
    g.add_argument("--plain", action="store_true",
                   help="the plain scrolling interface (a prompt and printed lines) instead of the "
                        "full-screen app; also for screen readers")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="scopa", description="Scopa: play, host and script the Italian card game.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    local = sub.add_parser("local", help="play in this terminal against bots (no server needed)")
    local.add_argument("--seats", metavar="KINDS",
                       help="who sits where, e.g. human,greedy or human,greedy,human,random (kinds: human, "
                            "random, greedy, expert, greedy-v1, chitarella, ismcts, the levels easy, medium, hard, "
                            "or your own bot as path/to/mybot.py:Class); all bots = watch a game")
    local.add_argument("--name", metavar="NAME[,NAME…]",
                       help="your name at the table (at a terminal it is asked when not given), or the names of "
                            "the people seated in --seats, in their order")
    local.add_argument("--seed", type=int, help="seed for a reproducible game")
    local.add_argument("--record", metavar="FILE", help="write the game's record to FILE (docs/RECORDS.md)")
    add_rules_arguments(local)
    _display_arguments(local)

    rules = sub.add_parser("rules", help="print the rules (of every game, or of one by name)")
    rules.add_argument("preset", nargs="?", choices=[p.value for p in Preset], metavar="PRESET",
                       help="one game: " + ", ".join(p.value for p in Preset))
    rules.add_argument("--lang", choices=("en", "it"), default=None,
                       help="the language: en (docs/RULES.md) or it (docs/RULES.it.md); default: the locale's "
                            "(LANG=it_IT.UTF-8 is it)")
    options = sub.add_parser("options", help="list every table option (-o NAME=VALUE) and what it means")
    lang_argument(options)

    records.add_subcommands(sub)  # game records: replay, games, record, leaderboard
    serve.add_serve_subcommand(sub)
    cluster.add_cluster_subcommand(sub)
    admin.add_admin_subcommand(sub)
    lan.add_servers_subcommand(sub)
    net.add_subcommands(sub, add_rules_arguments, _display_arguments)  # play, bot, watch
    tournament.add_subcommand(sub, net.connection_arguments)
    arena.add_subcommand(sub)
    web.add_web_subcommand(sub)  # scopa web, scopa serve --web: the browser client
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    console = Console()
    try:
        interrupt.raise_held()  # pressed while the modules loaded
        helptext.take_language(argv)  # the help and argparse's errors speak it too
        helptext.speak_argparse()
        parser = helptext.translate(build_parser())
        args = parser.parse_args(argv)
        if args.command != "rules" and getattr(args, "lang", None):
            set_language(args.lang)  # before the client's screens are made: they speak it
        if args.command == "local":
            return _local(args, console)
        if args.command in ("rules", "options"):
            return _rules(args)
        if args.command == "arena":
            return arena.run(args, console)
        if args.command in records.COMMANDS:
            return records.run(args, console)
        if args.command == "web":
            return web.run_web(args, main)
        if args.command == "serve":
            return serve.run_serve(args, console)
        if args.command == "cluster":
            return cluster.run_cluster(args, console)
        if args.command == "admin":
            return admin.run_admin(args, console)
        if args.command == "servers":
            return lan.run_servers(args, console)
        net.take_address(args, parser)
        return net.run(args, console)
    except RuleSetError as exc:
        console.print(f"[red]{escape(tr('Those rules do not work:'))}[/red] {escape(rules_problem_text(str(exc)))}")
        return 2
    except (KeyboardInterrupt, EOFError):
        console.print(f"\n[dim]{escape(tr('bye'))}[/dim]")
        return 130


def _rules(args: argparse.Namespace) -> int:
    from scopa.client.text import language, book, options_text, preset_rules

    from .pager import show_markdown

    if args.command == "options":
        sys.stdout.write(options_text().replace("`", ""))  # read as it is: no Markdown code marks
    else:
        lang = args.lang or language()
        show_markdown(preset_rules(Preset(args.preset), lang) if args.preset else book(lang))
    return 0


def _seat_words(spec: str | None) -> str | None:
    """``--seats`` with each bot level typed in the terminal's language ("medio") as its
    own name (``medium``)."""
    if spec is None:
        return None
    return ",".join("human" if word.strip().lower() in PERSON_WORDS else level_named(word) or word
                    for word in spec.split(","))


PERSON_WORDS = frozenset({"human", "umano", "umana", "persona"})
"""What ``--seats`` takes for a person's seat, in English or in Italian."""


def _people_names(given: str | None, people: int, console: Console) -> list[str] | None:
    """``--name``: the names of the people at a local table, in seat order ([]: none
    given); None when one is not a name or there are more names than people (said)."""
    if given is None:
        return []
    typed = [n.strip() for n in given.split(",")]
    for name in typed:
        problem = name_problem(name)
        if problem is not None:
            console.print(Text(problem, style="red"), soft_wrap=True)
            return None
    if len(typed) > people:
        console.print(Text(tr("--name gives {n} names, but the table has {people} seat(s) for people (human in --seats)", n=len(typed),
                              people=people), style="red"))
        return None
    return [normal_name(name) for name in typed]


def _local(args: argparse.Namespace, console: Console) -> int:
    from scopa.bots import LEVELS, STRATEGIES
    from scopa.client.seats import UnknownSeatKind, parse_seats
    from scopa.client.console import run_local_game

    if args.seats and args.players is None:  # --seats alone decides how many play
        named = [k.strip() for k in args.seats.split(",") if k.strip()]
        count = len(named)
        if count not in (2, 3, 4, 6):
            hint = " " + tr("(to play against it: --seats human,{kind})", kind=named[0]) \
                if count == 1 and named[0] != "human" else ""
            names = tr("--seats names 1 seat; a table has 2, 3, 4 or 6") if count == 1 else \
                tr("--seats names {n} seats; a table has 2, 3, 4 or 6", n=count)
            console.print(Text(names + hint, style="red"))
            return 2
        args.players = count
    rules = rules_from_args(args)
    try:
        kinds = parse_seats(_seat_words(args.seats), rules.players)
    except UnknownSeatKind as exc:
        console.print(Text(tr("{kind} cannot sit at the table; a seat is human (you), a bot level ({levels}), "
                              "another built-in bot ({bots}), or your own bot as MODULE:CLASS or FILE.py:CLASS",
                              kind=repr(exc.kind), levels=", ".join(level_text(level) for level in LEVELS),
                              bots=", ".join(s for s in STRATEGIES if s not in LEVELS)), style="red"))
        return 2
    except ValueError as exc:
        console.print(f"[red]{exc}[/red]")
        return 2
    people = _people_names(args.name, kinds.count("human"), console)
    if people is None:
        return 2
    record_to = Path(args.record) if args.record else None
    if record_to is not None and (record_to.is_dir() or not record_to.parent.is_dir()):
        console.print(Text(tr("cannot write a record to {file}: no such folder, or it is a folder", file=str(record_to)),
                           style="red"))
        return 2
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    person = "human" in kinds
    if args.plain or not sys.stdout.isatty():
        if person and not args.plain:
            console.print(Text(tr("The output is not a terminal: scopa local cannot draw the board."), style="red")
                          + Text(" " + tr("Seat only bots (e.g. --seats greedy,random) to print a game, or add --plain "
                                          "to play with typed lines.")))
            return 2
        delay = (args.delay or 0.0) if sys.stdout.isatty() else 0.0  # a log to a file needs no pauses
        if not people and kinds.count("human") == 1 and sys.stdin.isatty():
            people = [net.ask_name(console)]  # as scopa play asks it
        interrupt.run(run_local_game(rules, kinds, seed, DeckStyle(args.deck), not args.no_autoplay, delay, console,
                                     record_to, people))  # Ctrl-C wakes the loop from the keyboard's thread too
        return 0
    from scopa.client.console.recordfile import write_record
    from scopa.client.tui.app import LocalGameApp

    from .username import default_name

    ask = default_name() if not people and kinds.count("human") == 1 and sys.stdin.isatty() else None
    app = LocalGameApp(rules, kinds, seed, DeckStyle(args.deck), not args.no_autoplay, args.delay, names=people,
                       ask_name=ask)  # the app asks the name first, as scopa play's does
    sane_terminal()  # a terminal left raw by a client killed with kill -9 is set right first
    app.run()

    console.print(Text(app.result_line or tr("Game left.")))  # wrapped between words, the seed on a line of its own
    console.print(Text(tr("Seed {seed}: replay with --seed {seed}", seed=app.seed)))  # the last game's
    record = app.finished_record(datetime.now(timezone.utc).replace(microsecond=0))
    if record_to is not None and record is not None:
        write_record(record, record_to)
        console.print(Text(tr("record written to {path}", path=record_to), style="dim"))
    elif record_to is not None:
        console.print(Text(tr("no record written: the game was left before its end"), style="dim"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
