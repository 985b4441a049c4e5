"""The browser client's figures on loopback: time to interactive, page weight and the
server's memory per connected browser.

    python benchmarks/web_client.py                 # 5 page loads, 50 browsers' connections
    python benchmarks/web_client.py --loads 10 --browsers 200

A `scopa serve --web 0` runs as a child process.  Time to interactive: from asking for
the page in Debian's chromium (a returning player: the name is kept) to the lobby shown
with its create button (the WebSocket open, welcomed, the tables listed).  Page weight:
the JavaScript and CSS as served, gzip-compressed.  Memory: the server's resident size
before and after N WebSocket sessions that said hello (what each browser holds there),
divided by N.
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
from playwright.async_api import async_playwright

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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--loads", type=int, default=5)
    ap.add_argument("--browsers", type=int, default=50)
    args = ap.parse_args()
    server = subprocess.Popen([sys.executable, "-m", "scopa.cli", "serve", "--port", "0", "--web", "0"],
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
