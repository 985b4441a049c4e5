"""`scopa serve` speaks the language of the locale, as the rest of the `scopa` command:
under LANG=it_IT.UTF-8 the person running it reads in Italian where the server listens,
its page's address, its certificate, how to stop it and that it stopped, and why it
cannot start with the TLS options given.  Data directories of the test's own."""

from __future__ import annotations

import io
import os
import subprocess
from pathlib import Path

import pexpect
import pytest

from procs import ROOT, SCOPA, end_child

pytestmark = pytest.mark.process

SAFETY = 60  # seconds: a safety net only
ENGLISH = ["Scopa server on", "Ctrl-C to stop", "Open:", "Point a phone", "TLS with", "fingerprint", "Traceback",
           "operator token written", "listening on", "web page on", "server stopped", "self-signed certificate in"]
"""The command's own lines and the server's log lines ("22:41:03 server stopped") in English."""


def italian(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANGUAGE")}
    return dict(env, LANG="it_IT.UTF-8", TERM="dumb", COLUMNS="300", NO_COLOR="1",
                XDG_DATA_HOME=str(home / "data"), XDG_STATE_HOME=str(home / "state"))


def test_the_start_lines_and_the_stop_line_are_in_italian(tmp_path: Path) -> None:
    server = pexpect.spawn(SCOPA[0], [*SCOPA[1:], "serve", "--port", "0", "--web", "0", "--tls", "self-signed",
                                      "--no-announce", "--admin-token-file", str(tmp_path / "token")],
                           cwd=str(ROOT), env=italian(tmp_path), encoding="utf-8", timeout=SAFETY)
    server.logfile_read = shown = io.StringIO()
    try:
        server.expect(r"\d\d:\d\d:\d\d token dell'operatore scritto in ")
        server.expect(r"\d\d:\d\d:\d\d in ascolto su 127\.0\.0\.1:\d+ \(TLS\)")
        server.expect(r"Apri: https://127\.0\.0\.1:\d+/")  # the page listens before the server says it serves
        server.expect(r"Server di Scopa su 127\.0\.0\.1:\d+, con (uvloop|il ciclo di asyncio) \(Ctrl-C per fermarlo\)")
        server.expect(r"TLS con un certificato autofirmato \(.+\), impronta SHA-256 [0-9A-F]{2}(:[0-9A-F]{2}){31}")
        server.sendintr()
        server.expect(r"\d\d:\d\d:\d\d server fermato")
        server.expect(pexpect.EOF)
        said = shown.getvalue()
        assert not [w for w in ENGLISH if w in said], said
        assert said.count("server fermato") == 1, said  # the log's line; the console does not say it again
    finally:
        end_child(server)


def test_a_tls_option_given_wrong_is_said_in_italian(tmp_path: Path) -> None:
    done = subprocess.run([*SCOPA, "serve", "--port", "0", "--tls-cert", str(tmp_path / "cert.pem")], cwd=ROOT,
                          env=italian(tmp_path), capture_output=True, text=True, timeout=SAFETY,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 2
    said = done.stdout + done.stderr
    assert "--tls-cert e --tls-key vanno insieme: indicali entrambi" in said, said
    assert "go together" not in said


def test_a_game_not_rated_is_logged_in_italian_with_its_reason() -> None:
    """The text log's "not rated (two seats were played from one address)" in the terminal's language."""
    import logging

    from scopa.cli.serverlog import SpokenFormatter
    from scopa.client.text import i18n

    record = logging.LogRecord("scopa.server", logging.INFO, __file__, 1, "table %s: not rated (%s)",
                               ("7", "two seats were played from one address"), None)
    english = SpokenFormatter().format(record)
    assert english.endswith(" table 7: not rated (two seats were played from one address)")
    i18n.set_language("it")
    try:
        said = SpokenFormatter().format(record)
    finally:
        i18n.set_language("en")
    assert said.endswith(" tavolo 7: non conta per la classifica (due posti erano giocati dallo stesso indirizzo)")
