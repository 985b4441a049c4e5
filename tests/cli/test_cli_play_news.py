"""`scopa play --plain` says what happens as it happens, also while the person has not
typed anything: someone sitting down at the table they wait at, the other player's
connection dropping while the person thinks at "Your move:", a bot taking that seat,
the connection to the server lost and back at the lobby's prompt.  Each piece of news
is on a line of its own, and the prompt that waits is shown again below it.  Through
pseudo-terminals, against a real server; the server's clock is a fake one where the
grace period of a dropped seat matters."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pexpect
import pytest

from scopa.server import Limits
from scopa.server.core.clock import FakeClock

from faultproxy import FaultProxy
from serverthread import ServerThread
from test_cli_play import MAX_PROMPTS, clients, spawn, to_the_bots_question
from procs import end_child

pytestmark = pytest.mark.process

GRACE = 30.0
SEED_ADA_FIRST = 8
"""A server seed whose first game gives ada (seat 1) the first move."""


def open_a_table_for_two(ada: pexpect.spawn) -> None:
    """ada, in Italian, opens a table with the defaults and no bots: she waits for people."""
    to_the_bots_question(ada, lobby="Sala> ")
    ada.expect("Bot per l.altro posto")
    ada.sendline("")
    ada.expect("Si aspetta che gli altri posti si riempiano")


@contextmanager
def proxy_in_front(server: ServerThread) -> Iterator[tuple[FaultProxy, asyncio.AbstractEventLoop]]:
    """A fault proxy in front of ``server``, run on the server's loop (closed after), and that loop."""
    loop = server._loop
    assert loop is not None
    proxy = asyncio.run_coroutine_threadsafe(FaultProxy(server.port).__aenter__(), loop).result(10)
    try:
        yield proxy, loop
    finally:
        asyncio.run_coroutine_threadsafe(proxy.close(), loop).result(10)


def bob_joins_adas_table(spawn: Callable[..., pexpect.spawn]) -> tuple[pexpect.spawn, pexpect.spawn]:
    """ada (in Italian) opens a table for two and waits; bob (in English) sits at it."""
    ada = spawn("--name", "ada", "--lang", "it")
    bob = spawn("--name", "bob")
    open_a_table_for_two(ada)
    bob.expect("Lobby> ")
    bob.sendline("j 1")
    return ada, bob


def test_someone_sitting_down_at_the_waiting_table_is_said_at_once() -> None:
    with ServerThread() as server, clients(server) as spawn:
        ada, bob = bob_joins_adas_table(spawn)
        bob.expect("You sit at table 1, seat 2.")
        ada.expect(r"bob si siede al posto 2\.")  # ada typed nothing since she opened the table
        ada.expect("Comincia la partita")


def test_news_at_the_move_prompt_is_said_at_once_and_the_prompt_shown_again() -> None:
    clock = FakeClock()
    with ServerThread(clock=clock, limits=Limits(ping_interval=None), grace=GRACE) as server, \
            clients(server) as spawn:
        ada, bob = bob_joins_adas_table(spawn)
        for _ in range(MAX_PROMPTS):  # bob plays until it is ada's turn
            if ada.expect(["La tua mossa: ", pexpect.TIMEOUT], timeout=0.2) == 0:
                break
            if bob.expect(["Your move: ", pexpect.TIMEOUT], timeout=0.2) == 0:
                bob.sendline("1")
        else:
            raise AssertionError("ada never had the move")
        bob.kill(signal.SIGKILL)  # bob's computer goes away while ada thinks
        end_child(bob)
        ada.expect(r"\r\nbob ha perso la connessione; il tavolo aspetta fino a 0:30\.")
        ada.expect("La tua mossa: ")  # the prompt again, under the news
        loop = server._loop
        assert loop is not None
        loop.call_soon_threadsafe(clock.advance, GRACE + 1)  # bob does not come back
        ada.expect(r"\r\nNessun ritorno di bob: il posto lo gioca un bot medio\.")
        ada.expect("La tua mossa: ")
        ada.sendline("1")
        ada.expect(r"Hai giocato|Hai preso|Hai calato|gioca")
        assert "greedy" not in ada.before


