"""The browser client over TLS, in Debian's chromium: a server whose ports speak TLS with
a certificate of a test authority (trustme) that this chromium trusts (an NSS database
of the test's own, made with certutil, under a HOME of the test's own).  A person plays
a whole game against a bot over HTTPS and wss://; the page carries HSTS and no notice
that it is not private, while the same page served without TLS shows that notice first."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import trustme
from playwright.async_api import Browser, async_playwright

from scopa.client.webfiles import web_files, web_root
from scopa.server import NetworkEngine
from scopa.server.core.tls import server_tls
from scopa.server.web.front import WebFront
from test_web_client import CHROMIUM, FLAGS, Site, create, open_page, play_to_the_end

pytestmark = pytest.mark.browser


@dataclass
class SecureSite(Site):
    home: Path = Path()
    """A HOME whose NSS database trusts the test authority."""

    @property
    def url(self) -> str:
        return f"https://localhost:{self.front.port}/"


def _trusting_home(home: Path, ca: trustme.CA) -> Path:
    """A HOME whose NSS database (the one chromium reads on Linux) trusts ``ca``."""
    certutil = shutil.which("certutil")
    assert certutil is not None, "this test needs NSS's certutil: apt-get install libnss3-tools (scripts/test does)"
    db = home / ".pki" / "nssdb"
    db.mkdir(parents=True)
    ca.cert_pem.write_to_path(str(home / "ca.pem"))
    for args in (["-N", "--empty-password"], ["-A", "-t", "C,,", "-n", "scopa-test-ca", "-i", str(home / "ca.pem")]):
        subprocess.run([certutil, "-d", f"sql:{db}", *args], check=True, capture_output=True, timeout=30)
    return home


@pytest.fixture
async def secure_site(tmp_path: Path) -> AsyncIterator[SecureSite]:
    ca = trustme.CA()
    issued = ca.issue_cert("localhost", "127.0.0.1")
    issued.private_key_pem.write_to_path(str(tmp_path / "key.pem"))
    issued.cert_chain_pems[0].write_to_path(str(tmp_path / "cert.pem"))
    tls = server_tls(tmp_path / "cert.pem", tmp_path / "key.pem")
    engine = NetworkEngine(host="127.0.0.1", port=0, tls=tls)
    await engine.start()
    front = WebFront(engine, web_root(), extra=web_files(), tls=tls)
    await front.start("127.0.0.1", 0)
    site = SecureSite(engine, front, home=_trusting_home(tmp_path / "home", ca))
    try:
        yield site
    finally:
        await engine.stop()
        await front.stop()
    assert site.errors == []  # no console error (a refused certificate would be one), no uncaught exception


@pytest.fixture
async def trusting_browser(secure_site: SecureSite) -> AsyncIterator[Browser]:
    async with async_playwright() as p:
        b = await p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, env={"HOME": str(secure_site.home)})
        try:
            yield b
        finally:
            await b.close()


async def test_a_person_plays_a_whole_game_over_https_and_wss(secure_site: SecureSite,
                                                              trusting_browser: Browser) -> None:
    page = await open_page(trusting_browser, secure_site, "ada")
    assert await page.evaluate("location.protocol") == "https:"
    assert await page.locator("#not-private").count() == 0
    hsts = await page.evaluate("fetch(location.href).then(r => r.headers.get('strict-transport-security'))")
    assert hsts.startswith("max-age=")
    await create(page)
    await play_to_the_end(page)
    assert "Game over" in (await page.locator("#game-end").text_content() or "")
    assert len(secure_site.engine.sessions) == 1  # the page's wss:// connection, a session of the server

    plain = WebFront(secure_site.engine, web_root(), extra=web_files())  # the same page without TLS
    await plain.start("127.0.0.1", 0)
    try:
        other = await (await trusting_browser.new_context()).new_page()
        await other.goto(f"http://localhost:{plain.port}/")
        mark = other.locator("footer #not-private-mark")
        assert (await mark.inner_text()).strip() == "Connection not encrypted"
        assert await mark.is_visible()
    finally:
        await plain.stop()
