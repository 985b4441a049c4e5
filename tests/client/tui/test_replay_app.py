"""The replay viewer (client/tui/replay.py), driven by Textual pilots."""

from __future__ import annotations

import json
import re

import pytest

from rich.text import Text
from textual.widgets import Static

from scopa.bots import make_bot
from scopa.engine import LocalGame, RuleSet, cards_in
from scopa.client.text.replaywords import step_text
from scopa.client.tui import ReplayApp
from scopa.protocol.record import PlayerKind, Record, RecordPlayer, build_record, dumps_record, parse_record
from scopa.protocol.record import RecordMismatch, Step, replay_steps


async def game(seed: int = 5, preset: str = "scopa") -> Record:
    rules = RuleSet.build(preset)
    bots = [make_bot("greedy", f"G{i}", seed=i) for i in range(rules.players)]
    master = LocalGame(rules, bots, seed)
    await master.run()
    players = [RecordPlayer(seat=i, name=b.name, side=rules.side_of(i), kind=PlayerKind.BOT, strategy="greedy")
               for i, b in enumerate(bots)]
    return build_record(rules, seed, master.first_dealer, master.actions, players)


def steps_of(record: Record) -> list[Step]:
    return list(replay_steps(record))


def text_of(app: ReplayApp, widget: str) -> str:
    """What a Static shows, as plain text."""
    content = app.query_one(widget, Static).content
    return content.plain if isinstance(content, Text) else str(content)


async def test_forwards_backwards_and_every_hand_shown() -> None:
    record = await game()
    steps = steps_of(record)
    app = ReplayApp(record, steps)
    async with app.run_test(size=(120, 40)) as pilot:
        assert app.index == 0 and "Round 1/" in text_of(app, "#position")
        board = text_of(app, "#board")
        for seat in range(2):  # every hand is shown, both seats
            for card in cards_in(steps[0].state.hands[seat]):
                assert app.board_text().plain.count(f"{'A234567FCR'[card // 4]} {('Den', 'Cop', 'Spa', 'Bas')[card & 3]}") == 1
        assert "G0" in board and "G1" in board
        await pilot.press("right", "right", "l", "space")
        assert app.index == 4
        assert step_text(steps[4], record) in text_of(app, "#position")
        await pilot.press("left", "h")
        assert app.index == 2
        await pilot.press("left", "left", "left")
        assert app.index == 0  # not before the first step


async def test_rounds_jump_and_the_end_shows_the_result() -> None:
    record = await game(10)  # the second seat wins, 14 to 5
    assert len(record.rounds) >= 3
    steps = steps_of(record)
    app = ReplayApp(record, steps)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("n")
        assert app.step.round_index == 1 and app.step.action_index is None
        await pilot.press("n", "p")
        assert app.step.round_index == 1
        await pilot.press("g")
        await pilot.press(*str(len(record.rounds)), "enter")
        assert app.step.round_index == len(record.rounds) - 1 and app.step.action_index is None
        await pilot.press("g", "9", "9", "enter")  # no such round: stays, says so
        assert app.step.round_index == len(record.rounds) - 1
        await pilot.press("escape", "end")
        assert app.index == len(steps)  # the game's end, after the last step
        score = text_of(app, "#score")
        won = record.result.winner or 0
        winner, totals = record.players[won].name, record.result.totals
        assert f"Game over: {winner} won {totals[won]}–{totals[1 - won]}" in score and "Round score" in score
        assert won == 1  # the winner's points first, though the record lists the sides in order


async def test_a_broken_record_is_shown_up_to_its_first_difference() -> None:
    data = json.loads(dumps_record(await game()))
    data["rounds"][1]["actions"][0]["seat"] = 1 - data["rounds"][1]["actions"][0]["seat"]
    record = parse_record(json.dumps(data))
    steps: list[Step] = []
    problem = None
    try:
        for step in replay_steps(record):
            steps.append(step)
    except RecordMismatch as exc:
        problem = exc
    assert problem is not None
    app = ReplayApp(record, steps, problem)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("end")
        assert app.step.round_index == 1
        assert "round 2, action 1" in text_of(app, "#problem")


async def test_one_scopa_is_one_scopa_on_the_board() -> None:
    record = await game()
    steps = steps_of(record)
    app = ReplayApp(record, steps)
    async with app.run_test(size=(120, 40)):
        app.index = next(i for i, s in enumerate(steps) if 1 in s.state.scope)
        board = app.board_text().plain
        assert "1 scopa," in board and "1 scope" not in board


async def test_the_replay_speaks_to_the_person_who_played_in_the_second_person(monkeypatch) -> None:
    """A local game names its one person "Tu" (Italian) or "You": the replay said "Tu gioca
    4 Den, prende …" ("You plays").  Every step, the deals and the result speak to that seat
    as "you" (Giochi, prendi, Cali, Dichiari, dai tu le carte, hai vinto), in a Scopa and a
    Cirulla game (declarations, the dealer's bonus: V13)."""
    from scopa.client.text import i18n
    from scopa.client.text.replaywords import position_text, result_text

    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    for preset, seed in (("scopa", 5), ("cirulla", 3)):
        record = await game(seed, preset)
        record = record.model_copy(update={"players": [record.players[0].model_copy(update={"name": "Tu"}),
                                                       *record.players[1:]]})
        steps = steps_of(record)
        said = [position_text(steps, i, record, me=0) for i in range(len(steps))]
        mine = [s for s, step in zip(said, steps) if step.action is not None and step.action.seat == 0]
        assert mine and all("Tu " not in s for s in said), [s for s in said if "Tu " in s][:3]
        assert any("Giochi " in s and ", prendi " in s for s in mine) or any("Cali " in s for s in mine)
        assert not any(" gioca " in s or " prende " in s or " cala " in s for s in mine)
        assert "hai vinto" in result_text(record, 0) or "vince" in result_text(record, 0)

    record = await game(5)
    record = record.model_copy(update={"players": [record.players[0].model_copy(update={"name": "Tu"}),
                                                   *record.players[1:]]})
    app = ReplayApp(record, steps_of(record))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("l")
        await pilot.pause()
        while "Giochi" not in text_of(app, "#position") and "Cali" not in text_of(app, "#position") \
                and app.index < len(app.steps) - 1:
            await pilot.press("l")
            await pilot.pause()
        assert "Tu gioca" not in text_of(app, "#position") and "Tu cala" not in text_of(app, "#position")
        assert "Giochi" in text_of(app, "#position") or "Cali" in text_of(app, "#position")
        await pilot.press("end")
        await pilot.pause()
        winner = record.result.winner
        assert ("hai vinto" if winner == 0 else "vince G1") in text_of(app, "#score")


