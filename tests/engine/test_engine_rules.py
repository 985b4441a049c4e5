"""Unit tests for the rules R1-R23 of RULES.md, each named with its id."""

from __future__ import annotations

import asyncio

import pytest
from conftest import c, cs, deal_order, m, masks, position

from scopa.bots import RandomBot
from scopa.engine import (
    CARDS,
    Card,
    CaptureMode,
    Category,
    EndReason,
    LocalGame,
    GameState,
    HandDealt,
    IllegalCaptureError,
    IllegalMoveError,
    Phase,
    Play,
    Player,
    RuleSet,
    RuleSetError,
    Suit,
    play_local,
    score_round,
    view,
)
from scopa.engine.cards import RE_BELLO, SETTEBELLO, parse_cards
from scopa.engine.master import MAX_REFUSALS
from scopa.engine.scoring import primiera_cards, primiera_sum

# ---------------------------------------------------------------- cards (R1-R4)


def test_R1_deck_has_forty_cards_four_suits_of_ten_ranks():
    """R1: 40 distinct cards; each suit has ten ranks; notation round-trips."""
    assert len(set(CARDS)) == 40
    for suit in Suit:
        ranks = sorted(card.value for card in CARDS if card.suit is suit)
        assert ranks == list(range(1, 11))
    for card in CARDS:
        assert Card.parse(str(card)) == card
    # French-suited aliases (R1): diamonds = Denari, hearts = Coppe, spades, clubs
    assert parse_cards("7♦ 7♥ 7♠ 7♣") == parse_cards("7d 7c 7s 7b")
    assert [x.suit for x in parse_cards("Ad Ac As Ab")] == [Suit.DENARI, Suit.COPPE, Suit.SPADE, Suit.BASTONI]
    with pytest.raises(ValueError):
        Card.parse("8x")


def test_R2_capture_values():
    """R2: Asso 1, 2..7 face value, Fante 8, Cavallo 9, Re 10."""
    assert [Card.parse(f"{r}c").value for r in "A234567FCR"] == list(range(1, 11))
    assert Card.parse("Kd").value == 10 and Card.parse("Jd").value == 8 and Card.parse("Qd").value == 9


def test_R3_primiera_values():
    """R3: 7=21, 6=18, A=16, 5=15, 4=14, 3=13, 2=12, F/C/R=10."""
    got = {r: Card.parse(f"{r}s").primiera for r in "A234567FCR"}
    assert got == {"7": 21, "6": 18, "A": 16, "5": 15, "4": 14, "3": 13, "2": 12, "F": 10, "C": 10, "R": 10}
    # best card per suit, summed
    assert primiera_sum(m("7d 6d 6c Ac 5s Rs Fb")) == 21 + 18 + 15 + 10
    assert primiera_sum(m("7d 7c 7s")) == 0  # a missing suit
    # the cards that make the sum: the best of each suit (the first of equal court cards), in suit order
    assert [str(c) for c in primiera_cards(m("7d 6d 6c Ac 5s Rs Fb Cb"))] == ["7d", "6c", "5s", "Fb"]
    assert [str(c) for c in primiera_cards(m("7d 7c 7s"))] == ["7d", "7c", "7s"]  # a missing suit: none of it


def test_R4_named_cards():
    """R4: settebello is the 7 of Denari, re bello the king of Denari."""
    assert SETTEBELLO == Card.parse("7d")
    assert RE_BELLO == Card.parse("Rd")


# ---------------------------------------------------------------- seats (R5, R6)


