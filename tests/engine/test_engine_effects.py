"""The game master as a state machine (R7): its three inputs return effects, in order,
and never await; players are asked with views; refusals are counted by the master."""

from __future__ import annotations

import asyncio

import pytest

from scopa.engine import (
    MAX_REFUSALS,
    Announce,
    Ask,
    Deal,
    DeclarationKind,
    Declare,
    Forced,
    GameMaster,
    GameOver,
    GameStarted,
    HandDealt,
    Journal,
    Play,
    PlayMark,
    Played,
    Refused,
    RoundStarted,
    RuleSet,
    View,
    replay,
)

pytestmark = pytest.mark.unit


def _started(seed: int = 6) -> tuple[GameMaster, list]:
    master = GameMaster(RuleSet.build(), seed, ("ada", "bob"))
    return master, master.start()


def _illegal(ask: Ask) -> Play:
    """A play of a card that is not in the asked seat's hand."""
    mine = {a.card for a in ask.legal if isinstance(a, Play)}
    card = next(c for c in range(40) if c not in mine)
    return Play(card, 0)


def test_start_journals_the_deal_before_announcing_it_and_asks_with_a_view() -> None:
    master, effects = _started()
    kinds = [type(e).__name__ for e in effects]
    assert kinds[:3] == ["Announce", "Journal", "Announce"]
    assert isinstance(effects[0].event, GameStarted) and effects[0].event.names == ("ada", "bob")
    assert isinstance(effects[1].action, Deal) and effects[1].index == 0
    assert isinstance(effects[2].event, RoundStarted) and effects[2].event.stock_left == len(master.state.stock)
    hands = [e for e in effects if isinstance(e, Announce) and isinstance(e.event, HandDealt)]
    assert [(h.to, h.event.seat) for h in hands] == [(0, 0), (1, 1)]  # each hand to its own seat only
    ask = effects[-1]
    assert isinstance(ask, Ask) and ask.seat == master.state.to_move and master.asking is ask
    assert list(ask.legal) == master.state.legal_actions()
    assert isinstance(ask.view, View) and ask.view.seat == ask.seat and len(ask.view.hand) == 3


def test_an_answer_is_journaled_before_it_is_announced_and_the_next_seat_is_asked() -> None:
    master, effects = _started()
    ask = effects[-1]
    out = master.receive(ask.seat, ask.legal[0])
    assert isinstance(out[0], Journal) and out[0].action == ask.legal[0] and out[0].index == 1
    assert isinstance(out[1], Announce) and isinstance(out[1].event, Played) and not out[1].event.forced
    assert isinstance(out[-1], Ask) and out[-1].seat != ask.seat and out[-1].turn == 2
    with pytest.raises(ValueError):
        master.receive(ask.seat, ask.legal[0])  # no question of that seat waits any more


def test_refusals_are_counted_once_and_the_last_one_forces_the_default_move() -> None:
    master, effects = _started()
    ask = effects[-1]
    wrong = _illegal(ask)
    default = master.default_play()
    for n in range(1, MAX_REFUSALS):
        out = master.receive(ask.seat, wrong)
        assert out == [Refused(ask.seat, wrong, out[0].error, n), ask]  # the same question again
        assert out[0].error is not None  # the engine says why
    out = master.receive(ask.seat, None)  # an answer that was no action at all counts too
    assert isinstance(out[0], Refused) and out[0].refusals == MAX_REFUSALS and out[0].error is None
    assert isinstance(out[1], Journal) and out[1].action == default
    assert (out[1].seat, out[1].forced) == (ask.seat, Forced.REFUSED)  # journaled with why the server played it
    played = out[2].event
    assert isinstance(played, Played) and played.forced and played.forced_by is Forced.REFUSED


def test_a_timeout_plays_the_default_move_and_a_late_one_does_nothing() -> None:
    master, effects = _started()
    ask = effects[-1]
    assert master.timeout(1 - ask.seat) == []
    out = master.timeout(ask.seat)
    played = out[1].event
    assert isinstance(played, Played) and played.forced_by is Forced.TIMEOUT
    assert isinstance(out[0], Journal) and (out[0].seat, out[0].forced, out[0].scopa) == (ask.seat, Forced.TIMEOUT, played.scopa)
    assert master.timeout(ask.seat) == []


def test_a_game_driven_to_its_end_replays_from_its_journal() -> None:
    master, effects = _started(seed=9)
    journal = []
    marks = []  # each play's journal entry beside its announcement: the same seat, the same scopa (R16)
    while not isinstance(effects[-1], GameOver):
        journal += [e.action for e in effects if isinstance(e, Journal)]
        marks += [(j.seat, j.scopa, p.event.seat, p.event.scopa) for j, p in zip(effects, effects[1:])
                  if isinstance(j, Journal) and isinstance(j.action, Play)]
        ask = effects[-1]
        effects = master.receive(ask.seat, ask.legal[-1])
    journal += [e.action for e in effects if isinstance(e, Journal)]
    assert any(m[1] for m in marks) and all(m[:2] == m[2:] for m in marks)
    record = effects[-1].record
    assert list(record.actions) == journal == master.actions
    assert replay(master.rules, master.first_dealer, journal).totals == list(record.totals)
    with pytest.raises(ValueError):
        master.start()


