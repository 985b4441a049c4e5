"""`scopa play` without `--name` at a terminal asks for the name to play under (the login
name offered: Enter takes it), full-screen and plain; from a pipe it plays under the login
name as before.  A name with a space, given with `--name` or typed at that question, is
refused in the person's language with the forms of it a server takes ("Nonna_Pina",
"NonnaPina"), as the browser offers them.  Through a pseudo-terminal."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pexpect
import pytest

from serverthread import ServerThread
from test_cli_play import quit_from_the_lobby

from procs import ROOT, end_child

pytestmark = pytest.mark.process


def spawn_scopa(*args: str, lang: str = "C.UTF-8", term: str = "xterm-256color") -> pexpect.spawn:
    """``scopa ARGS`` at a 100x30 terminal of kind ``term``, for the login name zio."""
    env = dict(os.environ, TERM=term, LANG=lang, LC_ALL="", LOGNAME="zio", COLUMNS="100", LINES="30")
    return pexpect.spawn(sys.executable, ["-m", "scopa.cli", *args], cwd=str(ROOT), env=env, encoding="utf-8",
                         codec_errors="replace", timeout=30, dimensions=(30, 100))


def spawn_play(address: str, state: Path, *args: str, lang: str = "C.UTF-8", term: str = "xterm-256color"
               ) -> pexpect.spawn:
    return spawn_scopa("play", "--server", address, "--state-dir", str(state), *args, lang=lang, term=term)


@contextmanager
def playing(state: Path, *args: str, lang: str = "C.UTF-8", term: str = "xterm-256color") -> Iterator[pexpect.spawn]:
    """``scopa play ARGS`` (no ``--name``) on a server of its own, closed at the end."""
    with ServerThread() as server:
        child = spawn_play(server.address, state, *args, lang=lang, term=term)
        try:
            yield child
        finally:
            end_child(child)


def plain_name_with_a_space_then_the_login_name(child: pexpect.spawn) -> None:
    """At the plain question of the name: a name with a space, refused with the forms a
    server takes and asked again; then Enter, the login name offered (zio), connected."""
    child.expect_exact("Your name at the tables (Enter: zio): ")
    child.sendline("Nonna Pina")
    child.expect_exact("'Nonna Pina' cannot be a name: a name has no spaces. Try Nonna_Pina or NonnaPina.")
    child.expect_exact("Your name at the tables (Enter: zio): ")
    child.sendline("")  # Enter: the login name
    child.expect(r"Connected to 127\.0\.0\.1:\d+ as zio\.")


def stop(child: pexpect.spawn) -> None:
    child.sendcontrol("c")
    child.expect(pexpect.EOF)
    child.close()


def test_the_full_screen_client_asks_for_a_name_first_and_enter_takes_the_login_name(tmp_path: Path) -> None:
    with playing(tmp_path) as child:
        child.expect("Your name at the tables")
        child.send("\r")  # Enter: the login name offered
        child.expect("zio on")
        stop(child)


def test_a_name_with_a_space_typed_full_screen_is_asked_again_with_the_forms_a_server_takes(tmp_path: Path) -> None:
    with playing(tmp_path, lang="it_IT.UTF-8") as child:
        child.expect("Il tuo nome ai tavoli")
        child.send("Nonna Pina\r")  # in an empty box (the login name only offered)
        child.expect("non può essere un nome")
        child.expect("Nonna_Pina")
        child.expect("NonnaPina")
        child.sendcontrol("u")
        child.send("Nonna_Pina\r")
        child.expect("Nonna_Pina su")
        stop(child)


def test_the_plain_client_asks_at_its_prompt_and_asks_again_for_a_name_with_a_space(tmp_path: Path) -> None:
    with playing(tmp_path, "--plain", term="dumb") as child:  # dumb: no escape codes
        plain_name_with_a_space_then_the_login_name(child)
        quit_from_the_lobby(child)


def test_from_a_pipe_the_login_name_is_played_without_asking(tmp_path: Path) -> None:
    with ServerThread() as server:
        env = dict(os.environ, TERM="dumb", LANG="C.UTF-8", LC_ALL="", LOGNAME="zio")
        done = subprocess.run([sys.executable, "-m", "scopa.cli", "play", "--server", server.address, "--state-dir",
                               str(tmp_path)], input="q\n", capture_output=True, text=True, timeout=60, env=env,
                              cwd=str(ROOT))
    assert "Your name" not in done.stdout
    assert "as zio." in done.stdout, done.stdout + done.stderr


@pytest.mark.parametrize(("lang", "said"), [
    ("it", "'Nonna Pina' non può essere un nome: un nome non ha spazi. Prova --name Nonna_Pina o --name NonnaPina."),
    ("en", "'Nonna Pina' cannot be a name: a name has no spaces. Try --name Nonna_Pina or --name NonnaPina."),
])
def test_a_name_with_a_space_on_the_command_line_is_refused_in_the_persons_language(tmp_path: Path, lang: str,
                                                                                     said: str) -> None:
    child = spawn_play("127.0.0.1:9", tmp_path, "--lang", lang, "--name", "Nonna Pina")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
    assert said in " ".join((child.before or "").split())