def test_R5_player_counts_and_sides():
    """R5: 2 and 3 players play alone; 4 and 6 in two teams by seat parity; 4 may play
    each alone; the deal divides evenly for 2, 3, 4 and 6."""
    assert [RuleSet.build(players=2).side_of(i) for i in range(2)] == [0, 1]
    assert [RuleSet.build(players=3).side_of(i) for i in range(3)] == [0, 1, 2]
    assert [RuleSet.build(players=4).side_of(i) for i in range(4)] == [0, 1, 0, 1]
    assert [RuleSet.build(players=6).side_of(i) for i in range(6)] == [0, 1, 0, 1, 0, 1]
    alone = RuleSet.build(players=4, teams=False)
    assert alone.num_sides == 4 and [alone.side_of(i) for i in range(4)] == [0, 1, 2, 3]
    for n in (2, 3, 4, 6):
        assert (40 - 4) % (3 * n) == 0
        RuleSet.build(players=n)
    with pytest.raises(RuleSetError):
        RuleSet.build(players=5)
    with pytest.raises(RuleSetError):
        RuleSet.build(players=3, teams=True)
    with pytest.raises(RuleSetError):
        RuleSet.build(players=6, teams=False)


def test_R6_seats_in_order_of_arrival_and_teams_by_parity():
    """R6: the players list is the seating; the seat to move is asked through its own
    Player object; teams come from seat parity."""
    asked: list[int] = []

    class Recorder(RandomBot):
        def __init__(self, seat: int) -> None:
            super().__init__(f"p{seat}", seed=seat)
            self.seat = seat

        def pick(self, v, legal):
            assert v.seat == self.seat and v.side == self.seat % 2
            asked.append(self.seat)
            return super().pick(v, legal)

    rules = RuleSet.build(players=4)
    gm = LocalGame(rules, [Recorder(i) for i in range(4)], seed=3)
    asyncio.run(gm.run())
    assert set(asked) == {0, 1, 2, 3}


def test_R7_game_master_refuses_bad_moves_and_tells_only_own_hand():
    """R7: the game master checks every move (refusing a cheat with a typed error and
    playing for the seat after repeated refusals) and tells each seat only its hand."""

    class Cheater(Player):
        name = "cheater"

        def __init__(self) -> None:
            self.errors: list[IllegalMoveError] = []
            self.hands_told: list[int] = []

        async def choose(self, v, legal):
            # a card from somebody else's hand (or garbage), never a legal move
            mine = {int(x) for x in v.hand}
            other = next(x for x in range(40) if x not in mine and CARDS[x] not in v.table)
            return Play(other, 0)

        async def notify(self, event):
            if isinstance(event, HandDealt):
                self.hands_told.append(event.seat)

        async def rejected(self, error):
            self.errors.append(error)

    cheater = Cheater()
    rules = RuleSet.build()
    record = asyncio.run(play_local(rules, [cheater, RandomBot(seed=1)], seed=5))
    assert record.reason is EndReason.TARGET
    assert cheater.errors and all(isinstance(e, IllegalMoveError) for e in cheater.errors)
    assert set(cheater.hands_told) == {0}
    # each refused turn lasted exactly MAX_REFUSALS answers before a forced play
    assert len(cheater.errors) % MAX_REFUSALS == 0


# ---------------------------------------------------------------- the deal (R8-R12)


def _play_round(s: GameState) -> tuple[list[int], list[int]]:
    """Play one round with the first legal play; returns the seats that played and the
    hand counts seen right after each deal."""
    seats: list[int] = []
    deals = [s.in_hands]
    round_no = s.round_no
    while s.phase is Phase.PLAY and s.round_no == round_no and len(s.history) < round_no:
        seats.append(s.to_move)
        before = s.in_hands
        s.apply(s.legal_plays()[0], s.to_move)
        if s.phase is Phase.PLAY and s.in_hands > before:
            deals.append(s.in_hands)
    return seats, deals


@pytest.mark.parametrize("n", [2, 3, 4, 6])
def test_R8_turn_order_and_dealer_rotation(n):
    """R8: the seat after the dealer plays first, the dealer last; the deal moves one
    seat each round."""
    rules = RuleSet.build(players=n)
    s = GameState.new(rules, 1)
    for expected_dealer in (1, 2 % n, 3 % n):
        assert s.phase is Phase.DEAL and s.dealer == expected_dealer
        s.apply(deal_order(rules, s.dealer, table="Ad 2d 3d 4d"))
        d = s.dealer
        seats, _ = _play_round(s)
        expected = [(d + 1 + k) % n for k in range(n)]
        assert len(seats) == 36
        for i in range(0, 36, n):
            assert seats[i : i + n] == expected
        if s.phase is Phase.OVER:
            break


