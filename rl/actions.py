"""The discrete action encoding: every legal move of every rule set in 63 action ids.

A move is chosen in one or more *decisions*, each a single id from ``0..62``:

* ``0..39`` — a card id.  With no card chosen yet it means "play this card from my
  hand"; once a card is chosen and it has several captures, it means "take this table
  card too".  Table cards are picked in ascending card id, so each capture has exactly
  one sequence of decisions.
* ``40`` (:data:`DONE`) — "take exactly the table cards picked so far", needed only when
  the picked cards are a legal capture and also the start of a larger one.
* ``41..62`` — a Cirulla declaration (V13): ``41 + 11 * kind + wild`` where ``kind`` is
  0 for ``under10`` and 1 for ``tris`` and ``wild`` is 0 (no wild seven) or the value
  1..10 given to the 7 of Coppe.

A choice is finished as soon as only one legal move agrees with it, so a card with one
capture (or none) is a single decision.  ``docs/RL.md`` proves the bound.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeAlias

from scopa.engine import DeclarationKind, Declare, Play

NUM_CARDS = 40
DONE = 40
DECLARE_BASE = 41
DECLARATION_KINDS: tuple[DeclarationKind, ...] = (DeclarationKind.UNDER_TEN, DeclarationKind.TRIS)
WILD_SLOTS = 11  # no wild seven, or a wild value 1..10
NUM_ACTIONS = DECLARE_BASE + len(DECLARATION_KINDS) * WILD_SLOTS  # 63

Move: TypeAlias = Play | Declare


class IllegalActionError(ValueError):
    """An action id that is out of range or masked out at this decision."""


def declaration_action(d: Declare) -> int:
    """The action id of a Cirulla declaration."""
    wild = 0 if d.wild is None else d.wild
    if not 0 <= wild <= 10:
        raise ValueError(f"a wild seven is given a value 1..10, not {d.wild}")
    return DECLARE_BASE + DECLARATION_KINDS.index(d.kind) * WILD_SLOTS + wild


def declaration_of(action: int) -> Declare:
    """The declaration an action id 41..62 stands for."""
    if not DECLARE_BASE <= action < NUM_ACTIONS:
        raise ValueError(f"{action} is not a declaration id ({DECLARE_BASE}..{NUM_ACTIONS - 1})")
    kind, wild = divmod(action - DECLARE_BASE, WILD_SLOTS)
    return Declare(DECLARATION_KINDS[kind], wild or None)


def _prefix_of(picked: int, capture: int) -> bool:
    """Whether ``picked`` is the lowest cards of ``capture`` (ascending card order)."""
    if picked & ~capture:
        return False
    below = (1 << picked.bit_length()) - 1  # every card id up to the highest picked
    return capture & below == picked


@dataclass(frozen=True, slots=True)
class Selection:
    """A move being chosen by the seat to move: the card (if chosen) and the table cards
    picked so far, against that seat's legal moves."""

    legal: tuple[Move, ...]
    card: int | None = None
    picked: int = 0

    @classmethod
    def start(cls, legal: Sequence[Move]) -> Selection:
        if not legal:
            raise ValueError("no legal move to choose from")
        return cls(tuple(legal))

    def candidates(self) -> list[Play]:
        """The legal plays that agree with the choice so far."""
        if self.card is None:
            return [m for m in self.legal if isinstance(m, Play)]
        return [
            m for m in self.legal
            if isinstance(m, Play) and m.card == self.card and _prefix_of(self.picked, m.capture)
        ]  # fmt: skip

    def allowed(self) -> list[int]:
        """The action ids allowed at this decision, ascending."""
        out: set[int] = set()
        if self.card is None:
            for m in self.legal:
                out.add(m.card if isinstance(m, Play) else declaration_action(m))
            return sorted(out)
        for m in self.candidates():
            rest = m.capture & ~self.picked
            if rest:
                out.add((rest & -rest).bit_length() - 1)
            else:
                out.add(DONE)
        return sorted(out)

    def mask(self) -> list[int]:
        """``allowed()`` as a 0/1 list of length :data:`NUM_ACTIONS`."""
        m = [0] * NUM_ACTIONS
        for a in self.allowed():
            m[a] = 1
        return m

    def advance(self, action: int) -> Selection | Move:
        """Take one decision: the finished move, or the selection that follows."""
        try:
            a = int(action)
        except (TypeError, ValueError):
            raise IllegalActionError(f"an action is an integer id, not {action!r}") from None
        if a != action or a not in self.allowed():
            raise IllegalActionError(
                f"action {action} is not allowed here; allowed: {self.allowed()}"
            )
        if a >= DECLARE_BASE:
            return declaration_of(a)
        if a == DONE:
            return Play(self.card, self.picked)  # type: ignore[arg-type]
        nxt = Selection(self.legal, a, 0) if self.card is None else Selection(self.legal, self.card, self.picked | 1 << a)
        left = nxt.candidates()
        if len(left) == 1:
            return left[0]
        return nxt


def encode_move(move: Move, legal: Sequence[Move]) -> list[int]:
    """The decisions (action ids) that choose ``move`` among ``legal``."""
    if move not in legal:
        raise IllegalActionError(f"{move} is not among the legal moves")
    if isinstance(move, Declare):
        return [declaration_action(move)]
    out = [move.card]
    sel = Selection(tuple(legal), move.card, 0)
    while len(sel.candidates()) > 1:
        rest = move.capture & ~sel.picked
        if not rest:
            out.append(DONE)
            break
        low = (rest & -rest).bit_length() - 1
        out.append(low)
        sel = Selection(sel.legal, move.card, sel.picked | 1 << low)
    return out


def decode_actions(actions: Sequence[int], legal: Sequence[Move]) -> Move:
    """The move a sequence of decisions chooses; every id must be allowed when taken."""
    sel: Selection | Move = Selection.start(legal)
    for i, a in enumerate(actions):
        if not isinstance(sel, Selection):
            raise IllegalActionError(f"the move was chosen after {i} decisions; {len(actions)} given")
        sel = sel.advance(a)
    if isinstance(sel, Selection):
        raise IllegalActionError(f"{len(actions)} decisions do not finish a move")
    return sel
