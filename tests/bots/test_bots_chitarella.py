"""``chitarella``: the traditional rules of thumb, each seen in a position built for it
(R18 scopa, R21 the settebello's point, teams in scopone)."""

from __future__ import annotations

from conftest import m, position

from scopa.bots import ChitarellaBot, make_bot
from scopa.engine import Card, Play, RuleSet, view


def _pick(s, bot=None) -> Play:
    bot = bot or ChitarellaBot()
    move = bot.pick(view(s, s.to_move), s.legal_plays())
    assert isinstance(move, Play)
    return move


def _card(text: str) -> int:
    return int(Card.parse(text))


def test_it_never_lays_the_settebello_where_a_seven_takes_it_R21() -> None:
    """Neither card can take anything: laying the settebello would hand it to a 7."""
    s = position(RuleSet.build("scopa"), ["7d Rc", "Ab 2b"], table="5s 4b", stock="")
    assert _pick(s) == Play(_card("Rc"), 0)


def test_it_takes_the_settebello_rather_than_more_cards_R21() -> None:
    s = position(RuleSet.build("scopa"), ["7c 6s", "Ab 2b"], table="7d 4b 2c 3s", stock="")
    move = _pick(s)
    assert move.card == _card("7c") and move.capture & m("7d")


def test_it_sweeps_when_it_can_R18() -> None:
    s = position(RuleSet.build("scopa"), ["7c 6s Rb", "Ab 2b 3b"], table="4b 3s", stock="Fc Fs")
    assert _pick(s) == Play(_card("7c"), m("4b 3s"))


def test_it_does_not_leave_a_scopa_to_the_next_player_R18() -> None:
    """Laying the 2 leaves 3 + 2 = 5 for an opponent with any of the unseen fives; the
    Re leaves 13, which nothing sweeps."""
    s = position(RuleSet.build("scopa"), ["2c Rs", "Ab Cb"], table="3b", stock="Fc Fs 5c 5s 5b")
    assert _pick(s) == Play(_card("Rs"), 0)


def test_it_keeps_the_seven_sum_off_the_table_while_the_settebello_is_out() -> None:
    """The settebello is unseen: laying the 3 on the 4 leaves seven for it to take."""
    s = position(RuleSet.build("scopa"), ["3c Cs", "Ab 2b"], table="4b Rc", stock="7d Fs")
    assert _pick(s) == Play(_card("Cs"), 0)


def test_in_scopone_it_leaves_the_partners_card_for_the_partner() -> None:
    """Seat 0 laid the 4 of Coppe (by the convention: "I hold another 4"); seat 2, its
    partner, could take it with the 4 of Bastoni but lays the Re and leaves it to seat 0."""
    rules = RuleSet.build("scopone")
    s = position(rules, ["4c 4s", "Fs 2s", "4b Rb", "5c 6c"], table="Cd", stock="", dealer=3, to_move=0, plays=0)
    s.push(Play(_card("4c"), 0))  # the table: Cd 4c
    s.push(Play(_card("Fs"), 0))  # the table: Cd 4c Fs (21: nothing sweeps it)
    assert Play(_card("4b"), m("4c")) in s.legal_plays()
    assert _pick(s, make_bot("chitarella")) == Play(_card("Rb"), 0)
    # with no partner to leave it to (two players) the same 4 is taken
    two = position(RuleSet.build("scopa"), ["4b Rb", "5c 6c"], table="Cd 4c Fs", stock="", to_move=0)
    assert _pick(two) == Play(_card("4b"), m("4c"))