def test_R8_first_dealer_is_seeded_random():
    """R8: the first dealer is chosen at random from the seed (same seed, same dealer)."""
    rules = RuleSet.build(players=4)
    bots = [RandomBot(seed=i) for i in range(4)]
    dealers = [LocalGame(rules, bots, seed).first_dealer for seed in range(30)]
    assert dealers == [LocalGame(rules, bots, seed).first_dealer for seed in range(30)]
    assert set(dealers) == {0, 1, 2, 3}


@pytest.mark.parametrize("n", [2, 3, 4, 6])
def test_R9_initial_deal_three_cards_each_four_on_table(n):
    """R9: each player gets 3 cards, 4 go face up on the table, starting after the dealer."""
    rules = RuleSet.build(players=n)
    s = GameState.new(rules, 0)
    s.apply(deal_order(rules, 0, hands={1: "7d 7c 7s"}, table="Ad 2d 3d 4d"))
    assert s.phase is Phase.PLAY
    assert all(h.bit_count() == 3 for h in s.hands)
    assert s.hands[1] == m("7d 7c 7s")
    assert s.table == m("Ad 2d 3d 4d")
    assert len(s.stock) == 40 - 4 - 3 * n
    assert s.to_move == 1


def test_R10_three_or_four_kings_void_the_deal_two_do_not():
    """R10: three or four kings on the initial table: redeal by the same dealer."""
    rules = RuleSet.build(players=3)
    for table, void in (("Rd Rc Rs Rb", True), ("Rd Rc Rs 5b", True), ("Rd Rc 5s 5b", False)):
        s = GameState.new(rules, 2)
        s.apply(deal_order(rules, 2, table=table))
        assert (s.phase is Phase.DEAL) is void, table
        assert s.dealer == 2
        assert s.round_no == (0 if void else 1)


@pytest.mark.parametrize("n,deals", [(2, 6), (3, 4), (4, 3), (6, 2)])
def test_R11_later_deals_count(n, deals):
    """R11: 3 more cards each while the stock lasts: 2 players 6 hands, 3: 4, 4: 3, 6: 2."""
    rules = RuleSet.build(players=n)
    s = GameState.new(rules, 0)
    s.apply(deal_order(rules, 0, table="Ad 2d 3d 4d"))
    _, dealt = _play_round(s)
    assert dealt == [3 * n] * deals


def test_R11_later_deal_starts_after_dealer_and_puts_nothing_on_table():
    """R11: the next 3 stock cards go to the seat after the dealer first; none to the table."""
    rules = RuleSet.build()
    s = position(rules, hands=["", "5c"], table="Rd", dealer=1, to_move=1,
                 stock="Ad 2d 3d 4d 5d 6d")
    s.apply(Play(c("5c"), 0), 1)
    assert s.hands == [m("Ad 2d 3d"), m("4d 5d 6d")]
    assert s.table == m("Rd 5c")
    assert s.stock == [] and s.to_move == 0


def test_R12_refill_each_turn():
    """R12: with refill, the player who just played draws one card while the stock lasts."""
    rules = RuleSet.build(refill_each_turn=True)
    s = position(rules, hands=["Ac 2c 3c", "Fb Cb Rb"], table="Rd", dealer=1, stock="4d")
    s.apply(Play(c("Ac"), 0), 0)
    assert s.hands[0] == m("2c 3c 4d")
    assert s.hands[1] == m("Fb Cb Rb")
    assert s.stock == [] and s.to_move == 1
    s.apply(Play(c("Fb"), 0), 1)  # stock empty: no draw
    assert s.hands[1] == m("Cb Rb")


