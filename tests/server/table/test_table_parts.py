"""Small parts of a table and the lobby, by behaviour: the event log keeps the most recent
events up to its limit, a table's inbox hands its loop what was put in it in order (and
carries out at once what needs no waiting while the loop waits, each table's frames written as
soon as it is carried out), tables
created with the same preset and options share one RuleSet, and a seat's sources are
kept once each."""

from __future__ import annotations

import asyncio
import tracemalloc
from typing import Any

import pytest

from scopa.engine import RuleSetError
from scopa.protocol import ConnectionRole, prepare
from scopa.protocol import commands as wire
from scopa.server.table.broadcast import EventLog, LoggedEvent
from scopa.server.lobby.directory import build_rules
from scopa.server.players.fairness import FairRatings
from scopa.server.conn import WriteBatch
from scopa.server.table.loop import Inbox

pytestmark = pytest.mark.unit


def logged(n: int, seat: int | None = None) -> LoggedEvent:
    return LoggedEvent(seat, n, "played", b"")


def test_the_event_log_keeps_the_most_recent_events_up_to_its_limit() -> None:
    log = EventLog(limit=3)
    for _ in range(5):
        log.append(logged(log.next_event()))
    assert [e.event for e in log.kept] == [3, 4, 5]
    assert log.base == 2  # every event above 2 is kept
    assert log.missed(None, 1) is None  # older than the log: a snapshot instead
    assert [e.event for e in log.missed(None, 2) or []] == [3, 4, 5]
    assert [e.event for e in log.missed(None, 4) or []] == [5]


def test_the_event_log_gives_a_seat_its_own_and_the_public_events_only() -> None:
    log = EventLog()
    log.append(logged(log.next_event()))
    log.append(logged(log.next_event(), seat=0))
    log.append(logged(log.next_event(), seat=1))
    assert [e.event for e in log.missed(1, 0) or []] == [1, 3]
    assert [e.event for e in log.missed(None, 0) or []] == [1]
    log.expire()
    assert log.kept == [] and log.missed(1, 0) is None


def test_the_event_log_keeps_each_event_in_its_body_and_a_few_bytes() -> None:
    """A log holds a whole game for every table of a server: an event costs it the bytes
    of its packed body and a few more, not a tuple nor a bytes object of its own, and
    comes back as it went in."""
    names = ["played", "deal", "round_started"]
    log = EventLog()
    log.restart_at(1000)  # numbers above the small ints Python keeps anyway
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for i in range(1000):  # each body packed for its event, as a table does, and kept by the log only
            log.append(LoggedEvent(None if i % 3 else i % 4, log.next_event(), names[i % 3], bytes([i % 256]) * 20))
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert kept < (20 + 24) * 1000
    assert log.kept == [LoggedEvent(None if i % 3 else i % 4, i + 1001, names[i % 3], bytes([i % 256]) * 20)
                        for i in range(1000)]


def test_the_event_log_drops_its_oldest_bodies_with_their_events() -> None:
    log = EventLog(limit=2)
    for i in range(5):
        log.append(LoggedEvent(None, log.next_event(), "played", bytes([i]) * (i + 1)))
    assert [(e.event, e.payload) for e in log.kept] == [(4, b"\x03" * 4), (5, b"\x04" * 5)]
    assert [e.payload for e in log.missed(None, 4) or []] == [b"\x04" * 5]


async def test_a_table_inbox_hands_over_in_order_and_waits_when_empty() -> None:
    inbox: Inbox[str] = Inbox()
    inbox.put_nowait("a")
    inbox.put_nowait("b")
    assert await inbox.get() == "a"
    assert await inbox.get() == "b"
    waiting = asyncio.ensure_future(inbox.get())
    await asyncio.sleep(0)
    assert not waiting.done()
    inbox.put_nowait("c")
    assert await waiting == "c"
    assert len(inbox) == 0


class _Said:
    """A connection as the write batch sees it: its frames of the loop turn written by ``_flush``."""

    def __init__(self, name: str, happened: list[str]) -> None:
        self.name, self.happened = name, happened

    def _flush(self) -> None:
        self.happened.append(f"{self.name} written")


async def test_each_table_moved_in_one_loop_turn_is_written_before_the_next_is_carried_out() -> None:
    """Two tables' moves read in one loop turn: the first table's frames (its next
    seat's your_turn) go out as soon as its move is carried out, not after the second's."""
    happened: list[str] = []
    writes = WriteBatch.of(asyncio.get_running_loop())
    inboxes: list[Inbox[str]] = []
    for name in ("a", "b"):
        inbox: Inbox[str] = Inbox()
        said = _Said(name, happened)

        def carry(item: str, said: _Said = said) -> None:
            happened.append(f"{item} carried out")
            writes.add(said)  # type: ignore[arg-type]  # what a table's send does for each connection
        inbox.carry = carry
        inboxes.append(inbox)
    readers = [asyncio.ensure_future(inbox.get()) for inbox in inboxes]
    await asyncio.sleep(0)  # both tables' loops wait on their empty inboxes
    inboxes[0].put_nowait("a")
    inboxes[1].put_nowait("b")
    for _ in range(3):
        await asyncio.sleep(0)
    assert happened == ["a carried out", "a written", "b carried out", "b written"]
    for reader in readers:
        reader.cancel()


