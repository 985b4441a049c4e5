"""`scopa tournament`: a server's tournaments from the command line (``create``, ``list``,
``join``, ``leave``, ``start``, ``standings``), and `scopa bot --tournament ID`'s part:
a bot registered in a tournament plays each round at the table the server seats it at."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from scopa.client.net import ClientSession, ServerRefused
from scopa.engine import Player, Preset
from scopa.protocol import ErrorCode
from scopa.protocol import commands as wire


ACTIONS = ("create", "list", "join", "leave", "start", "standings")


def add_subcommand(sub: Any, connection_arguments: Callable[..., None]) -> None:
    """Add ``tournament`` and its actions to the `scopa` command's subparsers."""
    parser = sub.add_parser("tournament", help="a server's tournaments: create, list, join, leave, start, standings")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    create = actions.add_parser("create", help="create a tournament (you are its creator)")
    create.add_argument("title", metavar="NAME", help="its name")
    create.add_argument("--preset", choices=[p.value for p in Preset], default="scopa",
                        help="the game: " + ", ".join(p.value for p in Preset) + "; default scopa")
    create.add_argument("--format", choices=[f.value for f in wire.TournamentFormat], default="swiss",
                        help="swiss (default), round_robin or knockout")
    create.add_argument("--rounds", type=int, default=0, metavar="N", help="Swiss: how many rounds")
    create.add_argument("--cap", type=int, default=16, metavar="N", help="at most N entrants; default 16")
    create.add_argument("--starts-in", type=int, default=None, metavar="S",
                        help="start by itself S seconds from now (default: when you start it)")
    create.add_argument("--grace", type=int, default=60, metavar="S",
                        help="seconds a player has to sit at a round's table before losing by forfeit; default 60")
    create.add_argument("--bots-allowed", action="store_true", help="a bot may stand in for a player who leaves")
    create.add_argument("--tie-break", choices=[t.value for t in wire.KnockoutTie], default="rematch",
                        help="knockout: a drawn game is played again whole (rematch) or one deal decides "
                             "(deciding_round)")
    create.add_argument("--operator", action="store_true",
                        help="create it as the server's operator (a server started with --tournaments-by-operator): "
                             "the operator token is read from --token-file")
    create.add_argument("--token-file", default=None, metavar="PATH",
                        help="with --operator: the operator token file the server wrote; default: where "
                             "`scopa serve` writes it")
    listing = actions.add_parser("list", help="the tournaments open for registration or being played")
    listing.add_argument("--finished", action="store_true", help="the finished tournaments instead (then: scopa "
                                                                 "tournament standings ID for their final standings)")
    for action, help_text in (("join", "register for a tournament"), ("leave", "unregister (until it starts)"),
                              ("start", "start your tournament now"), ("standings", "a tournament's standings")):
        p = actions.add_parser(action, help=help_text)
        p.add_argument("tournament", metavar="ID", help="the tournament's id (scopa tournament list)")
        if action == "join":
            p.add_argument("--team", metavar="NAME", help="a team game: your team's name")
            p.add_argument("--partner", metavar="NAME", help="a team game: your partner's name")
    for p in actions.choices.values():
        connection_arguments(p, default_name=None)  # None: asked at a terminal, as by scopa play


def operator_token(args: argparse.Namespace, port: int) -> str:
    """The operator token ``scopa serve`` wrote for the server on ``port`` (``OSError``: unreadable)."""
    from .admin import default_token_file

    path = (args.token_file or default_token_file()).replace("{port}", str(port))
    return Path(path).read_text().strip()