def test_R12_refill_keeps_hands_at_three_through_a_round():
    """R12: hands stay at 3 while the stock lasts, then run down; no later deal of 3."""
    rules = RuleSet.build(refill_each_turn=True)
    s = GameState.new(rules, 0)
    s.apply(deal_order(rules, 0, table="Ad 2d 3d 4d"))
    while s.phase is Phase.PLAY and not s.history:
        seat = s.to_move
        had_stock = bool(s.stock)
        s.apply(s.legal_plays()[0], seat)
        if s.phase is Phase.PLAY and not s.history:
            if had_stock:
                assert s.hands[seat].bit_count() == 3
            assert all(h.bit_count() <= 3 for h in s.hands)
    assert s.history


# ---------------------------------------------------------------- a turn (R13-R19)


def test_R13_equal_rank_binds_and_player_chooses_which():
    """R13: one of several equal cards is captured (the player chooses); no sum instead."""
    s = position(RuleSet.build(), hands=["5b", "Rb"], table="5d 5c 2s 3s")
    assert masks(s.capture_options(0, c("5b"))) == cs("5d", "5c")


def test_R14_sum_capture_when_no_equal_card():
    """R14: with no equal card, any set of two or more cards summing to the value."""
    s = position(RuleSet.build(), hands=["5b", "Rb"], table="Ad 4c 2s 3s Rs")
    assert masks(s.capture_options(0, c("5b"))) == cs("Ad 4c", "2s 3s")


def test_R15_fewest_keeps_all_equally_small_sets():
    """R15 fewest: the fewest cards; among equally small sets the player chooses."""
    rules = RuleSet.build(capture_mode=CaptureMode.FEWEST)
    s = position(rules, hands=["7b", "Rb"], table="Ad 2c 4s 3s 5c")
    assert masks(s.capture_options(0, c("7b"))) == cs("2c 5c", "4s 3s")
    trad = position(RuleSet.build(), hands=["7b", "Rb"], table="Ad 2c 4s 3s 5c")
    assert masks(trad.capture_options(0, c("7b"))) == cs("2c 5c", "4s 3s", "Ad 2c 4s")


def test_R16_capture_is_compulsory_but_another_card_may_be_played():
    """R16: a card that can capture may not be laid down; a card that cannot is free."""
    s = position(RuleSet.build(), hands=["5b 9c", "Rb"], table="5d")
    plays = set(s.legal_plays())
    assert Play(c("5b"), 0) not in plays
    assert plays == {Play(c("5b"), m("5d")), Play(c("9c"), 0)}
    with pytest.raises(IllegalCaptureError):
        s.apply(Play(c("5b"), 0), 0)
    s.apply(Play(c("9c"), 0), 0)
    assert s.table == m("5d 9c")


def test_R17_discard_lays_card_on_table():
    """R17: a card that cannot capture goes face up on the table; nothing is captured."""
    s = position(RuleSet.build(), hands=["Rc 2c", "Rb"], table="Ad 5s")
    s.apply(Play(c("Rc"), 0), 0)
    assert s.table == m("Ad 5s Rc")
    assert s.piles == [0, 0] and s.to_move == 1 and s.hands[0] == m("2c")


def test_R18_scopa_on_sweep_but_not_on_partial_capture():
    """R18: a capture that empties the table scores a scopa (not on the last play, see E5)."""
    rules = RuleSet.build()
    s = position(rules, hands=["5b 2c", "Rb Cb"], table="2d 3d", stock="Ad 2b 3b 4b 5c 6c")
    s.apply(Play(c("5b"), m("2d 3d")), 0)
    assert s.scope == [1, 0] and s.last_scopa
    assert s.scopa_cards == [[c("5b")], []]
    s2 = position(rules, hands=["5b 2c", "Rb Cb"], table="2d 3d 7s", stock="Ad 2b 3b 4b 5c 6c")
    s2.apply(Play(c("5b"), m("2d 3d")), 0)
    assert s2.scope == [0, 0] and not s2.last_scopa


