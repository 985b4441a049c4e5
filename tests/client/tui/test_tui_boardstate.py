"""The board's state follows the game from its events alone (as over the network) and
agrees with the engine's own view of every seat (R19: piles are public)."""

from __future__ import annotations

import pytest

from scopa.bots import GreedyBot, RandomBot
from scopa.client.text.board.state import BoardState
from scopa.client.text import i18n, tie_note
from scopa.client.tui.text import result_line
from scopa.engine import EndReason, Event, GameEnded, GameStarted, HandDealt, LocalGame, RuleSet
from scopa.engine.player import Player


class Recorder(Player):
    def __init__(self, inner: Player, board: BoardState, seat: int) -> None:
        self.inner, self.board, self.seat = inner, board, seat
        self.name = inner.name
        self.checked = 0

    async def notify(self, event: Event) -> None:
        self.board.apply(event)

    async def choose(self, v, legal):  # type: ignore[no-untyped-def]
        # Asked to play: what the events built must be what the engine shows this seat.
        self.checked += 1
        assert self.board.table == v.table and self.board.hand == v.hand
        assert self.board.to_move == v.to_move and self.board.hand_sizes == list(v.hand_sizes)
        assert self.board.stock_left == v.stock_left and self.board.totals == v.totals
        for side, pile in enumerate(v.piles):
            assert self.board.pile(side) == pile
        assert self.board.plays == list(v.round_plays)
        return await self.inner.choose(v, legal)


@pytest.mark.parametrize("preset,players", [("scopa", 2), ("scopone", 4), ("cirulla", 2), ("scopa", 3)])
async def test_events_alone_rebuild_what_the_engine_shows_R19(preset: str, players: int) -> None:
    rules = RuleSet.build(preset, players=players)
    board = BoardState(viewer=0)
    me = Recorder(GreedyBot(), board, 0)
    master = LocalGame(rules, [me, *[RandomBot(seed=i) for i in range(1, players)]], seed=17)
    await master.run()
    assert me.checked > 10
    assert board.over and board.totals == tuple(master.state.totals)
    assert board.winner == master.state.winner


class Spectating(Player):
    """A seat's bot that also keeps a spectator's board: the public events only (no deal
    of any hand reaches a spectator), checked against the engine's view at each turn."""

    def __init__(self, inner: Player, board: BoardState) -> None:
        self.inner, self.board = inner, board
        self.name = inner.name
        self.checked = 0

    async def notify(self, event: Event) -> None:
        if not isinstance(event, HandDealt):
            self.board.apply(event)

    async def choose(self, v, legal):  # type: ignore[no-untyped-def]
        self.checked += 1
        assert (self.board.hand_sizes, self.board.stock_left) == (list(v.hand_sizes), v.stock_left)
        assert self.board.table == v.table and self.board.to_move == v.to_move
        return await self.inner.choose(v, legal)


@pytest.mark.parametrize("preset,players", [("scopa", 2), ("scopa", 4), ("scopa", 3)])
async def test_a_spectators_board_counts_the_hands_and_the_stock_of_later_deals_R11(preset: str, players: int) -> None:
    board = BoardState(viewer=None)
    me = Spectating(GreedyBot(), board)
    master = LocalGame(RuleSet.build(preset, players=players), [me, *[RandomBot(seed=i) for i in range(1, players)]],
                       seed=5)
    await master.run()
    assert me.checked > 10 and board.over


def test_the_round_end_explains_eleven_all_R22() -> None:
    board = BoardState(viewer=0)
    board.apply(GameStarted(RuleSet(), ("You", "Bob"), 0))
    board.totals = (11, 11)
    note = tie_note(board)
    assert note is not None and "11–11" in note and "another round" in note
    board.totals = (11, 9)
    assert tie_note(board) is None


def test_result_lines_speak_to_the_player() -> None:
    board = BoardState(viewer=0)
    board.apply(GameStarted(RuleSet(), ("ada", "Bob"), 0))
    board.apply(GameEnded(0, (11, 7), EndReason.TARGET))
    assert result_line(board) == "You win, 11–7."
    board.viewer = 1
    assert result_line(board) == "You lose 7–11 to ada."  # the loser's own points first
    board.viewer = None
    assert result_line(board) == "ada wins, 11–7."  # a spectator's: who won


def test_the_cards_left_on_the_table_go_to_you_in_a_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    # R20: the last side to capture takes what is left; the line says so as a sentence in either language.
    from scopa.client.text import i18n
    from scopa.client.text import leftovers_line

    two = BoardState(rules=RuleSet(), names=("ada", "Greedy 2"), viewer=0)
    assert leftovers_line(two, 0) == "Left on the table, to you: "
    assert leftovers_line(two, 1) == "Left on the table, to Greedy 2: "
    teams = BoardState(rules=RuleSet.build("scopone"), names=("ada", "bea", "eva", "ugo"), viewer=0)
    assert leftovers_line(teams, 0) == "Left on the table, to you and eva: "
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    assert leftovers_line(two, 0) == "Rimaste in tavola, a te: "
    assert leftovers_line(teams, 0) == "Rimaste in tavola, a te e ad eva: "
    assert leftovers_line(teams, 1) == "Rimaste in tavola, a bea & ugo: "


def test_a_team_game_speaks_to_the_persons_team(monkeypatch: pytest.MonkeyPatch) -> None:
    """Scopone: "Your team wins, 23–6." ("La tua squadra ha vinto, 23–6."), to the other
    side "La tua squadra ha perso 6–23 contro ada & eva", to a spectator who won."""
    board = BoardState(viewer=0)
    board.apply(GameStarted(RuleSet.build("scopone"), ("ada", "bob", "eva", "dan"), 0))
    board.apply(GameEnded(0, (23, 6), EndReason.TARGET))
    assert result_line(board) == "Your team wins, 23–6."
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    assert result_line(board) == "La tua squadra ha vinto, 23–6."
    board.viewer = 1
    assert result_line(board) == "La tua squadra ha perso 6–23 contro ada & eva."
    board.viewer = None
    assert result_line(board) == "Vincono ada & eva, 23–6."
