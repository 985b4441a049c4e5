"""`scopa local` in a terminal whose locale is Italian (LANG=it_IT.UTF-8), through a
pseudo-terminal as a person sees it: the board, the prompt and the play list speak
Italian."""

from __future__ import annotations

import os
import re
import sys
import time

import pexpect
import pytest

from procs import ROOT, end_child

pytestmark = pytest.mark.process


def shows(child: pexpect.spawn, words: str, within: float = 30.0) -> None:
    """Wait until the screen has shown ``words`` (escape codes and spacing aside)."""
    seen = ""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            child.expect(pexpect.TIMEOUT, timeout=0.2)
        except pexpect.EOF:
            break
        seen = child.before  # all shown so far: a timeout leaves pexpect's buffer whole
        if words in " ".join(re.sub(r"\x1b\[[0-9;?>$]*[A-Za-z]", " ", seen).split()):
            return
    raise AssertionError(f"never shown: {words!r}")


def test_the_board_speaks_italian_under_an_italian_locale() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_")}
    env.update(LANG="it_IT.UTF-8", TERM="xterm-256color", COLUMNS="100", LINES="30")  # the pty's size, whatever pytest's is
    child = pexpect.spawn(sys.executable, ["-m", "scopa.cli", "local", "--seats", "human,greedy", "--seed", "4",
                                           "--delay", "0", "--name", "nonna"],
                          cwd=str(ROOT), env=env, encoding="utf-8", codec_errors="replace", timeout=30,
                          dimensions=(30, 100))
    try:
        shows(child, "La tua mano")
        shows(child, "Tocca a te: premi")
        child.send("1")
        shows(child, "Tu: 4 Bas")  # the round's plays: what you played (seed 4: the 4 of Bastoni)
        child.send("q")
        shows(child, "Lasci la partita?")
        child.send("s")  # sì
        child.expect(pexpect.EOF)
    finally:
        end_child(child)


def test_the_full_screen_game_writes_its_record_and_the_seed_line_is_whole_at_80_columns(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """``--record`` works in the full-screen client too (the README's example); the lines it
    prints once it has left the screen fit 80 columns, the seed to replay on a line of its own."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_")}
    env.update(LANG="it_IT.UTF-8", TERM="xterm-256color", COLUMNS="80", LINES="24")
    record = tmp_path / "game.json"
    child = pexpect.spawn(sys.executable, ["-m", "scopa.cli", "local", "--seats", "greedy,random", "--seed",
                                           "1360852028", "--delay", "0", "--record", str(record)],
                          cwd=str(ROOT), env=env, encoding="utf-8", codec_errors="replace", timeout=60,
                          dimensions=(24, 80))
    try:
        shows(child, "Invio per uscire", within=60)
        child.send("\r")
        child.expect(pexpect.EOF)
        after = re.sub(r"\x1b\[[0-9;?]*[a-zA-Z]", "", child.before.rsplit("\x1b[?1049l", 1)[-1])
    finally:
        end_child(child)
    lines = [ln for ln in after.replace("\r", "").split("\n") if ln.strip()]
    assert "Mescolata numero 1360852028: per rigiocarla, --seed 1360852028" in lines, lines
    assert all(len(ln) <= 80 for ln in lines), lines
    assert any(ln.startswith("partita registrata in") for ln in lines), lines
    assert '"seed":1360852028' in record.read_text(encoding="utf-8").replace(" ", "")


def test_lang_it_speaks_italian_under_an_english_locale() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_")}
    env.update(LANG="en_GB.UTF-8", TERM="xterm-256color", COLUMNS="100", LINES="30")  # the pty's size, whatever pytest's is
    child = pexpect.spawn(sys.executable, ["-m", "scopa.cli", "local", "--lang", "it", "--seats", "human,greedy",
                                           "--seed", "4", "--delay", "0", "--name", "nonna"],
                          cwd=str(ROOT), env=env, encoding="utf-8", codec_errors="replace", timeout=30,
                          dimensions=(30, 100))
    try:
        shows(child, "La tua mano")
        child.send("q")
        shows(child, "Lasci la partita?")
        child.send("s")
        child.expect(pexpect.EOF)
    finally:
        end_child(child)


def local_game(*args: str, size: tuple[int, int] = (30, 100)) -> pexpect.spawn:
    """``scopa local --lang it`` in a pty of ``size`` (lines, columns)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_")}
    env.update(LANG="C.UTF-8", TERM="xterm-256color", COLUMNS=str(size[1]), LINES=str(size[0]))
    return pexpect.spawn(sys.executable, ["-m", "scopa.cli", "local", "--lang", "it", "--seats", "human,greedy",
                                          "--seed", "4", "--delay", "0", "--name", "nonna", *args],
                         cwd=str(ROOT), env=env, encoding="utf-8", codec_errors="replace", timeout=30,
                         dimensions=size)


@pytest.mark.parametrize("plain", [False, True], ids=["full-screen", "plain"])
def test_a_local_bot_is_named_by_the_kind_chosen(plain: bool) -> None:
    """"Bot 1 (avido)" for the greedy bot asked for: numbered as a server's bot, named by
    the kind chosen in Italian, never a level it was not asked as ("medio") nor the
    strategy's raw name ("Greedy 2")."""
    child = local_game(*(["--plain"] if plain else []))
    try:
        shows(child, "Bot 1 (avido)")
        assert "Greedy" not in child.before and "medio" not in child.before
    finally:
        end_child(child)


def test_rules_that_do_not_work_are_said_why_in_italian() -> None:
    child = local_game("-o", "frac=true", "-o", "napola=true")
    try:
        child.expect(pexpect.EOF)
        said = " ".join(re.sub(r"\x1b\[[0-9;]*m", "", child.before).split())  # said, and ended
        assert "Queste regole non funzionano: Frac conta solo assi e figure" in said
        assert "a Frac la presa è a scelta" in said and "frac scores" not in said
    finally:
        end_child(child)


def test_the_plain_local_game_says_you_deal_to_you() -> None:
    """Seed 1: you deal the first round; "dà le carte Tu" spoke of you in the third person."""
    child = local_game("--plain", "--seed", "1")
    try:
        child.expect("La tua mossa: ")
        said = " ".join(re.sub(r"\x1b\[[0-9;]*m", "", child.before).split())
        assert "Smazzata 1: dai tu le carte" in said.replace("Dai", "dai") and "dà le carte Tu" not in said
    finally:
        end_child(child)
