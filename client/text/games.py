"""The game a table plays, in words: its classic name ("Scopa", "Cirulla", or "custom")
and its settings line ("Scopa, 2p, to 11"), in the client's language."""

from __future__ import annotations

from scopa.engine import EndReason, Preset, RuleSet, preset_of

from .catalog import setting_text
from .i18n import LANGUAGE, tr


PRESET_NAMES: dict[Preset, str] = {
    Preset.SCOPA: "Scopa",
    Preset.SCOPONE: "Scopone",
    Preset.SCOPONE_SCIENTIFICO: "Scopone scientifico",
    Preset.QUINDICI: "Scopa a quindici",
    Preset.ESCOBA: "Escoba",
    Preset.CIRULLA: "Cirulla",
    Preset.FRAC: "Scopa Frac",
    Preset.TRENTINO: "Scopone de trente",
}
"""The classic games as players call them."""


def matching_preset(rules: RuleSet) -> Preset | None:
    """The classic game these rules are, option for option (None: a custom game)."""
    return preset_of(rules)


def rules_name(rules: RuleSet) -> str:
    """The game's name for a title: a classic game's own ("Scopa"), else "custom"."""
    preset = matching_preset(rules)
    if preset is not None:
        return PRESET_NAMES[preset]
    if rules.preset is not None:
        return tr("custom ({game} changed)", game=PRESET_NAMES[rules.preset])
    return tr("custom")


def rules_line(rules: RuleSet) -> str:
    """The game's name, then its settings (e.g. "Scopa, 2p, to 11")."""
    settings = rules.describe().split(", ")[1:]  # the first item is the preset's code name
    if LANGUAGE == "it":
        settings = [_settings_it(part) for part in settings]
    return ", ".join([rules_name(rules), *settings])


def _settings_it(part: str) -> str:
    """One item of a table's settings in Italian: ``2p`` ``2 giocatori``, ``to 11`` ``a 11``."""
    words = part.split()
    if part.endswith("p") and part[:-1].isdigit():
        return tr("{n} players", n=part[:-1])
    if words[0] == "to":
        return tr("to {n}", n=words[1])
    if words[0].endswith("p") and words[1:] == ["teams"]:
        return tr("{n} players in teams", n=words[0][:-1])
    return setting_text(part)


END_REASONS: dict[EndReason, str] = {
    EndReason.TARGET: "target reached",
    EndReason.TRENTINO: "Asso, 2 and 3 of Denari",
    EndReason.ALL_DENARI: "all ten Denari",
    EndReason.ABANDONED: "abandoned",
}
"""Why a game ended, in English: :func:`end_reason_text` gives it in the terminal's language."""


def end_reason_text(reason: EndReason) -> str:
    """Why a game ended, in the terminal's language."""
    return tr(END_REASONS[reason])