def test_R19_view_shows_piles_scope_and_counts_but_not_other_hands():
    """R19: captured cards and scope are public; another hand and the stock are not."""
    rules = RuleSet.build()
    s = position(rules, hands=["5b 2c", "Rb Cb"], table="2d 3d", stock="Ad 2b 3b 4b 5c 6c")
    s.apply(Play(c("5b"), m("2d 3d")), 0)
    v = view(s, 1)
    assert set(v.captured[0]) == set(parse_cards("5b 2d 3d"))
    assert v.pile_sizes == (3, 0)
    assert v.scope == (1, 0) and v.scopa_cards == ((Card.parse("5b"),), ())
    assert set(v.hand) == set(parse_cards("Rb Cb"))
    assert v.hand_sizes == (1, 2) and v.stock_left == 6
    assert Card.parse("2c") not in v.hand
    spectator = view(s, None)
    assert spectator.hand == () and spectator.captured == v.captured


# ---------------------------------------------------------------- scoring (R20-R23)


def test_R20_leftovers_go_to_last_capturer_and_are_no_scopa():
    """R20: table cards left after the last play go to the side that captured last."""
    rules = RuleSet.build()
    s = position(rules, hands=["", "Rc"], table="Ad 5s", dealer=1, to_move=1,
                 piles=["7d", "2c"], last_capturer=0)
    s.apply(Play(c("Rc"), 0), 1)
    assert s.leftovers == m("Ad 5s Rc")
    assert s.piles[0] == m("7d Ad 5s Rc")
    assert Category.SCOPE not in s.history[-1].breakdown[0]


def test_R20_leftovers_go_to_nobody_if_nobody_captured():
    """R20: if nobody captured at all, the leftovers go to nobody."""
    rules = RuleSet.build()
    s = position(rules, hands=["", "Rc"], table="Ad 5s", dealer=1, to_move=1)
    s.apply(Play(c("Rc"), 0), 1)
    assert s.piles == [0, 0]
    assert s.history[-1].points == (0, 0)


def _bd(score, side):
    return dict(score.breakdown[side])


def test_R21_each_category_to_one_side():
    """R21: carte, denari, settebello, primiera and scope, each to the side that earns it."""
    rules = RuleSet.build()
    p0 = m("7d 6d 5d Ad 7c 6s Fb Rb Cb 2b 3b 4b 5b 6b 7b Ab 2s 3s 4s 5s 7s")  # 21 cards
    p1 = m("2d 3d 4d Fd Cd Rd Ac 2c 3c 4c 5c 6c Fc Cc Rc As Fs Cs Rs")  # 19 cards
    score = score_round(rules, [p0, p1], [2, 1])
    assert _bd(score, 0) == {
        Category.CARTE: 1, Category.SETTEBELLO: 1, Category.PRIMIERA: 1, Category.SCOPE: 2,
    }
    # denari: side 1 has 6 Denari (2 3 4 F C R) against 4
    assert _bd(score, 1) == {Category.DENARI: 1, Category.SCOPE: 1}
    assert score.points == (5, 2)
    assert score.cards == (21, 19)


def test_R21_ties_give_the_point_to_nobody():
    """R21: a tie in carte, denari or primiera gives that point to nobody."""
    rules = RuleSet.build()
    # 20 cards and 5 Denari each; primiera 16+21+16+21 = 74 each
    p0 = m("Ad 2d 3d 4d 5d 6c 7c Fc Cc Rc As 2s 3s 4s 5s 6b 7b Fb Cb Rb")
    p1 = m("6d 7d Fd Cd Rd Ac 2c 3c 4c 5c 6s 7s Fs Cs Rs Ab 2b 3b 4b 5b")
    score = score_round(rules, [p0, p1], [0, 0])
    assert score.cards == (20, 20)
    assert score.primiera == (74, 74)
    assert _bd(score, 0) == {}
    assert _bd(score, 1) == {Category.SETTEBELLO: 1}
    # move one card: now side 1 has 21 cards and 6 Denari, and wins carte and denari
    score = score_round(rules, [p0 & ~m("5d"), p1 | m("5d")], [0, 0])
    assert _bd(score, 1) == {Category.SETTEBELLO: 1, Category.CARTE: 1, Category.DENARI: 1}


