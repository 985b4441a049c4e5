"""The server's tournaments in the full-screen client (PROTOCOL.md §16): those open or
being played (with their standings), the finished ones with their final standings, and
a line to register, unregister or start one's own.  A round's table is
followed by the app itself (``tournament_table``)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from rich.console import RenderableType
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, RichLog, Static

from ..keys import TypedBox
from ..keywords import key_word

from scopa.protocol import commands as wire

from ...net import ClientSession, ServerRefused
from ...text import error_text, render_standings, render_tournaments, tr
from ..dialogs import Once, dialog_css

ACTIONS = ("join", "leave", "start")
FINISHED_SHOWN = 5
"""The newest finished tournaments whose final standings the screen shows."""


async def tournaments_shown(session: ClientSession) -> list[RenderableType]:
    """What the screen shows: the open tournaments (and the standings of those being
    played), then the finished ones and the final standings of the newest."""
    shown: list[RenderableType] = []
    open_ = await session.tournaments()
    shown.append(render_tournaments(open_, finished_below=True))
    for info in open_:
        if info.phase is wire.TournamentPhase.RUNNING:
            shown.append(render_standings(await session.standings(info.id)))
    finished = await session.tournaments(finished=True)
    shown.append(render_tournaments(finished, finished=True))
    for info in reversed(finished[-FINISHED_SHOWN:]):
        shown.append(render_standings(await session.standings(info.id)))
    return shown


def parse_action(line: str) -> tuple[str, str] | None:
    """``join c1``, ``leave c1`` or ``start c1`` (None: not one of those)."""
    words = line.split()
    if len(words) == 2 and words[0].lower() in ACTIONS:
        return words[0].lower(), words[1]
    return None


class TournamentsScreen(Once, ModalScreen[tuple[str, str] | None]):
    """The tournaments; its answer: an action typed in its line (None: back to the lobby)."""

    DEFAULT_CSS = dialog_css("TournamentsScreen", "100") + "TournamentsScreen RichLog { height: 24; }"
    BINDINGS = [Binding("escape", "cancel", key_word("back"))]

    def __init__(self, shown: Sequence[RenderableType], said: str = "") -> None:
        super().__init__()
        self.shown, self.said = list(shown), said

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(tr("Tournaments"), classes="dialog-title")
            yield RichLog(id="tournaments", wrap=True)
            yield Static(self.said, id="tournaments-said")
            yield TypedBox(placeholder=tr("join ID · leave ID · start ID"), id="tournament-action")
            yield Static(tr("Enter: do it · Esc: back"), classes="dialog-hint")

    def on_mount(self) -> None:
        log = self.query_one("#tournaments", RichLog)
        for part in self.shown:
            log.write(part)
        self.query_one("#tournament-action", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        action = parse_action(event.value)
        if action is None:
            self.query_one("#tournaments-said", Static).update(
                Text(tr("Type join, leave or start and a tournament's id, e.g. join c1."), style="yellow"))
            return
        self.close(action)

    def action_cancel(self) -> None:
        self.close(None)


async def browse_tournaments(app: App[Any], session: ClientSession) -> None:
    """The tournaments (o in the lobby), until Esc: each action typed there is carried
    out and the screen shown again with what came of it (call from a worker)."""
    said = ""
    while True:
        screen = TournamentsScreen(await tournaments_shown(session), said)
        try:
            action = await app.push_screen(screen, wait_for_dismiss=True)
        except asyncio.CancelledError:  # a round's table calls us there
            if app.screen is screen:
                app.pop_screen()
            raise
        if action is None:
            return
        verb, tid = action
        try:
            call = {"join": session.join_tournament, "leave": session.leave_tournament,
                    "start": session.start_tournament}[verb]
            info = await call(tid)
            said = tr("Tournament {id}: {phase}, {n}/{cap} entrants.", id=info.id, phase=tr(info.phase.value),
                      n=len(info.entrants), cap=info.cap)
        except ServerRefused as exc:
            said = tr("The server refused: {message}", message=error_text(exc.code, exc.message))
