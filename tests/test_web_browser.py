"""`scopa serve --web` in a real browser: Debian's headless Chromium, driven by
Playwright, at a phone's size with touch.  A person picks a name, reads the help by
swiping, opens a table with a bot, plays a round by tapping cards, turns the phone,
reloads the page and is back at the same seat.  The cards are found through the app's own map of its widget regions
(SCOPA_LAYOUT_DIR, scopa.client.webapp) and the terminal's size in cells.

scripts/test installs chromium for this file (it is marked ``browser``); without it the
test fails, it never skips and never downloads a browser."""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from procs import ROOT, SCOPA

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}  # CSS pixels, portrait
LANDSCAPE = {"width": 844, "height": 390}
WAIT = 60.0  # seconds: a safety net for one step; each normally takes well under one
ROUND_MOVES = 60  # more taps than a two-player round can need


class Host:
    """A running `scopa serve --web` (its ports read from what it prints)."""

    def __init__(self, tmp: Path) -> None:
        self.layouts = tmp / "layout"
        self.layouts.mkdir()
        self.state = tmp / "state"
        env = dict(os.environ, SCOPA_LAYOUT_DIR=str(self.layouts), COLUMNS="200")
        self.proc = subprocess.Popen(
            [*SCOPA, "serve", "--host", "127.0.0.1", "--port", "0", "--web", "0", "--web-host", "127.0.0.1",
             "--state-dir", str(self.state)],
            cwd=ROOT, env=env, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            start_new_session=True)  # fmt: skip
        self.lines: queue.Queue[str] = queue.Queue()
        self.output: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        self.game_port = int(self._wait_for(r"listening on 127\.0\.0\.1:(\d+)"))
        self.web_port = int(self._wait_for(r"browsers on port (\d+)"))

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)

    def _wait_for(self, pattern: str) -> str:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.5)
            except queue.Empty:
                if self.proc.poll() is not None:
                    break
                continue
            self.output.append(line)
            found = re.search(pattern, line)
            if found:
                return found.group(1)
        raise AssertionError(f"scopa serve --web never said {pattern!r}:\n{''.join(self.output)}")

    def stop(self) -> str:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)  # the server stops its web host and the app processes
            try:
                self.proc.wait(timeout=WAIT)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        while not self.lines.empty():
            self.output.append(self.lines.get())
        return "".join(self.output)

    def layout(self) -> dict[str, Any] | None:
        """The newest app's map of its screen (files are named for when the app started)."""
        files = sorted(self.layouts.glob("layout-*.json"))
        if not files:
            return None
        try:
            return dict(json.loads(files[-1].read_text(encoding="utf-8")))
        except (OSError, ValueError):
            return None

    def log(self) -> str:
        """What the server, its web host and the app processes printed so far."""
        while not self.lines.empty():
            self.output.append(self.lines.get())
        return "".join(self.output)

    def app_count(self) -> int:
        return len(list(self.layouts.glob("layout-*.json")))


@pytest.fixture
def host(tmp_path: Path) -> Iterator[Host]:
    running = Host(tmp_path)
    try:
        yield running
    finally:
        out = running.stop()
        assert "Traceback" not in out, out


def _chromium() -> str:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run scripts/test (it installs Debian's chromium) "
                    "or apt-get install chromium")  # fmt: skip
    return CHROMIUM


