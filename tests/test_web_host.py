"""The web host's own pages and rules, over HTTP on loopback (no browser): the cookie
identity, the name form, the game page that loads nothing from elsewhere, the refusals,
and what one browser's app process is told."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from aiohttp.test_utils import TestClient, TestServer

from scopa.client.webhost import ENV_IDENTITY, ENV_NAME, ENV_SEATS, ENV_SERVER, WebHost, digest
from scopa.protocol import commands as wire

from procs import ROOT, SCOPA

URL = re.compile(r"""(?:src|href)\s*=\s*["']([^"']+)["']|url\(["']?([^"')]+)""")


async def _client(tmp_path: Path) -> TestClient:  # type: ignore[type-arg]
    host = WebHost("127.0.0.1:7015", tmp_path / "seats", "127.0.0.1", 0)
    client: TestClient = TestClient(TestServer(await host._make_app(), host="127.0.0.1", port=0))  # type: ignore[type-arg]
    await client.start_server()
    return client


async def test_a_first_visit_gets_a_private_identity_and_the_name_form(tmp_path: Path) -> None:
    client = await _client(tmp_path)
    try:
        first = await client.get("/", allow_redirects=False)
        assert first.status == 303 and first.headers["Location"] == "/name"
        cookie = first.headers["Set-Cookie"]
        assert cookie.startswith("scopa_id=") and "HttpOnly" in cookie and "SameSite=Lax" in cookie
        identity = first.cookies["scopa_id"].value
        assert len(identity) >= 32
        form = await client.get("/name")
        assert form.status == 200 and 'name="name"' in await form.text()
        # The same browser keeps its identity: no new cookie once it has one.
        again = await client.get("/name")
        assert "scopa_id" not in again.cookies
    finally:
        await client.close()


async def test_the_name_form_checks_the_name_and_the_origin(tmp_path: Path) -> None:
    client = await _client(tmp_path)
    try:
        await client.get("/name")
        bad = await client.post("/name", data={"name": "no spaces <b>"}, allow_redirects=False)
        text = await bad.text()
        assert bad.status == 400 and "1 to 24 letters" in text and "<b>" not in text
        foreign = await client.post("/name", data={"name": "ana"}, headers={"Origin": "http://elsewhere.example"},
                                    allow_redirects=False)
        assert foreign.status == 403
        good = await client.post("/name", data={"name": "ana"}, allow_redirects=False)
        assert good.status == 303 and good.headers["Location"] == "/"
        assert good.cookies["scopa_name"].value == "ana"
        page = await client.get("/")
        html = await page.text()
        assert page.status == 200 and "as ana" in html
        # Everything the page needs comes from this host: relative addresses or data: only.
        for found in URL.finditer(html):
            address = found.group(1) or found.group(2)
            assert address.startswith(("/", "data:")), address
        assert "googleapis" not in html
        font = await client.get("/static/fonts/RobotoMono-VariableFont_wght.ttf")
        assert font.status == 200 and len(await font.read()) > 10_000
    finally:
        await client.close()


async def test_the_terminal_needs_the_identity_and_the_same_origin(tmp_path: Path) -> None:
    client = await _client(tmp_path)
    try:
        assert (await client.get("/ws")).status == 403  # no identity yet
        await client.get("/name")  # now it has one
        foreign = await client.get("/ws", headers={"Origin": "http://elsewhere.example"})
        assert foreign.status == 403
        plain = await client.get("/ws")  # let through, but a plain GET is no websocket
        assert plain.status == 400
    finally:
        await client.close()


def test_an_app_process_is_told_a_digest_never_the_cookie(tmp_path: Path) -> None:
    host = WebHost("127.0.0.1:7015", tmp_path / "seats")
    cookie = "Q9GvpoVmD5kN6hXhLkqRY8I0IeKHQuW_yZ_DpMxFxYA"
    env = host.browser_environment(cookie, "ana")
    assert env[ENV_SERVER] == "127.0.0.1:7015" and env[ENV_NAME] == "ana"
    assert cookie not in "".join(env.values())
    assert env[ENV_IDENTITY] == digest("player", cookie) != digest("seats", cookie)
    assert wire.Hello(name="ana", proxied_for=env[ENV_IDENTITY]).proxied_for == env[ENV_IDENTITY]
    assert Path(env[ENV_SEATS]).parent == tmp_path / "seats"
    other = host.browser_environment("another-browser-cookie-0123456789abcdef", "ana")
    assert other[ENV_IDENTITY] != env[ENV_IDENTITY] and other[ENV_SEATS] != env[ENV_SEATS]


def test_bad_options_are_one_clear_line() -> None:
    for args, expected in ((["serve", "--trust-proxy", "localhost"], "not an IP address"),
                           (["web", "--server", "127.0.0.1:notaport"], "bad port")):
        done = subprocess.run([*SCOPA, *args], cwd=ROOT, capture_output=True, text=True, timeout=60,
                              stdin=subprocess.DEVNULL)
        assert done.returncode == 2 and expected in done.stdout + done.stderr and "Traceback" not in done.stderr