async def run(args: argparse.Namespace, session: ClientSession, console: Console, port: int = 0) -> int:
    """One action on the server ``session`` is connected to (on ``port``: where the
    operator token file is); the exit status."""
    try:
        if args.action == "create":
            token = operator_token(args, port) if getattr(args, "operator", False) else None
            body = wire.TournamentCreate(
                name=args.title, preset=Preset(args.preset), format=wire.TournamentFormat(args.format),
                rounds=args.rounds, cap=args.cap, starts_in=args.starts_in, grace=args.grace,
                bots_allowed=args.bots_allowed, tie_break=wire.KnockoutTie(args.tie_break), token=token)
            show_info(console, [await session.create_tournament(body)])
        elif args.action == "list":
            finished = bool(getattr(args, "finished", False))
            show_info(console, await session.tournaments(finished), finished)
        elif args.action == "join":
            show_info(console, [await session.join_tournament(args.tournament, args.team, args.partner)])
        elif args.action == "leave":
            show_info(console, [await session.leave_tournament(args.tournament)])
        elif args.action == "start":
            show_info(console, [await session.start_tournament(args.tournament)])
        else:
            show_standings(console, await session.standings(args.tournament))
    except ValueError as exc:  # the fields are checked before they are sent
        console.print(f"[red]{escape(str(exc).splitlines()[0])}[/red]")
        return 2
    except OSError as exc:
        console.print(f"[red]cannot read the operator token: {escape(exc.strerror or str(exc))} "
                      f"({escape(str(getattr(exc, 'filename', '') or ''))})[/red]", soft_wrap=True)
        return 1
    return 0


def show_info(console: Console, tournaments: list[wire.TournamentInfo], finished: bool = False) -> None:
    """Each tournament on two lines: what it is and where it stands, then its entrants."""
    if not tournaments:
        console.print("No tournament has finished yet." if finished else
                      "No tournament is open for registration or being played.")
        return
    for info in tournaments:
        rounds = f"round {info.round}/{info.rounds}" if info.rounds else f"round {info.round}"
        starts = f"starts {info.starts_at}" if info.starts_at else "starts when its creator starts it"
        console.print(f"[bold]{info.id}[/bold] {escape(info.name)}: {info.format.value} of {info.preset.value} by "
                      f"{info.creator}, {info.phase.value}, {rounds}, {len(info.entrants)}/{info.cap} entrants, "
                      f"{starts}", soft_wrap=True, highlight=False)
        console.print(f"    entrants: {', '.join(info.entrants) or 'none yet'}", soft_wrap=True, highlight=False)


def show_standings(console: Console, standings: wire.TournamentStandings) -> None:
    title = f"Tournament {standings.tournament}: {'final standings' if standings.final else 'standings'}" \
            f" after round {standings.round}"
    t = Table(title=title, expand=False)
    tie = wire.StandingsKey.BUCHHOLZ in standings.ranked_by  # a knockout has no Buchholz: no column
    for column in ("#", "entrant", "pts", *(["Buchholz"] if tie else []), "game pts", "played", "W", "D", "L", "byes"):
        t.add_column(column, justify="left" if column == "entrant" else "right")
    for r in standings.rows:
        t.add_row(str(r.rank), r.entrant, f"{r.match_points:g}", *([f"{r.buchholz:g}"] if tie else []),
                  str(r.game_points), str(r.played), str(r.wins), str(r.draws), str(r.losses), str(r.byes))
    console.print(t)


async def play_tournament(session: ClientSession, tournament: str, player: Player,
                          log: Callable[[str], None]) -> wire.TournamentStandings:
    """`scopa bot --tournament ID`: register (if not yet), then play each game at the
    table the server seats the bot at, until the final standings."""
    try:
        await session.join_tournament(tournament)
        log(f"registered in tournament {tournament}")
    except ServerRefused as exc:
        if exc.code is not ErrorCode.ALREADY_REGISTERED:
            raise
    while True:
        seat = await session.next_tournament_seat(tournament)
        if isinstance(seat, wire.TournamentStandings):
            mine = next((r for r in seat.rows if r.entrant == session.name), None)
            log(f"tournament {tournament} is over" + (f": rank {mine.rank} of {len(seat.rows)}, "
                                                      f"{mine.match_points:g} points" if mine else ""))
            return seat
        log(f"seated at table {seat.table}, seat {seat.seat}")
        result = await session.play_game(player)
        outcome = "won" if result.won else ("no winner" if result.winner is None else "lost")
        log(f"game at table {result.table}: {outcome}, totals {list(result.totals)}")
