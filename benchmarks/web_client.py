"""The browser client's figures on loopback: time to interactive, page weight and the
server's memory per connected browser; or, with --play-latency, how long a play takes
to show on the other player's page.

    python benchmarks/web_client.py                 # 5 page loads, 50 browsers' connections
    python benchmarks/web_client.py --loads 10 --browsers 200
    python benchmarks/web_client.py --play-latency --plays 30

A `scopa serve --web 0` runs as a child process.  Time to interactive: from asking for
the page in Debian's chromium (a returning player: the name is kept) to the lobby shown
with its create button (the WebSocket open, welcomed, the tables listed).  Page weight:
the JavaScript and CSS as served, gzip-compressed.  Memory: the server's resident size
before and after N WebSocket sessions that said hello (what each browser holds there),
divided by N.

Play latency: two phone-sized pages (390×844, touch) in one chromium sit at a table of
their own.  Each play is tapped on the page whose turn it is (a tap to pick the first
card in hand, a tap to play it, a tap on the first choice if asked); the time runs from
the last tap's click event on that page to the play drawn on the other page (its line
in the round's plays added to the page, seen by a MutationObserver: the card is then on
the table or flying from the seat).  Both times are the pages' Date.now(), one clock.
Median and 95th percentile over the plays (round ends are dismissed on the way).
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

import aiohttp
import msgpack
from playwright.async_api import Browser, Page, async_playwright

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]


def rss_kb(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    found = re.search(r"VmRSS:\s+(\d+) kB", status)
    assert found is not None
    return int(found.group(1))


async def interactive_ms(url: str, loads: int) -> list[float]:
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        context = await browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
        page = await context.new_page()
        await page.goto(url)
        await page.evaluate("localStorage.setItem('scopa.name', 'bench')")
        times = []
        for _ in range(loads):
            await page.goto("about:blank")
            start = time.perf_counter()
            await page.goto(url)
            await page.wait_for_selector("form button[type=submit]")
            times.append((time.perf_counter() - start) * 1000)
        await browser.close()
    return times


async def sessions(port: int, count: int, pid: int) -> tuple[int, int]:
    before = rss_kb(pid)
    sockets, clients = [], []
    for i in range(count):  # from many loopback addresses, as browsers on a LAN (the per-address cap)
        http = aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(f"127.0.{i // 200}.{i % 200 + 2}", 0)))
        clients.append(http)
        ws = await http.ws_connect(f"http://127.0.0.1:{port}/ws", headers={"Origin": f"http://127.0.0.1:{port}"})
        await ws.send_bytes(msgpack.packb({"v": 2, "seq": 1, "sender": "guest", "recipient": "lobby", "re": None,
                                           "name": "hello", "body": {"name": f"b{i}"}}))
        await ws.receive()  # welcome
        await ws.send_bytes(msgpack.packb({"v": 2, "seq": 2, "sender": f"player:b{i}", "recipient": "lobby",
                                           "re": None, "name": "watch_lobby", "body": {}}))
        await ws.receive()  # the tables
        sockets.append(ws)
    await asyncio.sleep(1)
    after = rss_kb(pid)
    for ws in sockets:
        await ws.close()
    for http in clients:
        await http.close()
    return before, after


WATCH = """() => {
  window.lastClick = 0; window.shown = [];
  document.addEventListener('click', () => { window.lastClick = Date.now(); }, true);
  let count = 0;
  new MutationObserver(() => {
    const n = document.querySelectorAll("[aria-label='This round'] li").length;
    if (n > count) window.shown.push(Date.now());
    count = n;
  }).observe(document.body, { childList: true, subtree: true });
}"""


async def seated_pages(url: str, browser: Browser) -> list[Page]:
    """Two phone-sized pages at one table of their own (ada created it, bob joined)."""
    pages = []
    for name in ("ada", "bob"):
        context = await browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
        page = await context.new_page()
        await page.goto(url)
        await page.fill("#name", name)
        await page.get_by_role("button", name="Play").tap()
        await page.wait_for_selector("#preset")
        pages.append(page)
    ada, bob = pages
    await ada.select_option("#bots", "")
    await ada.locator("form button[type=submit]", has_text="Create a table").tap()
    await bob.get_by_role("button", name="Join").tap()
    for page in pages:
        await page.wait_for_selector("[aria-label='Your hand'] .card")
        await page.evaluate(WATCH)
    return pages


async def first_ready(pages: list[Page], selector: str) -> None:
    """Until one of ``pages`` shows ``selector``."""
    waits = [asyncio.ensure_future(pg.wait_for_selector(selector)) for pg in pages]
    done, pending = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    done.pop().result()


async def play_latency_ms(url: str, plays: int) -> list[float]:
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        pages = await seated_pages(url, browser)
        times: list[float] = []
        while len(times) < plays:
            await first_ready(pages, "main[data-mine], dialog[open], #game-end")
            if await pages[0].locator("#game-end").count():
                break
            for page in pages:
                cont = page.locator("dialog[open] button", has_text="Continue")
                if await cont.count():
                    await cont.tap()
            movers = [pg for pg in pages if await pg.locator("main[data-mine]").count()]
            if not movers:
                await asyncio.sleep(0.05)
                continue
            mover = movers[0]
            other = pages[1 - pages.index(mover)]
            seen = await other.evaluate("window.shown.length")
            card = mover.locator("[aria-label='Your hand'] .card").first
            await card.tap()
            await mover.locator("[aria-label='Your hand'] .card.picked").tap()
            choice = mover.locator("dialog[open] div button")
            if await choice.count():
                await choice.first.tap()
            await other.wait_for_function(f"window.shown.length > {seen}")
            clicked = await mover.evaluate("window.lastClick")
            shown = await other.evaluate(f"window.shown[{seen}]")
            times.append(float(shown - clicked))
            await mover.wait_for_selector("main:not([data-mine]), dialog[open], #game-end")
        await browser.close()
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--loads", type=int, default=5)
    ap.add_argument("--browsers", type=int, default=50)
    ap.add_argument("--play-latency", action="store_true", help="measure only the time from a tap to the other page")
    ap.add_argument("--plays", type=int, default=30, help="plays timed with --play-latency (at least 20)")
    args = ap.parse_args()
    server = subprocess.Popen([sys.executable, "-m", "scopa.client.cli", "serve", "--port", "0", "--web", "0"],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert server.stdout is not None
        for line in server.stdout:
            found = re.search(r"Open: (http://127\.0\.0\.1:(\d+)/)", line)
            if found:
                url, port = found.group(1), int(found.group(2))
                break
        else:
            raise SystemExit("the server did not start")
        if args.play_latency:
            lat = sorted(asyncio.run(play_latency_ms(url, max(20, args.plays))))
            p95 = lat[min(len(lat) - 1, round(0.95 * (len(lat) - 1)))]
            print(f"play latency, tap to the other page ({len(lat)} plays, loopback): median "
                  f"{statistics.median(lat):.0f} ms, p95 {p95:.0f} ms, max {lat[-1]:.0f} ms")
            return
        files = {n: Path(__file__).resolve().parent.parent / "client" / "webdist" / n for n in ("app.js", "app.css")}
        weight = sum(len(gzip.compress(p.read_bytes(), 9)) for p in files.values())
        print(f"page weight: JS+CSS {sum(p.stat().st_size for p in files.values()) / 1024:.1f} KB, "
              f"{weight / 1024:.1f} KB gzip-compressed")
        times = asyncio.run(interactive_ms(url, args.loads))
        print(f"time to interactive ({args.loads} loads): median {statistics.median(times):.0f} ms, "
              f"max {max(times):.0f} ms")
        before, after = asyncio.run(sessions(port, args.browsers, server.pid))
        print(f"server memory: {before / 1024:.1f} MB, with {args.browsers} browsers {after / 1024:.1f} MB: "
              f"{(after - before) / args.browsers:.1f} KB per browser")
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