def test_the_connection_lost_and_back_at_the_lobby_prompt_is_said_and_the_prompt_shown_again() -> None:
    server = ServerThread().start()
    again = None
    ada = spawn(server, "--name", "ada")
    try:
        ada.expect("Lobby> ")
        server.stop()  # the server goes away while ada reads the lobby
        ada.expect(r"\r\nConnection to the server lost: retrying…")
        again = ServerThread(port=server.port).start()  # and comes back, at the same address
        ada.expect("Connected again.")
        ada.expect("Lobby> ")  # asked again: ada knows what to type
        ada.sendline("q")
        ada.expect(pexpect.EOF)
        assert "Traceback" not in ada.before
    finally:
        ada.terminate(force=True)
        server.stop()
        if again is not None:
            again.stop()


def test_the_person_back_after_a_lost_connection_is_not_told_of_their_own_return() -> None:
    """The table's notice of a seat come back is for the others: zio, whose connection
    drops while he thinks at "La tua mossa:", reads the connection coming back, not
    "Di nuovo al tavolo: zio."."""
    with ServerThread() as server, proxy_in_front(server) as (proxy, loop):
        zio = spawn(server, "--name", "zio", "--lang", "it", address=f"127.0.0.1:{proxy.port}")
        try:
            to_the_bots_question(zio, lobby="Sala> ")
            zio.expect(r"Bot \[nessuno\]: ")
            zio.sendline("medio")
            zio.expect("La tua mossa: ")
            loop.call_soon_threadsafe(proxy.reset_all)  # zio's connection drops while he thinks
            zio.expect("Di nuovo connesso.")
            zio.sendline("1")
            zio.expect("La tua mossa: ")
            assert "Di nuovo al tavolo: zio" not in (zio.before or "")
        finally:
            zio.terminate(force=True)


def test_one_seat_away_is_said_in_the_singular_in_the_lobby_list() -> None:
    clock = FakeClock()
    with ServerThread(clock=clock, limits=Limits(ping_interval=None), grace=GRACE) as server:
        ada = spawn(server, "--name", "ada", "--lang", "it")
        bob = spawn(server, "--name", "bob")
        carla = None
        try:
            open_a_table_for_two(ada)
            bob.expect("Lobby> ")
            bob.sendline("j 1")
            ada.expect("Comincia la partita")
            bob.kill(signal.SIGKILL)  # bob's computer goes away: his seat is kept for him
            end_child(bob)
            ada.expect("bob ha perso la connessione")  # bob's turn or ada's prompt: said either way
            carla = spawn(server, "--name", "carla", "--lang", "it")
            carla.expect("Sala> ")
            carla.sendline("r")
            carla.expect(r"in gioco \((\d+) assent([ei])\)")
            assert carla.match is not None and carla.match.groups() == ("1", "e")
        finally:
            for child in (ada, bob, carla):
                if child is not None:
                    child.terminate(force=True)


def test_news_come_before_the_first_move_prompt_is_said_above_it() -> None:
    """bob's connection drops while ada's client is still busy with the deal: his notice
    comes behind her turn, all of it found waiting at once (a proxy keeps the server's
    words back until the notice is among them).  ada reads it above "La tua mossa:",
    not after her move.  The seed makes the first move ada's."""
    clock = FakeClock()
    with ServerThread(seed=SEED_ADA_FIRST, clock=clock, limits=Limits(ping_interval=None), grace=GRACE) as server, \
            proxy_in_front(server) as (proxy, loop):
        ada = spawn(server, "--name", "ada", "--lang", "it", address=f"127.0.0.1:{proxy.port}")
        bob = spawn(server, "--name", "bob")
        try:
            open_a_table_for_two(ada)
            loop.call_soon_threadsafe(proxy.hold)  # ada's client will find the game's start waiting
            bob.expect("Lobby> ")
            bob.sendline("j 1")
            bob.expect("Game starts")
            bob.kill(signal.SIGKILL)
            end_child(bob)
            asyncio.run_coroutine_threadsafe(proxy.held("seat_away"), loop).result(30)
            loop.call_soon_threadsafe(proxy.release)
            ada.expect("Comincia la partita")
            ada.expect(r"bob ha perso la connessione; il tavolo aspetta fino a 0:30\.")
            assert "La tua mossa" not in ada.before  # above her first prompt, not after her move
            ada.expect("La tua mossa: ")
        finally:
            for child in (ada, bob):
                child.terminate(force=True)
