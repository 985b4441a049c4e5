"""A replayed game in words, in the terminal's language: what each step of a record did
(a deal, a play, a declaration), where the viewer stands in the game, the round's score
and the result.  The steps are facts (:class:`scopa.protocol.record.Step`); the words are
the client's."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from scopa.engine import Declare, Forced, GameState, Phase, RoundScore, cards_in
from scopa.protocol.record import PlayerKind, Record, RecordPlay, RecordPlayer, Step, replay_steps
from scopa.protocol.record.document import action_from_record

from .games import end_reason_text, rules_line, winner_first
from .catalog import player_name, strategy_text
from .i18n import tr
from .notation import DeckStyle, label
from .rulebook import category_names, declaration_names

YOU_NAMES = frozenset({"You", "Tu"})
"""The names ``scopa local`` gives its one person (in English and in Italian)."""


def shown_names(record: Record) -> list[str]:
    """The seats' names as the clients show them (a server's bot in words: "Bot 1 (medio)")."""
    return [player_name(n) for n in record.names()]


def viewer_seat(record: Record, name: str | None = None) -> int | None:
    """The seat of the person watching the replay, spoken to as "you": the seat named
    ``name`` (the player's name on the server), else the one seat a local game named
    "You"; None when no seat is theirs (a game of others, or of several people)."""
    names = record.names()
    mine = [i for i, n in enumerate(names) if n == name] if name else []
    if not mine:
        mine = [i for i, n in enumerate(names) if n in YOU_NAMES]
    return mine[0] if len(mine) == 1 else None


def step_text(step: Step, record: Record, style: DeckStyle = DeckStyle.ITALIAN, me: int | None = None) -> str:
    """What ``step`` did: the deal of its round, or its action; said to ``me``'s seat as
    "you" ("You play 4 Den" / "Giochi 4 Den")."""
    names = shown_names(record)
    if step.action is None:
        return deal_text(step.state, record.rounds[step.round_index].number, names, style, me)
    who = names[step.action.seat]
    bot = isinstance(step.action, RecordPlay) and step.action.bot  # a bot's play for the seat's person
    you = step.action.seat == me and not bot
    if bot:
        who = tr("{name} (bot)", name=who)
    move = action_from_record(step.action)
    if isinstance(move, Declare):
        what = declaration_names()[move.kind]
        wild = " " + tr("(7 of Coppe as {n})", n=move.wild) if move.wild is not None else ""
        said = tr("You declare {what}", what=what) if you else tr("{who} declares {what}", who=who, what=what)
        return said + wild
    card = label(move.card, style)
    if not move.capture:
        text = tr("You lay {card} on the table", card=card) if you else \
            tr("{who} lays {card} on the table", who=who, card=card)
    else:
        cards = _cards(move.capture, style)
        text = tr("You play {card}, take {cards}", card=card, cards=cards) if you else \
            tr("{who} plays {card}, takes {cards}", who=who, card=card, cards=cards)
    timed_out = isinstance(step.action, RecordPlay) and step.action.forced is Forced.TIMEOUT
    return text + (" — " + tr("scopa!") if step.scopa else "") + (" — ⏱ " + tr("time ran out") if timed_out else "")


def deal_text(state: GameState, number: int, names: Sequence[str], style: DeckStyle = DeckStyle.ITALIAN,
              me: int | None = None) -> str:
    """What a deal put on the table; with Cirulla's dealer's bonus (V13), the cards the
    dealer's side took and its scope.  ``me``: the seat spoken to as "you"."""
    dealer = names[state.dealer]
    you = state.dealer == me
    if state.dealer_bonus:
        taken = _cards(state.piles[state.side[state.dealer]], style)
        scope = scope_text(state.dealer_bonus)
        if you:
            return tr("Round {n}: you deal {cards} on the table, which add up to {total}: your side takes them, "
                      "{scope} (V13)", n=number, cards=taken, total=15 * state.dealer_bonus, scope=scope)
        return tr("Round {n}: {dealer} deals {cards} on the table, which add up to {total}: the dealer's side "
                  "takes them, {scope} (V13)", n=number, dealer=dealer, cards=taken,
                  total=15 * state.dealer_bonus, scope=scope)
    table = _cards(state.table, style) if state.table else tr("nothing")
    if you:
        return tr("Round {n}: you deal; on the table {cards}", n=number, cards=table)
    return tr("Round {n}: {dealer} deals; on the table {cards}", n=number, dealer=dealer, cards=table)


def scope_text(n: int) -> str:
    """``1 scopa``, ``2 scope``."""
    return tr("1 scopa") if n == 1 else tr("{n} scope", n=n)


def _cards(mask: int, style: DeckStyle) -> str:
    """Cards in the deck's notation, a comma between two (``4 Bas, 5 Spa``)."""
    return ", ".join(label(c, style) for c in cards_in(mask))


def position_text(steps: Sequence[Step], index: int, record: Record, style: DeckStyle = DeckStyle.ITALIAN,
                  me: int | None = None, places: int | None = None) -> str:
    """Where the viewer stands: "Round 2/5 · action 3/36 · step 40/181 — what it did"
    (``places``: the steps counted, the game's end after the last one too)."""
    step = steps[index]
    rnd = record.rounds[step.round_index]
    move = tr("deal") if step.action_index is None else tr(
        "action {i}/{n}", i=step.action_index + 1, n=len(rnd.actions))
    return tr("Round {n}/{rounds} · {move} · step {i}/{steps} — {text}", n=rnd.number,
              rounds=steps[-1].round_index + 1, move=move, i=index + 1, steps=places or len(steps),
              text=step_text(step, record, style, me))


def score_lines(score: RoundScore, record: Record) -> list[str]:
    """A round's score: each side's points and where they came from."""
    names = shown_names(record)
    lines = []
    for side, seats in enumerate(record.engine_rules.seats_by_side()):
        bd = score.breakdown[side]
        detail = ", ".join(f"{category_names().get(k, str(k))} {v}" for k, v in bd.items()) or tr("nothing")
        lines.append(f"{' & '.join(names[i] for i in seats)}: {sum(bd.values())} ({detail})")
    return lines


def result_text(record: Record, me: int | None = None) -> str:
    """How the recorded game ended: who won, the totals and why (to ``me``'s seat: "you
    won", "your side won")."""
    result = record.result
    totals = "–".join(str(t) for t in result.totals)
    reason = end_reason_text(result.reason)
    if result.winner is None:
        return tr("Game over: {reason}, {totals}", reason=reason, totals=totals)
    names = shown_names(record)
    seats = record.engine_rules.seats_by_side()[result.winner]
    who = " & ".join(names[i] for i in seats)
    totals = "–".join(str(result.totals[side]) for side in winner_first(result.winner, len(result.totals)))
    if me is not None and me in seats:
        won = tr("Game over: you won {totals} ({reason})") if len(seats) == 1 else \
            tr("Game over: your side won {totals} ({reason})")
        return won.format(totals=totals, reason=reason)
    if len(seats) > 1:  # a side of two: "vincono Anna & Luca" in Italian
        return tr("Game over: {both} won {totals} ({reason})", both=who, totals=totals, reason=reason)
    return tr("Game over: {who} won {totals} ({reason})", who=who, totals=totals, reason=reason)


def plain_lines(record: Record, style: DeckStyle = DeckStyle.ITALIAN, me: int | None = None) -> Iterator[str]:
    """The record as a log in the terminal's language (``scopa replay --plain``), one line
    at a time: who played, each deal, each action, the hands when they are dealt, each
    round's score and the result.  Stops with :class:`RecordMismatch` where the record
    stops making sense (after the lines before it)."""
    names = shown_names(record)
    rules = rules_line(record.engine_rules)
    yield tr("Game {game}: {rules}; seed {seed}", game=record.game, rules=rules, seed=record.seed) \
        if record.game else tr("Game: {rules}; seed {seed}", rules=rules, seed=record.seed)
    if record.played_at is not None:
        yield tr("Played: {when}", when=record.played_at.isoformat(timespec="seconds"))
    yield tr("Players: {players}", players=", ".join(_player_text(p) for p in record.players))
    sides = [" & ".join(names[i] for i in seats) for seats in record.engine_rules.seats_by_side()]
    hands_before: list[int] = []
    for step in replay_steps(record):
        s = step.state
        yield from ("", step_text(step, record, style, me)) if step.action is None else \
            ("  " + step_text(step, record, style, me),)
        if s.phase is Phase.PLAY and (step.action_index is None or any(
                h & ~old for h, old in zip(s.hands, hands_before))):
            hands = " | ".join(f"{names[i]}: {_cards(h, style) or '-'}" for i, h in enumerate(s.hands))
            yield "  " + tr("hands: {hands}", hands=hands)
        hands_before = list(s.hands)
        if step.score is not None:
            yield "  " + tr("round score: {sides}", sides="; ".join(score_lines(step.score, record)))
            totals = ", ".join(f"{sides[i]} {t}" for i, t in enumerate(s.totals))
            yield "  " + tr("totals: {totals}", totals=totals)
    yield result_text(record, me)


def _player_text(player: RecordPlayer) -> str:
    """A seat of the record: ``ada (person)``, ``Greedy 1 (bot: greedy)``."""
    if player.kind is PlayerKind.BOT:
        shown = player_name(player.name)
        local = re.fullmatch(r"Bot (\d+) \(([\w-]+)\)", player.name)  # a local game's "Bot 1 (greedy)"
        if local is not None:
            shown = tr("Bot {n} ({level})", n=local[1], level=strategy_text(local[2]))
        if shown != player.name or local is not None:  # its name says it is a bot already: one label
            return shown
        return tr("{name} (bot: {strategy})", name=player.name, strategy=player.strategy) if player.strategy \
            else tr("{name} (bot)", name=player.name)
    if player.taken_over:
        return tr("{name} (person, then a bot)", name=player.name)
    return tr("{name} (person)", name=player.name)
