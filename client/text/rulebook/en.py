"""The rules for players, in plain words: the whole book (``scopa rules``, docs/RULES.md),
one preset, every table option (``scopa options``) and the rules of one table (the help
screen).  Option meanings come from :class:`~scopa.engine.RuleSet`'s own field
descriptions; this module adds the longer explanations players need."""

from __future__ import annotations

from scopa.engine import AssoPigliaTutto, CaptureMode, Category, DeclarationKind, Preset, RuleSet

from . import it as rulebook_it
from .reader import Reader, for_reader
from ..i18n import Lang, current_language

MARKED_BASICS = """\
## The cards

Scopa is played with a 40-card Italian deck: four suits of ten cards.

<!-- terminal -->
| Italian suit | French deck | letter (Italian) | letter (French) |
|---|---|---|---|
| Denari (coins) | ♦ diamonds | `d` | `d` |
| Coppe (cups) | ♥ hearts | `c` | `h` |
| Spade (swords) | ♠ spades | `s` | `s` |
| Bastoni (clubs) | ♣ clubs | `b` | `c` |
<!-- /terminal -->
<!-- page -->
| Italian suit | French deck |
|---|---|
| Denari (coins) | ♦ diamonds |
| Coppe (cups) | ♥ hearts |
| Spade (swords) | ♠ spades |
| Bastoni (clubs) | ♣ clubs |
<!-- /page -->

Each suit runs Asso (ace, worth 1), 2 to 7 at face value, Fante (jack, 8), Cavallo
(knight, 9; the queen in a French deck) and Re (king, 10). The 7 of Denari is the
**settebello**; the Re of Denari is the **re bello**.

<!-- terminal -->
To type a card, give its rank and its suit as shown on screen: with the Italian deck
`7d`, `7 Den` or `7 denari` is the settebello and `Rc` is the Re of Coppe; with the
French deck `7d` or `7♦` is the settebello and `Kc` is the king of clubs (♣).
<!-- /terminal -->

## Seats and sides

Two or three players each play alone. Four players play two against two and six play
three against three: partners sit opposite each other (seats 1 and 3 against 2 and 4)
and pool their captures. A four-player table may also be set to "each alone".

## The deal

The first dealer is drawn at random and the deal passes one seat on each round. In the
basic game each player gets three cards and four are laid face up on the table (a game
that deals otherwise says so in its own description: scopone deals nine each, all at
once, and never again). If three or four kings
show on the table, the deal is void and the same dealer shuffles and deals again. When
everyone has played their three cards, three more each are dealt (none to the table)
until the stock runs out. The player after the dealer plays first; the dealer plays
last.

## Your turn

Play one card from your hand.

- **Same value first.** If a table card has the same value as yours, you take it (one of
  them, your choice, if there are several) and not cards that add up to it: with a
  Cavallo in hand and Cavallo, 5 and 4 on the table, you take the Cavallo. That is the
  usual capture rule; the `free` capture rule, Frac, quindici, escoba and Cirulla let
  you take a sum (or a fifteen) instead.
- **Sums.** Otherwise, if two or more table cards add up to your card, you take them.
- **A capture is compulsory** for the card you play; you may still play another card
  that takes nothing.
- **Nothing to take:** the card is laid face up on the table.
- **Scopa.** Taking every card on the table is a *scopa*, worth a point, except with the
  very last card of the round.
- Everything captured is played in the open, so anyone can count each side's pile.

When several captures are possible the table's capture rule decides which you may take
(see *Options*).

## End of a round

Cards left on the table go to the side that captured last (never a scopa); if nobody
captured anything in the round, they go to nobody. Then each category below gives a
point to the side that wins it; a tie gives it to nobody:

- **Cards:** most cards taken.
- **Denari:** most coins taken.
- **Settebello:** whoever took the 7 of Denari.
- **Primiera:** the best primiera total. Take your best card in each suit and add up
  their primiera values: 7 is 21, 6 is 18, Asso 16, 5 is 15, 4 is 14, 3 is 13, 2 is 12
  and court cards 10. A side missing a whole suit cannot win it.
- **Scope:** a point for each scopa.

## End of the game

Rounds go on until, at the end of a round, a side has reached the target (11 unless the
table says otherwise). If several sides reach it, the highest total wins; if the highest
totals are equal (say 11 to 11), nobody has won yet and another round is played.

Some games also have an outright win (trentino, Cirulla): the side that makes it wins at
once, in the middle of the round, and the game ends there, without scoring that round.
"""
"""The basics, their parts for one reader only marked (see reader.py)."""

