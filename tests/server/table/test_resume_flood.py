"""Two connections holding one seat token cannot take the seat from each other in a
loop: a seat resumed ``resumes_per_seat`` times within ``resume_window`` is not resumed
again until the window lets it (``rate_limited`` with ``retry_after``; the connection
holding the seat keeps it), and the other seats hear of it going away and coming back at
most once per window.  Time is the server's FakeClock."""

from __future__ import annotations

from collections import Counter
from collections.abc import AsyncIterator

import pytest

from scopa.protocol import commands as wire
from scopa.protocol.errors import ErrorCode
from scopa.server import NetworkEngine
from scopa.server.core.clock import FakeClock

from test_resume_events import two_people
from wire_client import WireClient

pytestmark = pytest.mark.integration

NOTICES = ("seat_away", "seat_back", "table_update")
RESUMES, WINDOW = 3, 10.0
"""The defaults of ``Limits.resumes_per_seat`` and ``Limits.resume_window`` (README, Limits)."""


@pytest.fixture
async def served() -> AsyncIterator[tuple[NetworkEngine, FakeClock]]:
    clock = FakeClock()
    server = NetworkEngine("127.0.0.1", 0, seed=5, clock=clock, grace=60.0)
    await server.start()
    yield server, clock
    await server.stop()


async def _heard(client: WireClient) -> Counter[str]:
    """The notices ``client`` got since the last call (a ping's pong marks the end), and
    an answer to any ping of the server's meanwhile."""
    seq = client.send(wire.Ping(nonce=7))
    got: Counter[str] = Counter()
    while not ((cmd := await client.recv()).name == "pong" and cmd.re == seq):
        if cmd.name == "ping":
            client.send(wire.Pong(nonce=cmd.body.nonce), re=cmd.seq)  # type: ignore[union-attr]
        if cmd.name in NOTICES:
            got[cmd.name] += 1
    return got


async def test_a_seat_taken_back_and_forth_is_resumed_at_most_three_times_in_ten_seconds(
        served: tuple[NetworkEngine, FakeClock]) -> None:
    server, clock = served
    a, b = await two_people(server)
    await _heard(a)
    assert b.token is not None and b.table is not None
    resumed, refused, holder = 0, 0, b
    for _ in range(100):  # 10 s of the clock, a new connection resuming ben's seat every 0.1 s
        c = await WireClient.connect(server.port)
        reply = await c.resume(b.token, 0)
        if reply.name == "welcome":
            resumed, holder = resumed + 1, c
        else:
            assert reply.body == wire.Error(code=ErrorCode.RATE_LIMITED, message=reply.body.message,  # type: ignore[union-attr]
                                            retry_after=reply.body.retry_after)  # type: ignore[union-attr]
            assert reply.body.retry_after is not None and 0 < reply.body.retry_after <= WINDOW  # type: ignore[union-attr]
            refused += 1
            await c.close()
        clock.advance(0.1)
    assert (resumed, refused) == (RESUMES, 100 - RESUMES)
    heard = await _heard(a)
    assert heard["seat_away"] == 0 and heard["seat_back"] <= 1 and heard["table_update"] <= 1, heard
    seat = server.tables[b.table].seats[b.seat]  # type: ignore[index]
    assert seat is not None and not seat.away and seat.session is not None and seat.session.id == \
        max(server.sessions)  # the last one let in holds the seat: the refused ones took nothing

    clock.advance(WINDOW)  # a new window: the seat may be resumed again
    c = await WireClient.connect(server.port)
    assert (await c.resume(b.token, 0)).name == "welcome"
    assert (await _heard(a))["seat_back"] == 1


async def test_a_seat_that_drops_again_within_the_window_is_told_away_when_the_window_ends(
        served: tuple[NetworkEngine, FakeClock]) -> None:
    server, clock = served
    window = WINDOW
    a, b = await two_people(server)
    assert b.token is not None and b.table is not None and b.seat is not None
    table = server.tables[b.table]  # type: ignore[index]
    b.abort()
    away = await a.recv_until("seat_away")
    c = await WireClient.connect(server.port)
    assert (await c.resume(b.token, b.last_event)).name == "welcome"
    await a.recv_until("seat_back")
    await _heard(a)
    clock.advance(1.0)
    c.abort()  # away again, one second after the seat_away told
    heard: Counter[str] = Counter()
    while not table.seats[b.seat].away:  # type: ignore[union-attr]
        heard += await _heard(a)  # until the server has noticed the drop
    heard += await _heard(a)
    assert heard == Counter({"table_update": 1})  # no seat_away within the window
    clock.advance(window - 1.0)  # the window of the first seat_away ends, the seat still away
    late = await a.recv_until("seat_away")
    assert late.body.seat == b.seat and late.body.grace_seconds == pytest.approx(60.0 - (window - 1.0))  # type: ignore[union-attr]
    assert late.body.event > away.body.event  # type: ignore[union-attr, operator]
    d = await WireClient.connect(server.port)
    assert (await d.resume(b.token, c.last_event)).name == "welcome"
    assert (await a.recv_until("seat_back")).body.seat == b.seat  # type: ignore[union-attr]


@pytest.mark.unit
def test_after_a_seat_back_for_a_replaced_connection_a_drop_waits_for_the_window() -> None:
    """SeatNotices alone: a seat_back nobody's seat_away preceded (the connection was
    replaced), a drop one second later is held until the window of that seat_back ends;
    a drop and a return within the window are never told; told notices pair up."""
    from scopa.server.table.notices import SeatNotices

    clock = FakeClock()
    told: list[str] = []
    notices = SeatNotices(clock, WINDOW, lambda body: told.append(f"{body.NAME}@{clock.now():g}"))
    away = {"now": False}

    def went_away() -> bool:
        away["now"] = True
        return notices.away(1, lambda: wire.SeatAway(seat=1, name="ben", grace_seconds=60.0), lambda: away["now"])

    def came_back() -> bool:
        away["now"] = False
        return notices.back(1, wire.SeatBack(seat=1, name="ben"))

    assert came_back() and told == ["seat_back@0"]  # the connection was replaced: told once
    clock.advance(1.0)
    assert not went_away() and not came_back()  # within the window: never told
    clock.advance(1.0)
    assert not went_away()  # held ...
    clock.advance(WINDOW - 2.0)
    assert told == ["seat_back@0", "seat_away@10"]  # ... and told when the window ends, still away
    assert came_back() and told[-1] == "seat_back@10"  # a told seat_away is always followed by its seat_back
    clock.advance(1.0)
    assert not went_away() and not came_back()
    clock.advance(WINDOW)
    assert told == ["seat_back@0", "seat_away@10", "seat_back@10"]  # came back before the window ended
