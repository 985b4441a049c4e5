"""Watching a table in the plain terminal client (``scopa watch --plain``, the lobby's
``w``): the game told as the plain player is told it (:func:`~scopa.client.text.event_line`,
the round box), and the table's other news as one line each (:func:`describe`), until it ends."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from rich.console import Console
from rich.text import Text

from scopa.protocol import Command, ErrorCode, Snapshot
from scopa.protocol import commands as wire
from scopa.protocol.convert import parse_card_strs, rules_from_wire

from ..game import GameTranslator, SeatTakenByBot, SeatWentAway, notice_from_wire
from ..net import ClientSession, ServerRefused, game_over_at, server_address
from ..text import DeckStyle, apply_public, cards_text, game_over_text, notice_line, player_name, refusal_text
from ..text import abandoned_words, rules_line, side_name, tr, word_text
from .human import TerminalPlayer

GAME = (wire.GameStart, wire.RoundStart, wire.CardPlayed, wire.DeclarationMade, wire.RoundEnd, wire.GameEnd)
"""The game's own events: told through the game translator, in the plain player's words."""


def describe(command: Command, names: Sequence[str], away: set[int]) -> str | None:
    """One line about a table's news that is not a play of the game (who is away, the
    chat, a seat's notice), for a spectator; ``away``: the seats away now, kept up to date
    here (a bot taking a seat that was not away: its person left, as the players are told)."""
    body = command.body

    def who(seat: int) -> str:
        return names[seat] if seat < len(names) else tr("seat {n}", n=seat)

    if isinstance(body, wire.TableUpdate) and body.table.away:
        return tr("Waiting for {who} to come back", who=", ".join(who(s) for s in body.table.away))
    if isinstance(body, wire.ChatMessage):
        return f"{body.author}: {body.text}"
    notice = notice_from_wire(body)
    if notice is None:
        return None
    if isinstance(notice, SeatTakenByBot) and notice.seat not in away:
        notice = replace(notice, left=True)
    if isinstance(notice, SeatWentAway):
        away.add(notice.seat)
    else:
        away.discard(notice.seat)
    return notice_line(notice).plain


def game_now(snap: Snapshot, names: Sequence[str], style: DeckStyle) -> list[Text]:
    """A game under way as a spectator finds it: the round, the table, the cards in each
    hand and the totals, in the plain player's words."""
    p = snap.public
    if p is None:
        return []
    teams = len(p.totals) == 2 and len(names) > 2
    head = [tr("Round {n}", n=p.round), tr("dealer: {name}", name=names[p.dealer] if p.dealer < len(names) else "-"),
            tr("stock: {n}", n=p.stock)]
    return [Text("  ".join(head), style="bold"),
            Text(tr("Table:") + " ") + cards_text(parse_card_strs(p.table), style),
            Text(tr("Cards in hand —") + " " + ", ".join(f"{n}: {c}" for n, c in zip(names, p.hand_sizes)), style="dim"),
            Text(tr("Totals:") + " " + ", ".join(f"{side_name(i, names, teams)} {t}" for i, t in enumerate(p.totals)))]


async def watch_table(session: ClientSession, console: Console, table_id: str, invite: str | None = None,
                      style: DeckStyle = DeckStyle.ITALIAN) -> bool:
    """Watch a table until its game ends (public events only); a private one with its
    ``invite``.  False: there was no such table to watch (a finished game's is said so)."""
    try:
        snap = await session.watch_table(table_id, invite)
    except ServerRefused as exc:
        over, summary = (False, None) if invite or exc.code is not ErrorCode.NO_SUCH_TABLE else \
            await game_over_at(session, table_id)
        console.print(Text(game_over_text(table_id, summary, server_address(session)) if over else
                           refusal_text(exc.code, exc.message, None if invite else table_id, invite is not None),
                           style="yellow"))
        return over
    names = [s.name for s in sorted(snap.seats, key=lambda s: s.seat)] or [n or "-" for n in snap.table.seats]
    console.print(Text(tr("Watching table {table}: {rules}", table=table_id, rules=rules_line(rules_from_wire(snap.table.rules)))))
    spectator = TerminalPlayer("", console, style, autoplay=False)  # no seat: "" is nobody's name
    translator = GameTranslator(spectator, -1, table_id)
    translator.rules = rules_from_wire(snap.table.rules)
    translator.names = tuple(names)
    spectator.names = tuple(player_name(n) for n in names)
    apply_public(spectator.board, snap)
    if snap.public is not None:
        translator.started = True  # no game_start comes: the game is under way
        for line in game_now(snap, spectator.names, style):
            console.print(line)
    for said in snap.chat:  # what was said at the table before we came (a rematch's: at the finished game too)
        console.print(Text(f"{said.author}: {said.text}"))

    away = set(snap.table.away)

    async def show(command: Command) -> None:
        nonlocal names
        if isinstance(command.body, wire.GameStart):
            names = [s.name for s in sorted(command.body.seats, key=lambda s: s.seat)]
        body = command.body
        if isinstance(body, wire.GameEnd) and body.reason == "abandoned":  # who ended it, not a score of zeros
            console.print(Text(abandoned_words([player_name(n) for n in names], body.leaver, body.totals),
                               style="bold yellow"))
            return
        if isinstance(body, GAME):
            await translator.handle(command)
            return
        line = describe(command, names, away)
        if line is not None:
            console.print(Text(line))

    left = await session.watch(table_id, show)
    console.print(Text(tr("No longer watching table {table} ({reason}).", table=table_id, reason=word_text(left.reason)),
                       style="dim"))
    return True