BASICS = for_reader(MARKED_BASICS, "terminal")
"""The basics as the terminal reads them."""

PRESET_TEXT: dict[Preset, str] = {
    Preset.SCOPA: "The classic game, as the basics describe it: two, three, four or six players, three "
                  "cards each, to 11.",
    Preset.SCOPONE: "Four players in two teams. Nine cards each and four on the table, all dealt at "
                    "once (no later deals). Played to 21.",
    Preset.SCOPONE_SCIENTIFICO: "Scopone a 10: four players in two teams, ten cards each and none on "
                                "the table, so the first player lays a card down. Played to 21.",
    Preset.QUINDICI: "Scopa a quindici: you capture when your card and the cards you take add up to 15 "
                     "(a 7 takes an 8; a Re takes a 5, or an Asso and a 4). The same-value rule does not "
                     "apply.",
    Preset.ESCOBA: "The Spanish cousin: captures by fifteen as in quindici, to 21, and two extra points: "
                   "one for most sevens and one more for taking all four.",
    Preset.CIRULLA: "The Ligurian game, to 51, with declared hands, the dealer's 15, the 7 of Coppe as a "
                    "wild card and the piccola and grande (see the Cirulla option).",
    Preset.FRAC: "Scopa Frac: only aces, Fanti, Cavalli and Re score, a point each (no scope, cards, "
                 "denari, settebello or primiera), and any valid capture may be chosen.",
    Preset.TRENTINO: "Scopone de trente: dealt as scopone, to 21; the Asso, 2 and 3 of Denari are worth "
                     "1, 2 and 3 points to whoever takes them, and a side that takes all three wins at once.",
}

CAPTURE_MODE_TEXT: dict[CaptureMode, str] = {
    CaptureMode.TRADITIONAL: "a same-value card must be taken first; among sums you pick any set you like.",
    CaptureMode.FEWEST: "you must take a capture with as few cards as possible (so a same-value card "
                        "first); among equally small sets you pick.",
    CaptureMode.FREE: "any capture, a single same-value card or any set that adds up, even when a "
                      "same-value card lies on the table.",
}

FIFTEEN_CAPTURE_TEXT: dict[CaptureMode, str] = {
    CaptureMode.TRADITIONAL: "any set of table cards that makes 15 with your card; you pick.",
    CaptureMode.FEWEST: "a set that makes 15 with your card with as few cards as possible; among "
                        "equally small sets you pick.",
    CaptureMode.FREE: "any set of table cards that makes 15 with your card; you pick.",
}
"""R15 under captures by fifteen (V6, V7), where no same-value rule applies."""

CAPTURE_MODE_NOTE = ("With captures by fifteen (quindici, escoba) there is no same-value rule: `traditional` "
                     "and `free` let you take any set that makes 15, `fewest` one with the fewest cards. "
                     "Cirulla has a capture rule of its own and takes no capture_mode.")

ASSO_TEXT: dict[AssoPigliaTutto, str] = {
    AssoPigliaTutto.OFF: "an ace is a card worth 1 like any other.",
    AssoPigliaTutto.SIMPLE: "an ace takes every card on the table, which counts as a scopa (not on the "
                            "round's last play); on an empty table it is laid down.",
    AssoPigliaTutto.TRADITIONAL: "as simple, but when an ace is already on the table, or when the ace is "
                                 "the round's first card, it takes only another ace.",
}

DECLARATION_NAMES: dict[DeclarationKind, str] = {
    DeclarationKind.UNDER_TEN: "under ten (3 points)",
    DeclarationKind.TRIS: "tris (10 points)",
}

CIRULLA_TEXT = """\
- **Redeal** if two or more aces show on the first table (instead of the kings rule).
- **Dealer's 15:** if the four table cards add up to 15 the dealer's side takes them and
  scores a scopa; if they add up to 30, two scope. The 7 of Coppe may count as any value.
- **Declared hands:** when your cards are dealt you may declare *under ten* (`under10`:
  the three add up to less than 10, 3 points) or *tris* (`tris`: three of one value,
  10 points); only the
  larger counts. Declaring shows your hand to everyone. The 7 of Coppe is wild for
  these, and keeps the value you gave it for your captures in that hand.
- **Captures:** by equal value or by sum, or by fifteen (your card plus the cards taken
  make 15); any valid capture may be chosen, even one with more cards than another. An
  ace takes the whole table unless an ace lies on it, or it may take a fifteen instead
  (or any other valid capture). The ace's sweep is not a scopa unless the same cards
  also make 15 with the ace. A wild 7 of Coppe declared as 1 acts as an ace.
- **Piccola:** Asso, 2 and 3 of Denari score 3; with the 4, 4; and so on up to the 6.
  **Grande:** Fante, Cavallo and Re of Denari score 5. A side that takes all ten Denari
  wins the game at once.
"""

