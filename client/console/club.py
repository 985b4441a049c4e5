"""`scopa play`'s tournaments in the plain terminal: the lobby's ``t`` command (list the
tournaments open or finished, register, unregister, start one's own, the standings) and
what it prints; a round's table is followed by the lobby itself (:mod:`.lobby`)."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from ..net import ClientSession, ServerRefused
from ..text import error_text, render_standings, render_tournaments, tr
from .tablewords import TOURNAMENT, command_of


def tournament_help() -> str:
    """The lobby's tournament commands, in the language spoken now."""
    return tr("[bold]t[/bold] tournaments · [bold]t done[/bold] finished ones · [bold]t join ID[/bold] · "
              "[bold]t leave ID[/bold] · [bold]t start ID[/bold] · [bold]t standings ID[/bold]")




def parse_tournament_command(rest: str) -> tuple[str, str] | str:
    """``t``'s words: (action, tournament id) — the action "" lists the open ones — or a hint."""
    words = rest.split()
    if not words:
        return "", ""
    action = command_of(words[0], TOURNAMENT)
    if action == "" or action == "done":
        return action, ""
    if action is None:
        if len(words) == 1 and words[0][:1].lower() == "c" and words[0][1:].isdigit():
            return "standings", words[0]  # t c3: that tournament's standings
        return tr("{word}: not a tournament command.", word=repr(words[0])) + " " + tournament_help()
    if len(words) < 2:
        return tr("which tournament? e.g. t {action} c1", action=action)
    return action, words[1]


async def tournament_command(session: ClientSession, console: Console, rest: str) -> None:
    """Carry out one ``t …`` lobby command and print what came of it."""
    parsed = parse_tournament_command(rest)
    if isinstance(parsed, str):
        console.print(parsed)
        return
    action, tid = parsed
    try:
        if action in ("", "done"):
            console.print(render_tournaments(await session.tournaments(finished=action == "done"), action == "done"))
            console.print(tournament_help())
        elif action == "standings":
            console.print(render_standings(await session.standings(tid)))
        else:
            call = {"join": session.join_tournament, "leave": session.leave_tournament,
                    "start": session.start_tournament}[action]
            info = await call(tid)
            console.print(render_tournaments([info]))
            said = {"join": tr("You are registered: the server seats you at your table when a round begins."),
                    "leave": tr("You are no longer registered."),
                    "start": tr("Started: round 1 is paired.")}[action]
            console.print(Text(said, style="green"))
    except ServerRefused as exc:
        console.print(Text(tr("The server refused: {message}", message=error_text(exc.code, exc.message)),
                           style="yellow"))