async def test_a_cancelled_wait_leaves_the_inbox_usable() -> None:
    inbox: Inbox[int] = Inbox()
    waiting = asyncio.ensure_future(inbox.get())
    await asyncio.sleep(0)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    inbox.put_nowait(1)
    assert await asyncio.wait_for(inbox.get(), 1) == 1


async def test_what_comes_while_the_loop_waits_is_carried_out_at_once_and_what_must_wait_wakes_it() -> None:
    inbox: Inbox[str] = Inbox()
    carried: list[str] = []

    def carry(item: str) -> str | None:
        carried.append(item)
        return item.removeprefix("wait:") if item.startswith("wait:") else None

    inbox.carry = carry
    reader = asyncio.ensure_future(inbox.get())
    await asyncio.sleep(0)  # the reader waits on the empty inbox
    inbox.put_nowait("a")
    inbox.put_nowait("b")
    assert carried == []  # not while the writer is still running: in a callback of the loop
    await asyncio.sleep(0)
    assert carried == ["a", "b"] and not reader.done()  # no task woke for them
    inbox.put_nowait("wait:c")
    inbox.put_nowait("d")
    await asyncio.sleep(0)
    assert carried == ["a", "b", "wait:c"]  # what follows what must wait is not carried out before it
    assert await reader == "c"  # what is left of it goes to the reader first, then the rest in order
    assert await inbox.get() == "d"
    assert len(inbox) == 0


async def test_the_inboxes_of_many_tables_are_carried_out_by_one_callback_of_the_loop_turn(
        monkeypatch: pytest.MonkeyPatch) -> None:
    loop = asyncio.get_running_loop()
    scheduled: list[object] = []
    call_soon = loop.call_soon

    def counted(callback: Any, *args: Any, **kwargs: Any) -> asyncio.Handle:
        scheduled.append(callback)
        return call_soon(callback, *args, **kwargs)

    carried: list[str] = []

    def carry(item: str) -> str | None:
        if item == "broken":
            raise RuntimeError("a table's bug")
        carried.append(item)
        return None

    inboxes: list[Inbox[str]] = [Inbox() for _ in range(3)]
    readers = []
    for inbox in inboxes:
        inbox.carry = carry
        readers.append(asyncio.ensure_future(inbox.get()))
    await asyncio.sleep(0)  # every reader waits on its empty inbox
    monkeypatch.setattr(loop, "call_soon", counted)
    for i, inbox in enumerate(inboxes):
        inbox.put_nowait("broken" if i == 0 else f"move {i}")
        inbox.put_nowait(f"more {i}")
    assert len(scheduled) == 1  # not one per table
    monkeypatch.undo()
    await asyncio.sleep(0)
    assert carried == ["move 1", "more 1", "move 2", "more 2"]  # one table's failure holds up no other
    inboxes[1].put_nowait("next")
    await asyncio.sleep(0)
    assert carried[-1] == "next"  # the next turn's are carried out too
    for reader in readers:
        reader.cancel()


def test_tables_with_the_same_preset_and_options_share_one_rule_set() -> None:
    assert build_rules("scopa", {}) is build_rules("scopa", {})
    assert build_rules("scopa", {"target": 21}) is build_rules("scopa", {"target": 21})
    assert build_rules("scopa", {"target": 21}) is not build_rules("scopa", {"target": 16})
    assert build_rules("scopa", {"target": 21}).target == 21
    assert build_rules("scopone", {}).players == 4


def test_an_option_value_that_cannot_be_a_key_is_still_checked() -> None:
    with pytest.raises(RuleSetError):
        build_rules("scopa", {"target": [21]})  # a list: not a cache key, and not a target


def test_a_prepared_command_shares_the_states_it_may_go_out_in() -> None:
    one = prepare(ConnectionRole.SERVER, wire.YourTurn.NAME, b"\x80", recipient="player:a", sender="table:1")
    two = prepare(ConnectionRole.SERVER, wire.YourTurn.NAME, b"\x80", recipient="player:b", sender="table:1")
    assert one.states is two.states and one.states


def test_a_seat_keeps_each_source_once_and_a_fresh_seat_forgets_the_last() -> None:
    fair = FairRatings()
    fair.seen("1", 0, "10.0.0.1", fresh=True)
    fair.seen("1", 0, "10.0.0.1")
    fair.seen("1", 0, "10.0.0.2")
    assert fair._origins["1"][0] == ("10.0.0.1", "10.0.0.2")
    fair.seen("1", 0, "10.0.0.3", fresh=True)
    assert fair._origins["1"][0] == "10.0.0.3"  # one source: kept as itself, not in a tuple of its own


class _NoSeats:
    def sessions(self) -> list[Any]:
        return []


def test_a_table_keeps_no_chat_until_its_first_message_then_its_last_ones() -> None:
    """Most tables never chat: a table holds no buffer for it (a deque is about 600
    bytes) until a message comes; then it keeps the last CHAT_KEPT (``joined.chat``)."""
    from scopa.server.core.clock import FakeClock
    from scopa.server.table.broadcast import Broadcaster

    table = Broadcaster("t1", _NoSeats(), EventLog(), FakeClock())  # type: ignore[arg-type]
    assert table.said == ()
    for i in range(wire.CHAT_KEPT + 2):
        table.chat(wire.ChatMessage(author="player:ann", text=f"ciao {i}"))
    assert [m.text for m in table.said] == [f"ciao {i}" for i in range(2, wire.CHAT_KEPT + 2)]
