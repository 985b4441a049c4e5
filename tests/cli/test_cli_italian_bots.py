"""The plain client names the bots' levels in Italian under an Italian locale, as the
full-screen client does ("Bot 1 (medio)"): the question for a new table's bots offers
"facile, medio, difficile" and takes them typed so; ``scopa local --plain --seats``
takes them too ("facile"), and a seat it cannot read is said with them.  Through pseudo-terminals."""

from __future__ import annotations

import os
import subprocess
import sys

import pexpect
import pytest

from paths import ROOT
from serverthread import ServerThread
from test_cli_play import spawn, to_the_bots_question
from procs import end_child

pytestmark = pytest.mark.process

ENGLISH_LEVELS = ["easy", "medium", "hard", "greedy", "random"]


def italian() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES")}
    return dict(env, LANG="it_IT.UTF-8", TERM="dumb", COLUMNS="160")


def test_the_bots_for_a_new_table_are_offered_and_taken_in_italian() -> None:
    with ServerThread() as server:
        child = spawn(server, "--name", "nonna", "--lang", "it")
        try:
            to_the_bots_question(child, lobby="Sala> ")
            child.expect(r"Bot per l'altro posto: (.*?); vuoto = aspetta una persona")
            assert child.match[1] == "facile, medio, difficile"
            child.sendline("robot")
            child.expect(r"'robot' non è un bot; scegli tra: facile, medio, difficile \(o lascia vuoto\)")
            child.sendline("medio")
            child.expect("Il tavolo 1 è aperto")
            child.expect(r"Bot 1 \(medio\)")
            child.expect("La tua mossa: ")
            said = " ".join(child.before.split())
            assert not [w for w in ENGLISH_LEVELS if f"({w})" in said or f" {w}," in said], said
        finally:
            child.terminate(force=True)


def test_scopa_local_takes_a_level_in_italian_and_says_a_bad_seat_in_italian() -> None:
    """A person's seat typed in Italian too (umano), and a bot's level (facile)."""
    child = pexpect.spawn(sys.executable, ["-m", "scopa.cli", "local", "--plain", "--seed", "5",
                                           "--seats", "umano,facile", "--name", "nonna"],
                          cwd=str(ROOT), env=italian(), encoding="utf-8", timeout=30, dimensions=(50, 160))
    try:
        child.expect(r"Posti: nonna, Bot 1 \(facile\)")
        child.expect("La tua mossa: ")
        child.sendintr()
        child.expect(pexpect.EOF)
    finally:
        end_child(child)
    bad = subprocess.run([sys.executable, "-m", "scopa.cli", "local", "--plain", "--seats", "human,robot"],
                         cwd=ROOT, env=italian(), capture_output=True, text=True, timeout=60,
                         stdin=subprocess.DEVNULL)
    said = " ".join(bad.stdout.split())
    assert bad.returncode == 2
    assert "'robot' non può sedersi al tavolo" in said and "(facile, medio, difficile)" in said, said
    assert "unknown seat kind" not in said and "easy, medium, hard" not in said


@pytest.mark.parametrize(("players", "said"), [("2", "solo 1 posto da riempire, 2 bot nominati"),
                                                ("4", "solo 3 posti da riempire, 4 bot nominati")])
def test_too_many_bots_named_says_posto_or_posti_by_number(players: str, said: str) -> None:
    """Naming more bots than the new table has empty seats: the hint counts the seats as
    Italian does, "1 posto" and "3 posti" (no "posto/i")."""
    with ServerThread() as server:
        child = spawn(server, "--name", "nonna", "--lang", "it")
        try:
            child.expect("Sala> ")
            child.sendline("c")
            for answer in ("", players, "", "", "", "", ""):  # ... other options, private, turn timer
                child.expect(r"\]: ")
                child.sendline(answer)
            child.expect(r"Bot \[nessuno\]: ")
            child.sendline(",".join(["facile"] * (int(players))))
            child.expect(r"solo \d+ post\S+ da riempire, \d+ bot nominati")
            assert child.after == said
            child.sendline("")
            child.expect("Il tavolo 1 è aperto")
        finally:
            child.terminate(force=True)