async def test_a_side_with_one_point_has_1_point() -> None:
    """Walking through a game to where a side's total is 1: "1 point", never "1 points"."""
    record = await game()
    steps = steps_of(record)
    app = ReplayApp(record, steps)
    seen_one = False
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in steps:
            board = app.board_text().plain
            assert not re.search(r"\b1 (points|cards taken)\b", board)
            seen_one = seen_one or ", 1 point\n" in board
            await pilot.press("right")
    assert seen_one



async def test_the_replay_marks_the_servers_play_when_time_ran_out_and_a_bots_plays_for_a_person(monkeypatch) -> None:
    """A record whose first play the server made when its seat's time ran out, and whose
    later plays of seat 1 a bot made for its person: the viewer says so at each of those
    steps (and only there), as the log of ``--plain`` does, in Italian too; a bot's play
    for the viewer's own seat is not said to them as "you"."""
    from scopa.client.text import i18n
    from scopa.client.text.replaywords import plain_lines
    from scopa.engine import Forced, Play, PlayMark

    rules = RuleSet.build("scopa")
    bots = [make_bot("greedy", f"G{i}", seed=i) for i in range(2)]
    master = LocalGame(rules, bots, 5)
    await master.run()
    plays = [i for i, a in enumerate(master.actions) if isinstance(a, Play)]
    seats = [a.seat for rnd in (await game()).rounds for a in rnd.actions]  # the same game: who made each play
    marks = {plays[0]: PlayMark(Forced.TIMEOUT)}
    marks.update({plays[k]: PlayMark(bot=True) for k in range(2, len(plays)) if seats[k] == 1})
    players = [RecordPlayer(seat=0, name="G0", side=0, kind=PlayerKind.BOT, strategy="greedy"),
               RecordPlayer(seat=1, name="G1", side=1, kind=PlayerKind.PERSON, taken_over=True)]
    record = build_record(rules, 5, master.first_dealer, master.actions, players, marks=marks)
    steps = steps_of(record)
    said = [step_text(s, record) for s in steps]
    timed = [t for t in said if "time ran out" in t]
    assert len(timed) == 1 and timed[0] == said[1]  # the first play, after the deal
    his = [t for t, s in zip(said, steps) if s.action is not None and s.action.seat == 1]
    assert his[0].startswith("G1 ") and all(t.startswith("G1 (bot) ") for t in his[1:])
    assert [t for t in said if "(bot)" in t] == his[1:]
    log = list(plain_lines(record))
    assert sum("time ran out" in line for line in log) == 1 and sum("G1 (bot) " in line for line in log) == len(his) - 1
    mine = [step_text(s, record, me=1) for s in steps if s.action is not None and s.action.seat == 1]
    assert mine[0].startswith("You ") and all(t.startswith("G1 (bot) ") for t in mine[1:])

    app = ReplayApp(record, steps)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("right")
        await pilot.pause()
        assert "time ran out" in text_of(app, "#position")
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    last_bot = next(s for s in reversed(steps) if s.action is not None and s.action.seat == 1)
    assert "tempo scaduto" in step_text(steps[1], record) and "G1 (bot) " in step_text(last_bot, record)


async def test_a_server_bot_is_named_in_words_in_the_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    """A server game's record names its bot "medium-bot-1"; the replay (in Italian) says
    "Bot 1 (medio)", as the board and the lobby did, in the step line and on the board."""
    from scopa.client.text import i18n

    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    record = await game()
    players = [p.model_copy(update={"name": "medium-bot-1" if p.seat == 1 else "ada"}) for p in record.players]
    record = record.model_copy(update={"players": players})
    app = ReplayApp(record, steps_of(record), viewer="ada")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        shown = text_of(app, "#position") + text_of(app, "#board")
    assert "Bot 1 (medio)" in shown and "medium-bot-1" not in shown, shown


async def test_a_network_players_seat_is_marked_as_theirs_where_the_replay_speaks_to_them(monkeypatch) -> None:
    """Opened from a network game's end, the replay speaks to the person's seat as "tu"
    (Giochi, Cali, dai tu le carte): the seat list says that seat is theirs ("Marco (tu)"),
    and no other seat is so marked."""
    from scopa.client.text import i18n

    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    record = await game(5)
    record = record.model_copy(update={"players": [record.players[0].model_copy(update={"name": "Marco"}),
                                                   *record.players[1:]]})
    app = ReplayApp(record, steps_of(record), viewer="Marco")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        board = app.replay.board_text().plain
        assert app.replay.me == 0 and "Marco (tu)" in board and board.count("(tu)") == board.count("Marco"), board
