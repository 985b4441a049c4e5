"""How a table's plays came about (:class:`~scopa.engine.PlayMark`: a scopa, a play the
server made when a seat's time ran out, a bot's play for a person), kept by action index
as the journal keeps them: a snapshot lists the round's plays with them, and after a
restart the seats a bot played for their person say from which play to which, as before."""

from __future__ import annotations

from typing import Callable, Container, Sequence, TypeVar

from scopa.engine import Action, Deal, GameState, Play, PlayMark, RuleSet
from scopa.engine.effects import Journal
from scopa.protocol import commands as wire

from .seats import Seat

V = TypeVar("V", bound=wire.PublicView)


class PlayMarks:
    """The marks of one game's plays, by action index (plays with no mark are left out)."""

    __slots__ = ("by_action",)

    def __init__(self) -> None:
        self.by_action: dict[int, PlayMark] = {}

    def journaled(self, effect: Journal, bot: bool, seat: Seat | None,
                  at: Callable[[], wire.PlayAt]) -> PlayMark | None:
        """A play is journaled (``bot``: a bot made it for the seat's person; ``at``: where
        it is in the game, asked only for a bot's span): its mark, kept (None: a
        declaration or a deal, or no mark).  A
        seat a bot took over names the bot's first play as where the bot began, and its
        person's first play after taking the seat back as where the bot stopped (as
        :func:`restore_spans` finds them in the journal)."""
        if not isinstance(effect.action, Play):
            return None
        if seat is not None:
            if bot and not seat.bot_played:
                seat.bot_from, seat.bot_played = at(), True
            elif not bot and seat.bot_until is not None and not seat.back_played:
                seat.bot_until, seat.back_played = at(), True
        mark = PlayMark(effect.forced, bot, effect.scopa)
        if mark == PlayMark():
            return None
        self.by_action[effect.index] = mark
        return mark

    def view(self, actions: Sequence[Action], told: int, view: V) -> V:
        """``view`` (of the game after its first ``told`` actions) with its round's plays marked."""
        if not self.by_action or not view.round_plays:
            return view
        return view.model_copy(update={"round_plays": self.round_plays(actions, told, view.round_plays)})

    def round_plays(self, actions: Sequence[Action], told: int, plays: list[wire.PlayLogEntry]) -> list[wire.PlayLogEntry]:
        """The round's ``plays`` (the last plays among the first ``told`` actions) with their marks."""
        indices: list[int] = []
        i = told - 1
        while len(indices) < len(plays) and i >= 0:
            if isinstance(actions[i], Play):
                indices.append(i)
            i -= 1
        indices.reverse()
        return [_marked(p, self.by_action.get(i)) for p, i in zip(plays, indices)]


def _marked(play: wire.PlayLogEntry, mark: PlayMark | None) -> wire.PlayLogEntry:
    if mark is None:
        return play
    forced = wire.ForcedBy(mark.forced.value) if mark.forced is not None else None
    return play.model_copy(update={"scopa": mark.scopa, "forced": forced, "bot": mark.bot})


def restore_spans(rules: RuleSet, first_dealer: int, actions: Sequence[Action], marks: dict[int, PlayMark],
                  seats: Sequence[Seat | None], taken_over: Container[int]) -> None:
    """The seats of a journaled game a bot played for their person: the bot's first play
    of the last time it took the seat over, and the person's first play after taking it
    back (the next play of the game when none was made yet), as the table said before."""
    state = GameState.new(rules, first_dealer)
    starts: dict[int, wire.PlayAt] = {}
    ends: dict[int, wire.PlayAt] = {}
    for i, action in enumerate(actions):
        if isinstance(action, Play):
            seat, at = state.to_move, wire.PlayAt(round=state.round_no, play=len(state.round_plays))
            mark = marks.get(i)
            if mark is not None and mark.bot:
                if seat not in starts or seat in ends:
                    starts[seat] = at
                    ends.pop(seat, None)
            elif seat in starts and seat not in ends:
                ends[seat] = at
        state.apply(action, None if isinstance(action, Deal) else state.to_move)
    now = wire.PlayAt(round=state.round_no, play=len(state.round_plays))
    for i, s in enumerate(seats):
        if s is None:
            continue
        if i in taken_over:
            s.bot_played = i in starts and i not in ends
            s.bot_from, s.bot_until = starts[i] if s.bot_played else now, None
        elif i in starts:
            s.bot_from, s.bot_until, s.back_played = starts[i], ends.get(i, now), i in ends