# Longer explanations for options whose one-line description is not enough.
OPTION_NOTES: dict[str, str] = {
    "capture_mode": "\n".join([*(f"  - `{m.value}`: {t}" for m, t in CAPTURE_MODE_TEXT.items()),
                                f"  {CAPTURE_MODE_NOTE}"]),
    "asso_piglia_tutto": "\n".join(f"  - `{m.value}`: {t}" for m, t in ASSO_TEXT.items()),
    "napola": "  A side with Asso, 2 and 3 of Denari scores 3; with the 4 as well, 4; and so on up the run.",
    "ponino": "  Its scopa points of that round count twice.",
    "cirulla": CIRULLA_TEXT.rstrip(),
    "teams": "  Four players may play each alone; six players always play in two teams of three.",
}

OPTION_VALUES: dict[str, str] = {
    "preset": "|".join(p.value for p in Preset),
    "players": "2|3|4|6",
    "teams": "true|false",
    "hand_size": "1-20",
    "table_cards": "0-10",
    "capture_mode": "|".join(m.value for m in CaptureMode),
    "target": "11|16|21|31|51",
    "asso_piglia_tutto": "|".join(m.value for m in AssoPigliaTutto),
}

CATEGORY_NAMES: dict[Category, str] = {
    Category.CARTE: "Cards",
    Category.DENARI: "Denari",
    Category.SETTEBELLO: "Settebello",
    Category.PRIMIERA: "Primiera",
    Category.SCOPE: "Scope",
    Category.PONINO: "Ponino (scope doubled)",
    Category.NAPOLA: "Napola",
    Category.SEVENS: "Most sevens",
    Category.ALL_SEVENS: "All four sevens",
    Category.TRENTINO: "Trentino (A, 2, 3 of Denari)",
    Category.RE_BELLO: "Re bello",
    Category.HONOURS: "Aces and court cards",
    Category.PICCOLA: "Piccola",
    Category.GRANDE: "Grande",
    Category.DECLARATIONS: "Declared hands",
}
"""Player-facing names of the scoring categories; the dict's order is the fixed order of
the round-end screen."""

CAPTURE_MODE_NAMES: dict[CaptureMode, str] = {
    CaptureMode.TRADITIONAL: "Traditional (same value first)",
    CaptureMode.FEWEST: "Fewest cards",
    CaptureMode.FREE: "Free choice",
}


def category_names() -> dict[Category, str]:
    """The scoring categories' names in the terminal's language, in their fixed order."""
    return rulebook_it.CATEGORY_NAMES if current_language() == "it" else CATEGORY_NAMES


def declaration_names() -> dict[DeclarationKind, str]:
    """The declarations' names in the terminal's language."""
    return rulebook_it.DECLARATION_NAMES if current_language() == "it" else DECLARATION_NAMES


def option_lines() -> list[tuple[str, str, str]]:
    """``(name, values, meaning)`` for every table option, from RuleSet's fields."""
    out = []
    for name, field in RuleSet.model_fields.items():
        values = OPTION_VALUES.get(name, "true|false" if field.annotation is bool else "")
        out.append((name, values, field.description or ""))
    return out


def options_text() -> str:
    """What ``scopa options`` prints: every option, its values and its meaning (in the
    terminal's language)."""
    if current_language() == "it":
        return rulebook_it.options_text(OPTION_VALUES)
    lines = ["Table options: set any of them with -o NAME=VALUE (scopa local, scopa play, scopa bot).", ""]
    for name, values, meaning in option_lines():
        lines.append(f"{name} ({values})" if values else name)
        lines.append(f"    {meaning}")
        note = OPTION_NOTES.get(name)
        if note:
            lines.extend("    " + ln.strip() for ln in note.splitlines())
    lines += ["", "The table's own settings are not options of the rules: a turn timer (turn_timeout, up to the server's) "
              "and a private table (not listed, joined with its invite) are asked by the form that opens a table "
              "(c in scopa play's lobby, or the full-screen one)."]
    return "\n".join(lines) + "\n"


