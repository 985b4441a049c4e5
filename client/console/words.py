"""The command words of the plain client's prompts, one table per language: the lobby's
(``LOBBY``), its ``t`` tournament commands (``TOURNAMENT``) and the move prompt's
(``TABLE``), with the answers to a yes/no question (``ANSWERS``).  A prompt takes the
words of every language, whatever the terminal speaks: the keys its lists show (``q``,
``j ID``) work in Italian too, and ``esci`` in English."""

from __future__ import annotations

from collections.abc import Mapping

from ..text.i18n import LANGS, Lang

Words = Mapping[str, frozenset[str]]
"""A prompt's commands, each with the words that say it."""

LOBBY: Mapping[Lang, Words] = {
    "en": {
        "quit": frozenset({"q", "quit", "exit"}),
        "refresh": frozenset({"r", "refresh", "l", "list", ""}),
        "help": frozenset({"?", "h", "help"}),
        "play": frozenset({"p", "play", "now"}),
        "create": frozenset({"c", "create", "new"}),
        "join": frozenset({"j", "join"}),
        "watch": frozenset({"w", "watch"}),
        "tournaments": frozenset({"t", "tournament", "tournaments"}),
        "leaderboard": frozenset({"b", "board", "leaderboard"}),
    },
    "it": {
        "quit": frozenset({"esci", "fine"}),
        "refresh": frozenset({"aggiorna", "elenco", "lista"}),
        "help": frozenset({"aiuto"}),
        "play": frozenset({"gioca", "subito"}),
        "create": frozenset({"crea", "apri", "nuovo"}),
        "join": frozenset({"siediti", "entra"}),
        "watch": frozenset({"guarda"}),
        "tournaments": frozenset({"torneo", "tornei"}),
        "leaderboard": frozenset({"classifica"}),
    },
}

TOURNAMENT: Mapping[Lang, Words] = {
    "en": {
        "": frozenset({"list", "ls"}),
        "join": frozenset({"join", "j", "register"}),
        "leave": frozenset({"leave", "l"}),
        "start": frozenset({"start"}),
        "standings": frozenset({"standings", "s"}),
        "done": frozenset({"done", "d", "finished"}),
    },
    "it": {
        "": frozenset({"elenco", "lista"}),
        "join": frozenset({"iscriviti", "iscrivimi"}),
        "leave": frozenset({"ritirati", "ritirami"}),
        "start": frozenset({"inizia", "avvia"}),
        "standings": frozenset({"classifica"}),
        "done": frozenset({"finiti"}),
    },
}

TABLE: Mapping[Lang, Words] = {
    "en": {
        "help": frozenset({"?", "help"}),
        "chat": frozenset({"chat"}),
        "leave": frozenset({"leave", "q", "quit", "exit"}),
    },
    "it": {
        "help": frozenset({"aiuto"}),
        "chat": frozenset({"scrivi"}),
        "leave": frozenset({"esci"}),
    },
}

ANSWERS: Mapping[Lang, Words] = {
    "en": {"yes": frozenset({"y", "yes"}), "no": frozenset({"n", "no"})},
    "it": {"yes": frozenset({"s", "si", "sì"}), "no": frozenset({"n", "no"})},
}


def command_of(word: str, table: Mapping[Lang, Words]) -> str | None:
    """The command ``word`` says at a prompt whose words are ``table`` (in any language,
    any case); None: none of them."""
    typed = word.strip().lower()
    for lang in LANGS:
        for command, words in table[lang].items():
            if typed in words:
                return command
    return None


def words_for(command: str, table: Mapping[Lang, Words]) -> frozenset[str]:
    """Every word that says ``command`` at a prompt whose words are ``table``."""
    return frozenset().union(*(table[lang].get(command, frozenset()) for lang in LANGS))
