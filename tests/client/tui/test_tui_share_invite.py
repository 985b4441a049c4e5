"""`scopa play` opening a private table on a server with a web page: the invite is shown
as one thing to pass on — the link for a browser, the `scopa play --invite` command and a
QR code of the link — and a friend's `--invite` with that command's invite sits them."""

from __future__ import annotations

import asyncio
from urllib.parse import parse_qs, urlsplit

import pytest
from textual.widgets import Checkbox, Select, Static

from scopa.client.text import parse_invite
from scopa.client.net import MemoryTokenStore
from scopa.client.net.addresses import share_host
from scopa.client.tui.board import BoardScreen
from scopa.client.tui.online.invitepanel import Invite, ShareInviteScreen
from scopa.client.tui import NetApp
from scopa.server import NetworkEngine, serve
from scopa.server.web import WebOptions
from test_tui_create_form import open_form
from test_tui_network import until

pytestmark = pytest.mark.integration

SAFETY = 60


def shown(screen: ShareInviteScreen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


async def test_a_private_table_shows_its_link_command_and_qr_code() -> None:
    engines: list[NetworkEngine] = []
    web: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    server = asyncio.create_task(serve("127.0.0.1", 0, web=WebOptions(port=0, listening=web.set_result),
                                       announce=engines.append))
    try:
        async with asyncio.timeout(SAFETY):
            web_port = await asyncio.shield(web)
            while not engines:
                await asyncio.sleep(0.01)
            engine = engines[0]
            engine.router.greeting.lan_hosts = ["192.0.2.7"]  # as a server on 0.0.0.0 tells its LAN address
            app = NetApp("127.0.0.1", engine.port, "ada", MemoryTokenStore())
            async with app.run_test(size=(100, 40)) as pilot:
                form = await open_form(app, pilot)
                form.query_one("#bots", Select).value = "none"
                form.query_one("#private", Checkbox).value = True
                await pilot.press("ctrl+s")
                await until(pilot, lambda: isinstance(app.screen, ShareInviteScreen))
                screen = app.screen
                assert isinstance(screen, ShareInviteScreen)
                table, code = app.session.table_id, app.session.invite  # type: ignore[union-attr]
                link = shown(screen, "#link")
                assert link == f"http://192.0.2.7:{web_port}/?invite={table}.{code}"
                assert parse_qs(urlsplit(link).query)["invite"] == [f"{table}.{code}"]
                command = shown(screen, "#command")
                assert command == f"scopa play --server 192.0.2.7:{engine.port} --invite {table}.{code}"
                assert parse_invite(command.split("--invite ")[1]) == (table, code)
                assert parse_invite(link) == (table, code)  # the link works with --invite too
                qr = shown(screen, "#qr")
                assert qr.count("\n") > 10 and "█" in qr
                guest = NetApp("127.0.0.1", engine.port, "bea", MemoryTokenStore(), invite=parse_invite(link))
                async with guest.run_test(size=(100, 40)) as guest_pilot:
                    await until(guest_pilot, lambda: isinstance(guest.screen, BoardScreen))
                    await until(pilot, lambda: isinstance(app.screen, BoardScreen))  # the game starts: it closes
    finally:
        server.cancel()
        await asyncio.gather(server, return_exceptions=True)


def test_without_a_web_page_the_invite_is_the_command_alone() -> None:
    invite = Invite("example.org", 7777, "7.Xq3vR0aT2m", None, tls=True)
    assert invite.link is None
    assert invite.command == "scopa play --server tls://example.org:7777 --invite 7.Xq3vR0aT2m"
    assert Invite("::1", 7777, "7.Xq3vR0aT2m", 8080).link == "http://[::1]:8080/?invite=7.Xq3vR0aT2m"


async def share_screen(engine: NetworkEngine, pilot_app: NetApp, pilot) -> ShareInviteScreen:  # type: ignore[no-untyped-def]
    form = await open_form(pilot_app, pilot)
    form.query_one("#bots", Select).value = "none"
    form.query_one("#private", Checkbox).value = True
    await pilot.press("ctrl+s")
    await until(pilot, lambda: isinstance(pilot_app.screen, ShareInviteScreen))
    screen = pilot_app.screen
    assert isinstance(screen, ShareInviteScreen)
    return screen


async def test_an_invite_made_on_loopback_names_the_address_friends_reach() -> None:
    """The host reached its server at 127.0.0.1; the server's welcome names the address it
    is reached at on the LAN (lan_hosts), so the link, the command and the QR code name it."""
    engine = NetworkEngine("127.0.0.1", 0, seed=3)
    await engine.start()
    engine.router.greeting.web_port = 8080
    engine.router.greeting.lan_hosts = ["192.0.2.7"]  # as a server listening on 0.0.0.0 finds its LAN address
    try:
        async with asyncio.timeout(SAFETY):
            app = NetApp("127.0.0.1", engine.port, "ada", MemoryTokenStore())
            async with app.run_test(size=(100, 40)) as pilot:
                screen = await share_screen(engine, app, pilot)
                table, code = app.session.table_id, app.session.invite  # type: ignore[union-attr]
                assert shown(screen, "#link") == f"http://192.0.2.7:8080/?invite={table}.{code}"
                assert shown(screen, "#command") == f"scopa play --server 192.0.2.7:{engine.port} --invite {table}.{code}"
                assert not screen.query("#local-only") and "█" in shown(screen, "#qr")
    finally:
        await engine.stop()


async def test_an_invite_from_a_loopback_only_server_says_it_works_on_this_computer_only() -> None:
    engine = NetworkEngine("127.0.0.1", 0, seed=3)
    await engine.start()
    engine.router.greeting.web_port = 8080
    try:
        async with asyncio.timeout(SAFETY):
            app = NetApp("127.0.0.1", engine.port, "ada", MemoryTokenStore())
            async with app.run_test(size=(100, 40)) as pilot:
                screen = await share_screen(engine, app, pilot)
                assert shown(screen, "#command").startswith(f"scopa play --server 127.0.0.1:{engine.port} --invite")
                assert "only works on this computer" in shown(screen, "#local-only")
                assert not screen.query("#qr")  # a phone's camera cannot reach this computer's loopback
    finally:
        await engine.stop()


def test_the_address_an_invite_names() -> None:
    assert share_host("127.0.0.1", ["192.0.2.7", "198.51.100.1"]) == ("192.0.2.7", False)
    assert share_host("localhost", ["2001:db8::5"]) == ("2001:db8::5", False)
    assert share_host("::1", []) == ("::1", True)  # loopback only: works here alone
    assert share_host("localhost", []) == ("localhost", True)
    assert share_host("scopa.example.org", ["192.0.2.7"]) == ("scopa.example.org", False)  # typed: kept
    assert share_host("192.0.2.9", []) == ("192.0.2.9", False)