def _settings(p: Preset) -> str:
    rules = RuleSet.build(p)
    return rules.describe()


def preset_section(p: Preset) -> str:
    return f"### `{p.value}`\n\n{PRESET_TEXT[p]}\n\nSettings: {_settings(p)}.\n"


def book(lang: Lang = "en", reader: Reader = "terminal") -> str:
    """The whole rule book, in Markdown (docs/RULES.md is this text; in Italian,
    docs/RULES.it.md); ``reader="page"``: the browser page's, which picks games and options
    in its create form, under the form's names, and types no cards."""
    if lang == "it":
        return rulebook_it.book(OPTION_VALUES, reader)
    parts = ["# Scopa: the rules\n", "How to play Scopa and every variant this program offers.\n",
             for_reader(MARKED_BASICS, reader)]
    if reader == "page":
        parts.append("## Games by name\n\nPick one as the Game in the create-table form.\n")
    else:
        parts.append("## Games by name\n\nPick one with `--rules NAME` (or in the create-table form).\n")
    parts.extend(preset_section(p) for p in Preset)
    if reader == "page":
        parts.append("## Options\n\nEach option is set in the create-table form, under More options. "
                     "Combinations that make no sense are refused with the reason.\n")
    else:
        parts.append("## Options\n\nEvery option can be set with `-o NAME=VALUE`; `scopa options` lists them. "
                     "Combinations that make no sense are refused with the reason.\n")
    for name, values, meaning in option_lines():
        if reader == "page":
            head = f"- **{PAGE_OPTION_NAMES.get(name, name.replace('_', ' '))}**: {meaning}."
        else:
            head = f"- `{name}`" + (f" ({values})" if values else "") + f": {meaning}."
        note = OPTION_NOTES.get(name)
        parts.append(head + ("\n" + _indent(note) if note else ""))
    parts.append("\n## Cirulla in detail\n\n" + CIRULLA_TEXT)
    parts.append("## The round-end screen\n\nThe categories always come in this order: "
                 + ", ".join(CATEGORY_NAMES.values()) + ". Only those the table plays appear.\n")
    return "\n".join(parts)


PAGE_OPTION_NAMES = {"preset": "Game", "players": "Players"}
"""Options the page's create form names in words of its own (the others: their names,
spaces for underscores)."""


def _indent(note: str) -> str:
    return "\n".join("  " + ln.strip() if not ln.startswith("  ") else ln for ln in note.splitlines())


def preset_rules(p: Preset, lang: Lang = "en") -> str:
    """``scopa rules PRESET``: the basics, then that game's own rules."""
    if lang == "it":
        return rulebook_it.preset_rules(p)
    return f"# {p.value}\n\n{PRESET_TEXT[p]}\n\nSettings: {_settings(p)}.\n\n{table_rules(RuleSet.build(p))}\n{BASICS}"


def table_rules(rules: RuleSet) -> str:
    """The rules of one table in a few lines (the help screen's top): what differs from
    the classic game is spelled out."""
    sides = "two teams, partners opposite" if rules.has_teams else "each alone"
    lines = [
        f"- {rules.players} players, {sides}; a side with {rules.target} points or more at the end of a "
        "round wins (the highest total if several have; if the highest totals are equal, another round "
        "is played).",
        f"- Deal: {rules.hand_size} cards each, {rules.table_cards} on the table."
        + (" You draw a card after each play." if rules.refill_each_turn else ""),
    ]
    if rules.quindici:
        lines.append(f"- When several captures are possible: {FIFTEEN_CAPTURE_TEXT[rules.capture_mode]}")
    elif not rules.cirulla:
        mode = rules.capture_mode
        lines.append(f"- When several captures are possible ({CAPTURE_MODE_NAMES[mode]}): {CAPTURE_MODE_TEXT[mode]}")
    for name, field in RuleSet.model_fields.items():
        if field.annotation is bool and name not in ("refill_each_turn",) and getattr(rules, name):
            lines.append(f"- {field.description}.")
    if rules.asso_piglia_tutto is not AssoPigliaTutto.OFF:
        lines.append(f"- Asso piglia tutto ({rules.asso_piglia_tutto.value}): {ASSO_TEXT[rules.asso_piglia_tutto]}")
    if rules.cirulla:
        lines.append(CIRULLA_TEXT.rstrip())
    return "\n".join(lines) + "\n"