def test_a_local_game_observer_sees_the_state_each_event_was_announced_in() -> None:
    """The game master is a deal further on when a round's end is told; the local game
    shows its observers the game as it stood then (the TUI draws the board from it)."""
    from scopa.bots import GreedyBot
    from scopa.engine import LocalGame, Phase, RoundEnded

    seen: list[tuple[int, int, int]] = []

    async def observe(event: object) -> None:
        if isinstance(event, RoundEnded):
            st = game.state
            seen.append((event.round_no, len(st.history), sum(p.bit_count() for p in st.piles)))
            assert st.phase is not Phase.PLAY

    game = LocalGame(RuleSet.build(), [GreedyBot(), GreedyBot()], seed=6, observers=[observe])
    record = asyncio.run(game.run())
    assert seen and all(n == rounds and cards == 40 for n, rounds, cards in seen)
    assert game.state is game.master.state and record.totals == tuple(game.state.totals)


def test_a_question_s_view_is_made_when_read_while_the_question_waits() -> None:
    master, effects = _started()
    unread = effects[-1]
    nxt = master.receive(unread.seat, unread.legal[0])[-1]
    with pytest.raises(ValueError):
        unread.view  # noqa: B018 - answered before its view was read: the game went on
    seen = nxt.view
    assert isinstance(seen, View) and seen.seat == nxt.seat
    master.receive(nxt.seat, nxt.legal[0])
    assert nxt.view is seen  # read while it waited: kept


def test_the_events_and_effects_made_each_move_keep_their_dataclass_semantics() -> None:
    """quick_init gives them a cheaper __init__: the same fields, defaults, keywords,
    equality and frozenness as the dataclass's own."""
    import dataclasses

    from scopa.engine.cards import CARDS
    from scopa.engine.events import quick_init

    played = Played(1, CARDS[3], (CARDS[5],), True, (), forced=True)
    assert (played.seat, played.card, played.captured, played.scopa, played.table) == (1, CARDS[3], (CARDS[5],), True, ())
    assert played.forced and played.forced_by is None
    assert played == Played(seat=1, card=CARDS[3], captured=(CARDS[5],), scopa=True, table=(), forced=True,
                            forced_by=Forced.TIMEOUT)  # forced_by is not compared
    assert Announce(played).to is None and Announce(played, 2).to == 2
    assert Journal(3, Play(1, 0)) == Journal(index=3, action=Play(1, 0))
    assert hash(Journal(3, Play(1, 0))) == hash(Journal(3, Play(1, 0)))
    assert HandDealt(0, (), 30) == HandDealt(seat=0, hand=(), stock_left=30)
    with pytest.raises(dataclasses.FrozenInstanceError):
        played.seat = 2  # type: ignore[misc]
    with pytest.raises(TypeError):
        Journal(3)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Journal(3, Play(1, 0), 1, None, False, 4)  # type: ignore[call-arg]
    assert Journal(3, Play(1, 0), 1, Forced.TIMEOUT, True) == Journal(3, Play(1, 0), seat=1, forced=Forced.TIMEOUT, scopa=True)

    @dataclasses.dataclass(frozen=True, slots=True)
    class Made:
        items: list[int] = dataclasses.field(default_factory=list)

    with pytest.raises(TypeError):
        quick_init(Made)  # a default_factory is not something it sets


def test_a_plays_mark_is_kept_only_for_a_scopa_a_forced_play_or_a_bots() -> None:
    """R16 and R7: a play's mark says it swept the table, that the game master made it
    (why), or that a bot made it for the seat's person; an ordinary play, a declaration and
    a deal have none."""
    play = Play(0, 0)
    assert Journal(3, play, seat=0).mark(bot=False) is None
    assert Journal(3, play, seat=0).mark(bot=True) == PlayMark(bot=True)
    assert Journal(3, play, seat=0, scopa=True).mark(bot=False) == PlayMark(scopa=True)
    assert Journal(3, play, seat=0, forced=Forced.TIMEOUT).mark(bot=False) == PlayMark(Forced.TIMEOUT)
    assert Journal(3, Declare(DeclarationKind.TRIS), seat=0, forced=Forced.TIMEOUT).mark(bot=True) is None
    assert Journal(0, Deal(tuple(range(40))), seat=None).mark(bot=False) is None
