"""The seat a plain ``scopa play`` keeps while its game is on, in the same store as the
full-screen client's (:class:`~scopa.client.net.TokenStore`, by server and name): a client
stopped mid-game (Ctrl+C, a closed terminal) and started again offers to go back to that
seat (:func:`come_back`), and goes on with the same game."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from ..net import ClientSession, SavedSeat, ServerRefused, TokenStore, give_up_seat
from ..text import error_text, gave_up_text, tr
from .prompt import LineReader

NO = frozenset({"n", "no"})


class SeatKeeper:
    """The saved seat of one name on one server."""

    def __init__(self, store: TokenStore, server: str, name: str) -> None:
        self.store, self.server, self.name = store, server, name

    def load(self) -> SavedSeat | None:
        return self.store.load(self.server, self.name)

    def keep(self, session: ClientSession) -> None:
        """Keep the seat ``session`` sits at (its token), to come back to it."""
        if session.token is not None and session.table_id is not None and session.seat is not None:
            self.store.save(SavedSeat(server=self.server, name=self.name, table=session.table_id, seat=session.seat,
                                      token=session.token))

    def forget(self) -> None:
        """The game is over, or left: nothing to come back to."""
        self.store.forget(self.server, self.name)


async def come_back(keeper: SeatKeeper, reader: LineReader, host: str, port: int,
                    link: dict[str, Any]) -> ClientSession | None:
    """A session back at the saved seat (:func:`back_line` says so), if there is one and
    the person wants it (asked; Enter is yes); None otherwise, the reason said (a game over
    or gone is forgotten).
    ``link``: ClientSession.connect's tls, trust and others."""
    saved = keeper.load()
    if saved is None:
        return None
    reader.say(Text(tr("You have an unfinished game at table {table} on {server} (seat {seat}, as {name}).",
                       table=saved.table, server=keeper.server, seat=saved.seat + 1, name=saved.name), style="bold"))
    if (await reader.ask(tr("Go back to it? (y/n) [y]: "))).strip().lower() in NO:
        # given up for real: the server lets a bot play on or ends the game, and tells the others
        said = gave_up_text(saved.table, await give_up_seat(host, port, saved.name, saved.token, **link))
        if said is not None:
            reader.say(Text(said, style="bold"))
        keeper.forget()
        return None
    try:
        session = await ClientSession.resume_seat(host, port, saved.name, saved.token, **link)
    except ServerRefused as exc:
        reader.say(Text(tr("That game is over or gone ({reason}).", reason=error_text(exc.code, exc.message)),
                        style="yellow"))
        keeper.forget()
        return None
    return session


def back_line(session: ClientSession) -> Text:
    """What a session back at its saved seat says: where, and that the game goes on."""
    return Text(tr("You are back at table {table}, seat {seat}: the game goes on.", table=session.table_id,
                   seat=(session.seat or 0) + 1), style="bold green")


def said_before(session: ClientSession) -> list[Text]:
    """What was said at the table before a session came back to its seat or sat at it (the
    server's last lines, ``joined.chat``: at a rematch, the finished game's), as the plain
    client shows chat; nothing if none."""
    chat = session.joined.chat if session.joined is not None else []
    if not chat:
        return []
    return [Text(tr("Said at the table so far:"), style="dim"), *(
        Text(m.author.split(":", 1)[-1] + ": ", style="bold cyan") + Text(m.text) for m in chat)]
