"""The game just played at a table, step by step, from the server's record: what the
full-screen client shows when a person presses r at the game's end."""

from __future__ import annotations

from scopa.protocol.record import RecordMismatch, replay_steps

from ...net import ClientSession, ServerRefused, fetch_record
from ...text import DeckStyle, error_text, tr
from ..app import ScopaApp
from ..replay import ReplayScreen


async def replay_screen(app: ScopaApp, session: ClientSession, table: str, token: str | None,
                        deck: DeckStyle) -> ReplayScreen | None:
    """The game just played at ``table``, step by step, from the server's record (None,
    told in a notification, when the server cannot give it)."""
    try:
        record = await fetch_record(session, table, token)
        steps = list(replay_steps(record))
    except ServerRefused as exc:
        app.notify(error_text(exc.code, exc.message), severity="warning")
        return None
    except RecordMismatch as exc:
        app.notify(tr("The record stops making sense here: {problem}", problem=exc), severity="warning")
        return None
    return ReplayScreen(record, steps, style=deck, viewer=session.name)
