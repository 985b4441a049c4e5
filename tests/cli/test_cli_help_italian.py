"""The `scopa` command's help speaks the language the rest of the command does: under an
Italian locale (or with ``--lang it``) every usage line, description, group title and
option help is Italian, argparse's own words too; ``scopa options`` speaks it and takes
``--lang`` like the other commands."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

import pytest

from scopa.cli import build_parser, helptext, main
from scopa.client.text import i18n

from paths import ROOT

pytestmark = pytest.mark.unit

SAME_IN_BOTH = {"COMMAND"}


def _texts(parser: argparse.ArgumentParser) -> list[str]:
    """Every text of ``parser`` and its subcommands a person reads in the help."""
    said: list[str] = []
    for p in helptext.parsers(parser):
        said += [p.description or ""] + [g.title or "" for g in p._action_groups]
        for action in p._actions:
            said.append(action.help or "")
            if isinstance(action, argparse._SubParsersAction):
                said += [c.help or "" for c in action._choices_actions]
    return said


@pytest.fixture
def italian(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    monkeypatch.setattr(argparse, "_", argparse._)  # type: ignore[attr-defined]
    monkeypatch.setattr(argparse, "ngettext", argparse.ngettext)


def test_every_help_text_of_every_command_has_its_italian(italian: None) -> None:
    i18n.set_language("en")
    english = _texts(build_parser())
    i18n.set_language("it")
    helptext.speak_argparse()
    italian_texts = _texts(helptext.translate(build_parser()))
    untranslated = [en for en, it in zip(english, italian_texts, strict=True)
                    if en and en == it and en not in SAME_IN_BOTH]
    assert untranslated == []


def test_help_and_errors_are_italian_under_an_italian_locale(italian: None,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    out = capsys.readouterr().out
    assert out.startswith("uso: scopa serve") and "mostra questo aiuto ed esce" in out
    assert "address to listen on" not in out and "indirizzo su cui ascoltare" in out
    with pytest.raises(SystemExit):
        main(["local", "--bogus"])
    assert "errore: argomenti non riconosciuti: --bogus" in capsys.readouterr().err


def test_lang_on_the_command_line_chooses_the_help_s_language(monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "en")
    monkeypatch.setattr(argparse, "_", argparse._)  # type: ignore[attr-defined]
    with pytest.raises(SystemExit):
        main(["local", "--lang", "it", "--help"])
    assert "numero di giocatori" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["local", "--lang=en", "--help"])
    assert "number of players" in capsys.readouterr().out


@pytest.mark.process
def test_scopa_options_speaks_the_locale_and_takes_lang() -> None:
    for env, args, first in ((dict(os.environ, LANG="it_IT.UTF-8", LC_ALL=""), [], "Opzioni del tavolo"),
                             (dict(os.environ, LANG="en_US.UTF-8", LC_ALL=""), ["--lang", "it"], "Opzioni del tavolo"),
                             (dict(os.environ, LANG="it_IT.UTF-8", LC_ALL=""), ["--lang", "en"], "Table options"),
                             (dict(os.environ, LANG="it_IT.UTF-8", LC_ALL=""), [], "Opzioni del tavolo")):
        done = subprocess.run([sys.executable, "-m", "scopa.cli", "options", *args], env=env, cwd=str(ROOT),
                              capture_output=True, text=True, timeout=60, check=True)
        assert done.stdout.startswith(first), done.stdout
    assert "il gioco classico di cui il tavolo prende le regole; se cambi un'opzione diventa un gioco tuo" in done.stdout


PLACEHOLDERS = {"NAME": "NOME", "NAMES": "NOMI", "PORT": "PORTA", "MODULE": "MODULO", "CLASS": "CLASSE",
                "VALUE": "VALORE", "KINDS": "TIPI", "DIR": "CARTELLA", "PATH": "PERCORSO", "INVITE": "INVITO",
                "FINGERPRINT": "IMPRONTA", "SEED": "MESCOLATA", "ADDRESS": "INDIRIZZO", "PREFIX": "PREFISSO",
                "COMMAND": "COMANDO", "PRESET": "GIOCO"}
"""The words of the help's placeholders (``--name NAME``, ``tls://HOST:PORT``) and their Italian."""


def _helps() -> str:
    """Every command's whole --help, in the language in effect."""
    return "\n".join(p.format_help() for p in helptext.parsers(helptext.translate(build_parser())))


@pytest.mark.parametrize("lang", ["it", "en"])
def test_the_placeholders_are_in_one_language(italian: None, lang: i18n.Lang) -> None:
    """Italian help says ``--server HOST:PORTA``, as its texts write ``tls://HOST:PORTA``
    (``--name NOME``, ``--seed MESCOLATA``); the English help has no Italian placeholder."""
    import re

    i18n.set_language(lang)
    helptext.speak_argparse()
    words = set(re.findall(r"\b[A-Z][A-Z_]+\b", _helps()))
    other = set(PLACEHOLDERS) if lang == "it" else set(PLACEHOLDERS.values())
    assert sorted(words & other) == []
    assert set(PLACEHOLDERS.values() if lang == "it" else PLACEHOLDERS) <= words
