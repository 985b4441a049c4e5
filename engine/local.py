"""A local game: the game master driven in-process, its seats played by
:class:`~scopa.engine.player.Player` objects (bots, a person at this terminal)."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Awaitable, Callable, Sequence

from .actions import Action
from .effects import Announce, Ask, Effect, GameOver, GameRecord, Journal, Refused
from .errors import IllegalMoveError
from .events import Event
from .master import GameMaster
from .player import Player
from .rules import RuleSet
from .state import GameState

Observer = Callable[[Event], Awaitable[None]]


@dataclass(slots=True)
class LocalGame:
    """One game between ``players`` (one per seat) from a seed: a loop that carries out
    what its :class:`GameMaster` says, asking each player with its own view."""

    rules: RuleSet
    players: Sequence[Player]
    seed: int
    observers: list[Observer] = field(default_factory=list)  # told every public event (spectators, logs)
    journal: Callable[[Action], Awaitable[None] | None] | None = None
    """Called with each action once it is applied and before anyone is told of it; if it
    returns an awaitable, that is awaited before the action is announced."""
    master: GameMaster = field(init=False)
    _journaled: int = field(init=False, default=0, repr=False)  # actions whose Journal was carried out

    def __post_init__(self) -> None:
        if len(self.players) != self.rules.players:
            raise ValueError(f"{self.rules.players} players needed, {len(self.players)} given")
        names = tuple(getattr(p, "name", f"seat {i}") for i, p in enumerate(self.players))
        self.master = GameMaster(self.rules, self.seed, names)

    @property
    def state(self) -> GameState:
        """The game as of the effects carried out so far (an observer told of an event
        sees the state it was announced in, even if the game master is a deal further
        on); the players see views, never the state."""
        return self.master.state_after(self._journaled)

    @property
    def actions(self) -> list[Action]:
        return self.master.actions

    @property
    def first_dealer(self) -> int:
        return self.master.first_dealer

    def restore(self, actions: Sequence[Action]) -> None:
        """Continue a journaled game: see :meth:`GameMaster.restore`."""
        self.master.restore(actions)
        self._journaled = len(actions)

    def record(self) -> GameRecord:
        return self.master.record()

    async def run(self) -> GameRecord:
        """Play the game (from its start, or from where :meth:`restore` left it) to its end."""
        effects: deque[Effect] = deque(self.master.start())
        while effects:
            effect = effects.popleft()
            if isinstance(effect, Ask):
                answer = await self.players[effect.seat].choose(effect.view, effect.legal)
                effects.extend(self.master.receive(effect.seat, answer))
            elif isinstance(effect, Announce):
                await self._announce(effect)
            elif isinstance(effect, Journal):
                if self.journal is not None:
                    durable = self.journal(effect.action)
                    if durable is not None:
                        await durable
                self._journaled = effect.index + 1
            elif isinstance(effect, Refused):
                error = effect.error or IllegalMoveError(f"{effect.answer!r} is not among the legal moves")
                await self.players[effect.seat].rejected(error)
            elif isinstance(effect, GameOver):
                return effect.record
        raise AssertionError("the game master stopped before the game was over")

    async def _announce(self, effect: Announce) -> None:
        if effect.to is not None:
            await self.players[effect.to].notify(effect.event)
            return
        for p in self.players:
            await p.notify(effect.event)
        for obs in self.observers:
            await obs(effect.event)


async def play_local(rules: RuleSet, players: Sequence[Player], seed: int) -> GameRecord:
    """A local game with in-process players, run to the end."""
    return await LocalGame(rules, players, seed).run()
