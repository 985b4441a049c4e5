"""Back at a seat a bot played meanwhile: the board is drawn as it stands once what was
missed is on it, and a short line says what the bot played for the person."""

from __future__ import annotations

from scopa.client.game import SeatCameBack, SeatTakenByBot, SeatWentAway
from scopa.client.text import DeckStyle, i18n
from scopa.client.text.board.state import BoardState
from scopa.client.tui.online.comeback import Comeback
from scopa.engine import Card, GameStarted, Played, RoundStarted, RuleSet, parse_cards


class Screen:
    """What the comeback asks of a board screen."""

    def __init__(self, board: BoardState) -> None:
        self.board, self.held, self.drawn = board, False, 0

    def refresh_board(self) -> None:
        self.drawn += 1

    def keep_saying(self, text: str | None) -> None:
        pass


def played(seat: int, card: str, *captured: str, scopa: bool = False) -> Played:
    return Played(seat, parse_cards(card)[0], tuple(parse_cards(" ".join(captured))) if captured else (),
                  scopa, ())  # type: ignore[call-arg]


def caught_up_in_round_one(monkeypatch) -> tuple[BoardState, list[str], Comeback, Screen]:  # type: ignore[no-untyped-def]
    """ada's board (seat 0, Italian) in round 1 of a game with bea, catching up; what it says."""
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    board = BoardState(viewer=0)
    board.apply(GameStarted(RuleSet(), ("ada", "bea"), 1))
    board.apply(RoundStarted(1, 1, tuple(parse_cards("3d 5c 6b 7s")), 0, ()))  # type: ignore[call-arg]
    said: list[str] = []
    comeback = Comeback(lambda text: said.append(str(text)), lambda: "7", DeckStyle.ITALIAN)
    screen = Screen(board)
    comeback.catch_up(screen)  # type: ignore[arg-type]
    return board, said, comeback, screen


def test_what_the_bot_played_for_us_is_said_once_caught_up(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    board, said, comeback, screen = caught_up_in_round_one(monkeypatch)
    board.bot_plays.add(0)  # the seat's grace period ran out: a bot plays it (seat_replaced)
    for event in (played(0, "Kc"), played(1, "2s"), played(0, "3b", "3d", scopa=True)):
        board.apply(event)
        comeback.missed(screen, event)  # type: ignore[arg-type]
    assert screen.drawn == 0 and screen.held  # nothing drawn play by play
    comeback.caught_up(screen)  # type: ignore[arg-type]
    assert screen.drawn == 1 and not screen.held
    assert said[-1] == "Mentre eri via il bot ha giocato: R Cop, 3 Bas (scopa)"  # as the board names cards, said
    comeback.catch_up(screen)  # type: ignore[arg-type]
    comeback.caught_up(screen)  # type: ignore[arg-type]
    assert not said[-1].startswith("Mentre eri via")  # said once


def test_our_own_plays_caught_up_again_are_not_the_bots(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A client started again gets the whole round again: the person's own plays, made before
    the client went away (and within the grace period, so no bot took the seat), are not the bot's;
    only those between the bot taking the seat and the person coming back are."""
    board, said, comeback, screen = caught_up_in_round_one(monkeypatch)
    for event in (played(0, "Kc"), played(1, "2s"), played(0, "6d")):  # ada's own plays
        board.apply(event)
        comeback.missed(screen, event)  # type: ignore[arg-type]
    comeback.own_notice(screen, SeatWentAway(0, "ada", 30.0), False, "")  # type: ignore[arg-type]  # the server waits: no bot
    comeback.own_notice(screen, SeatCameBack(0, "ada"), False, "")  # type: ignore[arg-type]  # ends the catching up
    assert said and not any(line.startswith("Mentre eri via") for line in said)
    comeback.catch_up(screen)  # type: ignore[arg-type]  # now a bot takes the seat, plays once, gives it back
    comeback.own_notice(screen, SeatTakenByBot(0, "ada", "greedy"), True, "")  # type: ignore[arg-type]
    for event in (played(1, "4s"), played(0, "7c")):
        board.apply(event)
        comeback.missed(screen, event)  # type: ignore[arg-type]
    comeback.own_notice(screen, SeatCameBack(0, "ada", bot_played=True), True, "")  # type: ignore[arg-type]
    for event in (played(1, "5s"), played(0, "1c")):  # ada's own again
        board.apply(event)
        comeback.missed(screen, event)  # type: ignore[arg-type]
    comeback.caught_up(screen)  # type: ignore[arg-type]
    assert said[-1] == "Mentre eri via il bot ha giocato: 7 Cop"