def test_R21_three_sides_tie_at_top_gives_nobody():
    """R21: with three players a tie between the two best gives nobody the point."""
    rules = RuleSet.build(players=3)
    score = score_round(rules, [m("Ad 2d 3d"), m("4d 5d 6d"), m("Ac")], [0, 0, 0])
    assert Category.CARTE not in _bd(score, 0) and Category.CARTE not in _bd(score, 1)
    assert Category.DENARI not in _bd(score, 0) and Category.DENARI not in _bd(score, 1)
    assert Category.CARTE not in _bd(score, 2)


def _end_of_round(totals, target=11):
    """A last play after which side 0 scores carte, denari, settebello, primiera (4)."""
    rules = RuleSet.build(target=target)
    s = position(rules, hands=["", "5c"], table="Fb", dealer=1, to_move=1,
                 piles=["7d 7c 7s 7b 6d Ad 2d 3d", "4c"], last_capturer=0, totals=totals)
    s.apply(Play(c("5c"), 0), 1)
    assert s.history[-1].points == (4, 0)
    return s


def test_R22_game_ends_when_a_side_reaches_the_target():
    """R22: reaching the target at the end of a round wins."""
    s = _end_of_round([8, 0])
    assert s.phase is Phase.OVER and s.winner == 0 and s.end_reason is EndReason.TARGET
    assert s.totals == [12, 0]


def test_R22_below_target_plays_another_round_with_next_dealer():
    """R22: under the target another round is dealt (R8: by the next seat)."""
    s = _end_of_round([6, 0])
    assert s.phase is Phase.DEAL and s.winner is None and s.dealer == 0
    assert s.totals == [10, 0]


def test_R22_tie_at_top_continues_and_highest_over_target_wins():
    """R22: a tie at the top means another round; two sides over: highest wins."""
    tied = _end_of_round([7, 11])
    assert tied.phase is Phase.DEAL and tied.totals == [11, 11] and tied.winner is None
    both = _end_of_round([10, 12])
    assert both.phase is Phase.OVER and both.winner == 0 and both.totals == [14, 12]


def test_R22_other_targets():
    """R22: 16, 21 and 31 are table options."""
    s = _end_of_round([13, 0], target=16)
    assert s.phase is Phase.OVER and s.winner == 0
    s = _end_of_round([13, 0], target=21)
    assert s.phase is Phase.DEAL
    with pytest.raises(RuleSetError):
        RuleSet.build(target=12)


def test_R23_teams_pool_cards_and_scope():
    """R23: partners (seats 0+2, 1+3) share one pile and one scopa count."""
    rules = RuleSet.build(players=4)
    s = position(rules, hands=["5b 9b", "Rb Cd", "Rc 7c", "2s Ac"], table="5d 2c", dealer=3)
    assert len(s.piles) == 2 and len(s.scope) == 2
    s.apply(Play(c("5b"), m("5d")), 0)
    s.apply(Play(c("Rb"), 0), 1)
    s.apply(Play(c("Rc"), m("Rb")), 2)
    assert s.piles == [m("5b 5d Rc Rb"), 0]
    s.apply(Play(c("2s"), m("2c")), 3)  # a sweep by seat 3
    s.apply(Play(c("9b"), 0), 0)
    s.apply(Play(c("Cd"), m("9b")), 1)  # a sweep by seat 1
    assert s.scope == [0, 2]
    assert s.piles[1] == m("2s 2c Cd 9b")


def test_R23_team_play_pools_in_a_whole_game():
    """R23: in a 6-player game every capture of seats 0, 2, 4 lands in side 0's pile."""
    rules = RuleSet.build(players=6)
    s = GameState.new(rules, 5)
    s.apply(deal_order(rules, 5, table="Ad 2d 3d 4d"))
    while s.phase is Phase.PLAY and not s.history:
        seat = s.to_move
        play = max(s.legal_plays(), key=lambda p: p.capture.bit_count())
        before = [p for p in s.piles]
        s.apply(play, seat)
        if play.capture and not s.history:
            side = seat % 2
            assert s.piles[side] == before[side] | play.capture | (1 << play.card)
            assert s.piles[1 - side] == before[1 - side]
    assert len(s.history[-1].points) == 2