class Phone:
    """A page in the browser and the app behind it: taps on cells of the terminal."""

    def __init__(self, page: Any, host: Host) -> None:
        self.page, self.host = page, host
        self.last_frame = time.monotonic()
        page.on("websocket", lambda ws: ws.on("framereceived", self._frame))

    def _frame(self, _payload: object) -> None:
        self.last_frame = time.monotonic()

    def settled(self, quiet: float = 0.4) -> None:
        """Wait until the page has drawn what the app sent (no frame for ``quiet`` s)."""
        deadline = time.monotonic() + WAIT
        while time.monotonic() - self.last_frame < quiet:
            assert time.monotonic() < deadline, "the app never stopped drawing"
            self.page.wait_for_timeout(50)

    def swipe_up(self, layout: dict[str, Any]) -> None:
        """A finger drawn up the middle of the screen (real touch events, through CDP)."""
        screen = self.page.locator("#terminal .xterm-screen").bounding_box()
        assert screen is not None
        x, bottom = screen["x"] + screen["width"] / 2, screen["y"] + screen["height"] * 0.7
        cdp = self.page.context.new_cdp_session(self.page)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": bottom}]})
        for step in range(1, 21):
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": bottom - 12 * step}]})
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        cdp.detach()

    def shot(self, path: Path) -> None:
        self.settled()
        self.page.screenshot(path=str(path))

    def wait(self, what: str, ok: Callable[[dict[str, Any]], bool], within: float = WAIT,
             must: bool = True) -> dict[str, Any] | None:
        deadline = time.monotonic() + within
        last = None
        while time.monotonic() < deadline:
            last = self.host.layout()
            if last is not None and ok(last):
                return last
            self.page.wait_for_timeout(50)  # the browser keeps running meanwhile
        if not must:
            return None
        raise AssertionError(f"waited for {what}; the app's screen: {last}\n{self.host.log()[-3000:]}")

    def tap_until(self, what: str, box: Callable[[dict[str, Any]], list[int]], layout: dict[str, Any],
                  ok: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """Tap, and tap again if nothing came of it: a finger that did not register (a
        busy machine) is tried again, as a person would."""
        for _ in range(4):
            self.tap(box(layout), layout)
            done = self.wait(what, ok, within=WAIT / 4, must=False)
            if done is not None:
                return done
            layout = self.host.layout() or layout
        return self.wait(what, ok, within=1)  # type: ignore[return-value]

    def tap(self, box: list[int], layout: dict[str, Any]) -> None:
        """Tap the middle of a box of cells, from the terminal's place and size on the page."""
        cols, rows = layout["size"]
        screen = self.page.locator("#terminal .xterm-screen").bounding_box()
        assert screen is not None
        x, y, w, h = box[:4]
        assert w > 0 and h > 0 and 0 <= x and x + w <= cols and 0 <= y and y + h <= rows, (box, layout["size"])
        self.page.touchscreen.tap(screen["x"] + (x + w / 2) * screen["width"] / cols,
                                  screen["y"] + (y + h / 2) * screen["height"] / rows)


def _shown(box: list[int] | None) -> bool:
    return box is not None and box[2] > 0 and box[3] > 0


def test_a_phone_plays_a_round_by_touch_and_a_reload_returns_to_the_seat(host: Host, tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    shots = tmp_path / "shots"
    shots.mkdir()
    with sync_playwright() as pw:
        # The forced scale factor matches the emulated one: headless Chromium otherwise
        # draws the terminal's canvas at one ratio and sizes it at another.
        browser = pw.chromium.launch(executable_path=_chromium(), args=["--force-device-scale-factor=2"])
        try:
            context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
            page = context.new_page()
            outside: list[str] = []
            page.on("request", lambda r: outside.append(r.url)
                    if not r.url.startswith((f"http://127.0.0.1:{host.web_port}/", "data:")) else None)
            phone = Phone(page, host)

            # The first visit asks for a name; the identity cookie is HttpOnly and SameSite=Lax.
            page.goto(f"http://127.0.0.1:{host.web_port}/")
            assert page.url.endswith("/name")
            page.tap("#name")
            page.fill("#name", "ana")
            page.tap("#play")
            page.wait_for_url(f"http://127.0.0.1:{host.web_port}/")
            cookies = {c["name"]: c for c in context.cookies()}
            assert cookies["scopa_id"]["httpOnly"] and cookies["scopa_id"]["sameSite"] == "Lax"
            assert cookies["scopa_name"]["value"] == "ana"

            # The lobby: tap "create" in the footer, then the form's Create (the other seat: a greedy bot).
            lobby = phone.wait("the lobby", lambda l: l["screen"] == "LobbyScreen" and _shown(l["keys"].get("c")))
            assert lobby["size"][0] >= 40, lobby["size"]
            # Help, read by swiping (touch moves become wheel turns), closed with its Back button.
            x, y, _w, _h = lobby["keys"]["question_mark"]
            phone.tap([x, y, 2, 1], lobby)  # its start: the footer runs off a narrow screen
            helped = phone.wait("the help", lambda l: l["screen"] == "HelpScreen" and _shown(l["buttons"].get("back")))
            assert helped["scrolls"] == [0]
            phone.swipe_up(helped)
            helped = phone.wait("the help scrolled", lambda l: l["screen"] == "HelpScreen" and l["scrolls"][0] > 0)
            phone.tap(helped["buttons"]["back"], helped)
            lobby = phone.wait("the lobby again", lambda l: l["screen"] == "LobbyScreen" and _shown(l["keys"].get("c")))
            phone.tap(lobby["keys"]["c"], lobby)
            form = phone.wait("the form", lambda l: l["screen"] == "CreateTableScreen"
                              and _shown(l["buttons"].get("create")))
            phone.tap(form["buttons"]["create"], form)
            board = phone.wait("the first turn", lambda l: l["screen"] == "BoardScreen" and l["asking"])
            table, seat = board["table_id"], board["seat"]
            assert board["name"] == "ana" and table is not None and seat is not None

            # Play the round by tapping: a card once selects it, the same card again plays it.
            played = 0
            for _ in range(ROUND_MOVES):
                now = phone.wait("my turn or the round's end", lambda l: l["screen"] == "RoundEndScreen"
                                 or (l["screen"] == "BoardScreen" and l["asking"] and l["cards"].get("hand"))
                                 or (l["screen"] == "CaptureChoiceScreen" and _shown(l["lists"].get("choices"))))
                if now["screen"] == "RoundEndScreen":
                    break
                if now["screen"] == "CaptureChoiceScreen":  # several captures: tap the first one
                    x, y, w, _h, count = now["lists"]["choices"]
                    assert count >= 2
                    phone.tap([x, y, w, 1], now)
                else:
                    hand_before = now["cards_shown"]["hand"]
                    chosen = phone.tap_until("the card selected", lambda l: l["cards"]["hand"][0], now,
                                             lambda l: l.get("selected") == 0 or l["screen"] != "BoardScreen"
                                             or not l["asking"])
                    if chosen["screen"] == "BoardScreen" and chosen["asking"]:
                        if not played:
                            phone.shot(shots / "selected.png")  # what the first tap lights up
                        phone.tap_until("the card played", lambda l: l["cards"]["hand"][0], chosen,
                                        lambda l: l["screen"] != "BoardScreen" or not l["asking"]
                                        or l["cards_shown"].get("hand") != hand_before)
                    played += 1
            else:
                raise AssertionError("the round did not end")
            assert played >= 10  # a two-player round deals 18 cards to each seat
            phone.shot(shots / "round-end.png")
            end = host.layout()
            assert end is not None
            phone.tap([0, 0, end["size"][0], end["size"][1]], end)  # a tap anywhere goes on
            phone.wait("the next round", lambda l: l["screen"] == "BoardScreen")

            # Turned sideways, the hand still fits on the screen.
            page.set_viewport_size(LANDSCAPE)
            wide = phone.wait("the landscape board", lambda l: l["screen"] == "BoardScreen"
                              and l["size"][0] > l["size"][1] and bool(l["cards"].get("hand")))
            for x, y, w, h in wide["cards"]["hand"]:
                assert x + w <= wide["size"][0] and y + h <= wide["size"][1], wide
            phone.shot(shots / "landscape.png")
            page.set_viewport_size(PHONE)

            # Reload: a new app process, straight back to the same seat at the same table.
            apps = host.app_count()
            page.reload()
            back = phone.wait("the seat again", lambda l: host.app_count() > apps and l["screen"] == "BoardScreen"
                              and l["table_id"] is not None)
            assert (back["table_id"], back["seat"], back["name"]) == (table, seat, "ana")
            back = phone.wait("the hand again", lambda l: bool(l["cards"].get("hand")))
            phone.shot(shots / "after-reload.png")
            assert not outside, f"the page loaded from elsewhere: {outside}"
        finally:
            browser.close()
    for shot in ("selected.png", "round-end.png", "landscape.png", "after-reload.png"):
        assert (shots / shot).stat().st_size > 10_000
    if os.environ.get("SCOPA_WEB_SCREENSHOT"):  # where to keep a picture of the page (docs/)
        shutil.copy(shots / "selected.png", os.environ["SCOPA_WEB_SCREENSHOT"])
    seats = list((host.state / "web-seats").glob("*/seats.json"))
    assert len(seats) == 1 and seats[0].stat().st_mode & 0o077 == 0  # one browser, one private file
