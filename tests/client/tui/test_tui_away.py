"""The network app's picture of who is away (PROTOCOL.md §7): every ``table_update``'s
``away`` is the truth, also after seat events were seen and after a resume (whose own
``seat_back`` says nothing about the others)."""

from __future__ import annotations

from typing import Any

from scopa.client.net import MemoryTokenStore
from scopa.client.text.board.state import BoardState
from scopa.client.tui import NetApp
from scopa.engine import RuleSet
from scopa.protocol import Command, make_command
from scopa.protocol import commands as wire
from scopa.protocol.convert import rules_to_wire


class Screen:
    """What the app asks of its board screen here."""

    def __init__(self, board: BoardState) -> None:
        self.board, self.held = board, False

    def refresh_board(self) -> None:
        pass

    def set_interval(self, *args: Any, **kwargs: Any) -> Any:
        return None

    def say(self, text: object) -> None:
        pass


class Session:
    table_id = "4"


def command(body: wire.Body, seq: int) -> Command:
    return make_command(body, seq=seq, sender="table:4", recipient="table:4/all")


def update(away: list[int], seq: int) -> Command:
    info = wire.TableInfo(id="4", rules=rules_to_wire(RuleSet.build("scopa")), description="scopa",
                          seats=["ann", "ben"], state=wire.TableState.PLAYING, away=away)  # fmt: skip
    return command(wire.TableUpdate(table=info), seq)


def app_at_table() -> tuple[NetApp, BoardState]:
    app = NetApp("127.0.0.1", 1, "ann", MemoryTokenStore())
    board = BoardState(viewer=0)
    board.names = ("ann", "ben")
    app.board_screen = Screen(board)  # type: ignore[assignment]
    app.session = Session()  # type: ignore[assignment]
    app.tell = lambda text: app.messages.append(str(text))  # type: ignore[method-assign]
    return app, board


def test_table_update_away_counts_after_seat_events_were_seen() -> None:
    app, board = app_at_table()
    app.on_server_command(command(wire.SeatAway(seat=1, name="ben", grace_seconds=60.0), 1))
    assert 1 in board.away
    # we resumed: the server's table map says ben came back while we were gone
    app.on_server_command(command(wire.SeatBack(seat=0, name="ann"), 2))  # our own seat_back
    app.on_server_command(update([], 3))
    assert board.away == {}
    app.on_server_command(update([1], 4))
    assert 1 in board.away


def test_a_snapshot_tells_who_is_away() -> None:
    app, board = app_at_table()
    info = update([1], 1).body.table  # type: ignore[attr-defined]
    app.on_server_command(command(wire.Snapshot(event=9, table=info), 1))
    assert list(board.away) == [1]
