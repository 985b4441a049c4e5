"""Keys typed quickly after a key that opens a box are not lost: a terminal delivers
"thi⏎" typed fast (or pasted) in one read, and every key reaches the app before a box
opened by the first key's binding would have taken the focus.  The board's chat key
``t`` (on one's turn and between turns), the lobby's ``t`` and the replay viewer's
round box ``g`` are typed this way by Textual pilots."""

from __future__ import annotations

import pytest
from textual import events
from textual.app import App
from textual.widgets import Input

from scopa.client.tui import ReplayApp
from scopa.client.tui.online import LobbyScreen
from test_move_hints import LEGAL
from test_replay_app import game, steps_of
from test_tui_local import BoardHarness, ask, position

pytestmark = pytest.mark.unit


def keys(text: str) -> list[events.Key]:
    """``text`` as the key events a terminal gives for it (``⏎`` is Enter)."""
    names = {" ": "space", "/": "slash", "⏎": "enter"}
    return [events.Key(names.get(ch, ch), None if ch == "⏎" else ch) for ch in text]


@pytest.mark.parametrize("asking", [True, False])
async def test_a_chat_line_typed_fast_after_t_on_the_board_is_sent_whole(asking: bool) -> None:
    app = BoardHarness(position("5d 2c 4b 3c", "7s 3b Rc"))
    sent: list[str] = []
    async with app.run_test(size=(100, 30)) as pilot:
        app.board_screen.chat = sent.append
        task = await ask(app, LEGAL) if asking else None
        await pilot.pause()
        for key in keys("t1 ciao, 7 Spa!⏎"):
            app.post_message(key)
        for _ in range(20):
            await pilot.pause(0.02)
            if sent:
                break
        assert sent == ["1 ciao, 7 Spa!"]
        assert task is None or not task.done()  # the "1" went into the line: no card was played


async def test_a_chat_line_typed_fast_after_t_in_the_lobby_is_said_whole() -> None:
    said: list[str] = []

    class Lobby(App[None]):
        def on_mount(self) -> None:
            self.push_screen(LobbyScreen("ada"))

        def on_lobby_screen_action(self, message: LobbyScreen.Action) -> None:
            if message.kind == "say":
                said.append(message.arg)

    app = Lobby()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        for key in keys("thi all⏎"):
            app.post_message(key)
        for _ in range(20):
            await pilot.pause(0.02)
            if said:
                break
        assert said == ["hi all"]


async def test_a_round_typed_fast_after_g_in_the_replay_is_jumped_to() -> None:
    record = await game()
    app = ReplayApp(record, steps_of(record))
    async with app.run_test(size=(120, 40)) as pilot:
        for key in keys("g3⏎"):
            app.post_message(key)
        for _ in range(20):
            await pilot.pause(0.02)
        assert app.step.round_index == 2 and app.step.action_index is None
        assert not app.query_one("#jump", Input).has_class("shown")


async def test_an_invite_typed_fast_after_i_in_the_lobby_is_joined_whole() -> None:
    joined: list[str] = []

    class Lobby(App[None]):
        def on_mount(self) -> None:
            self.push_screen(LobbyScreen("ada"))

        def on_lobby_screen_action(self, message: LobbyScreen.Action) -> None:
            if message.kind == "join":
                joined.append(message.arg)

    app = Lobby()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        for key in keys("i7.Xq3vR0aT2m-k9LbZ_c8Ew1yH⏎"):  # w, c, p, r and j are lobby keys too
            app.post_message(key)
        for _ in range(20):
            await pilot.pause(0.02)
            if joined:
                break
        assert joined == ["7 Xq3vR0aT2m-k9LbZ_c8Ew1yH"]
