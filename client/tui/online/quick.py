"""A quick game asked for in the lobby (``p``): the wait, said with the way out of it, and
that way out (Esc, or ``p`` again): ``quick_leave`` to the server, the wait given up."""

from __future__ import annotations

from typing import Protocol

from scopa.engine import Preset, RuleSet
from scopa.protocol import Joined

from ...net import ClientSession
from ...text import tr


class QuickApp(Protocol):
    """What a quick wait needs of the network app."""

    defaults: RuleSet
    bot_takeover: bool | None

    def tell(self, text: str) -> None: ...


class QuickWait:
    """Whether this client waits for a quick game, and the waiting's start and end."""

    def __init__(self) -> None:
        self.waiting = False

    async def wait(self, app: QuickApp, session: ClientSession) -> Joined:
        """Wait for a quick game of the app's default game: the seat, once paired."""
        preset = app.defaults.preset or Preset.SCOPA
        app.bot_takeover = True  # the server's quick games let a bot take a seat left empty
        self.waiting = True
        try:
            return await session.quick_play(preset, waiting=lambda others: app.tell(
                tr("Waiting for a game of {preset}: {others} other(s) waiting… Esc (or p) stops waiting.",
                   preset=preset.value, others=others)))
        finally:
            self.waiting = False

    def stop(self, app: QuickApp, session: ClientSession | None) -> bool:
        """Stop waiting (the server told); False if nothing was waited for. The caller
        cancels the task that waits."""
        if not self.waiting:
            return False
        self.waiting = False
        if session is not None:
            session.quick_leave()
        app.tell(tr("You stopped waiting for a quick game."))
        return True
