"""Watching a table in the plain terminal client (``scopa watch --plain``, the lobby's
``w``): each public event of the game as one line (:func:`describe`) until it ends."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.text import Text

from scopa.protocol import Command, ErrorCode
from scopa.protocol import commands as wire
from scopa.protocol.convert import rules_from_wire

from ..game import notice_from_wire
from ..net import ClientSession, ServerRefused, game_over_at
from ..text import game_over_text, notice_line, refusal_text, rules_line, tr, word_text


def describe(command: Command, names: Sequence[str]) -> str | None:
    """One line about a public table command, for a spectator."""
    body = command.body

    def who(seat: int) -> str:
        return names[seat] if seat < len(names) else tr("seat {n}", n=seat)

    if isinstance(body, wire.GameStart):
        return tr("Game starts: ") + ", ".join(tr("{name} (side {side})", name=s.name, side=s.side)
                                              for s in body.seats)
    if isinstance(body, wire.RoundStart):
        return tr("Round {n}, dealer {who}; on the table: {cards}", n=body.round, who=who(body.dealer),
                  cards=" ".join(body.table) or "-")
    if isinstance(body, wire.CardPlayed):
        took = " " + tr("takes {cards}", cards=" ".join(body.captured)) if body.captured else " " + tr("(laid down)")
        forced = " " + tr("(time ran out: the server played for them)") if body.forced == "timeout" else \
            " " + tr("[played for them: {why}]", why=word_text(body.forced)) if body.forced else ""
        extra = (" — scopa!" if body.scopa else "") + forced
        return tr("{who} plays {card}", who=who(body.seat), card=body.card) + took + extra
    if isinstance(body, wire.DeclarationMade):
        return tr("{who} declares {what} ({cards}): {n} points", who=who(body.seat), what=body.kind.value,
                  cards=" ".join(body.hand), n=body.points)
    if isinstance(body, wire.RoundEnd):
        return tr("Round {n} over: points {points}, totals {totals}", n=body.round, points=body.points,
                  totals=body.totals)
    if isinstance(body, wire.GameEnd):
        won = tr("no winner") if body.winner is None else tr("side {n} wins", n=body.winner)
        return tr("Game over ({reason}): {won}, totals {totals}", reason=word_text(body.reason), won=won,
                  totals=body.totals)
    if isinstance(body, wire.TableUpdate) and body.table.away:
        return tr("Waiting for {who} to come back", who=", ".join(who(s) for s in body.table.away))
    if isinstance(body, wire.ChatMessage):
        return f"{body.author}: {body.text}"
    notice = notice_from_wire(body)
    if notice is not None:
        return notice_line(notice).plain
    return None


async def watch_table(session: ClientSession, console: Console, table_id: str, invite: str | None = None) -> bool:
    """Watch a table until its game ends (public events only); a private one with its
    ``invite``.  False: there was no such table to watch (a finished game's is said so)."""
    try:
        snap = await session.watch_table(table_id, invite)
    except ServerRefused as exc:
        over, summary = (False, None) if invite or exc.code is not ErrorCode.NO_SUCH_TABLE else \
            await game_over_at(session, table_id)
        console.print(Text(game_over_text(table_id, summary) if over else
                           refusal_text(exc.code, exc.message, None if invite else table_id, invite is not None),
                           style="yellow"))
        return over
    names = [s.name for s in sorted(snap.seats, key=lambda s: s.seat)] or [n or "-" for n in snap.table.seats]
    console.print(Text(tr("Watching table {table}: {rules}", table=table_id, rules=rules_line(rules_from_wire(snap.table.rules)))))
    if snap.public is not None:
        p = snap.public
        console.print(Text(tr("Round {n}, {who} to play; table: {cards}; cards in hands {sizes}; stock {stock}; totals {totals}",
                              n=p.round, who=names[p.turn] if p.turn < len(names) else p.turn,
                              cards=" ".join(p.table) or "-", sizes=p.hand_sizes, stock=p.stock, totals=p.totals)))

    def show(command: Command) -> None:
        nonlocal names
        if isinstance(command.body, wire.GameStart):
            names = [s.name for s in sorted(command.body.seats, key=lambda s: s.seat)]
        line = describe(command, names)
        if line is not None:
            console.print(Text(line))

    left = await session.watch(table_id, show)
    console.print(Text(tr("No longer watching table {table} ({reason}).", table=table_id, reason=word_text(left.reason)),
                       style="dim"))
    return True
