"""The app a web host (``scopa web``) runs for one browser page: the lobby and games of
``scopa play``, told by its environment which server, which name, whom it is for and
where that browser's seat tokens are kept (:mod:`scopa.client.webhost` sets them).

Run as ``python -m scopa.client.webapp`` by textual-serve, never by hand.

A reloaded page goes straight back to its seat (no question: a reload means "go on").
With ``SCOPA_LAYOUT_DIR`` set, the app also writes where things are on its screen
(:func:`layout_map`) to a file there named for when it started, so a browser test can
tap the cards a person would tap.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from textual import events
from textual.widget import Widget
from textual.containers import ScrollableContainer
from textual.geometry import Region
from textual.widgets import Button, Footer, OptionList

from .notation import DeckStyle
from .session import parse_address
from .tokens import FileTokenStore
from .tui.cards import CARD_HEIGHT, CARD_WIDTH, GAP, CardRow
from .tui.netapp import NetApp
from .webhost import ENV_IDENTITY, ENV_NAME, ENV_SEATS, ENV_SERVER

LAYOUT_ENV = "SCOPA_LAYOUT_DIR"
LAYOUT_EVERY = 0.1  # seconds between two looks at the screen (written only when it changed)

Box = list[int]  # [x, y, width, height] in terminal cells


def _box(where: Widget | Region) -> Box:
    r = where.region if isinstance(where, Widget) else where
    return [r.x, r.y, r.width, r.height]


def card_boxes(row: CardRow) -> list[Box]:
    """Where each card of ``row`` is drawn, as CardRow lays them out (wrapping)."""
    count = len(row.cards) or row.hidden
    region = row.content_region
    per_line = max(1, (region.width + GAP) // (CARD_WIDTH + GAP))
    return [[region.x + (i % per_line) * (CARD_WIDTH + GAP), region.y + (i // per_line) * CARD_HEIGHT,
             CARD_WIDTH, CARD_HEIGHT] for i in range(count)]


def layout_map(app: NetApp) -> dict[str, Any]:
    """The screen's size, its name, each card row's cards (``[x, y, w, h]`` cells), the
    buttons, footer keys and option lists (``[x, y, w, h, options]``, one line each)
    that can be tapped, how far each scrollable part is scrolled, whether a move is
    awaited, and the table, seat and name."""
    screen = app.screen
    out: dict[str, Any] = {"size": [app.size.width, app.size.height], "screen": type(screen).__name__,
                           "cards": {}, "cards_shown": {}, "buttons": {}, "keys": {}, "lists": {}, "asking": False}
    for row in screen.query(CardRow):
        if row.id and row.display:
            out["cards"][row.id] = card_boxes(row)
            out["cards_shown"][row.id] = [int(c) for c in row.cards]
    for button in screen.query(Button):
        if button.id and button.display:
            out["buttons"][button.id] = _box(button)
    for footer in screen.query(Footer):
        for key in footer.query("FooterKey"):
            binding = getattr(key, "key", None)
            if isinstance(binding, str):
                out["keys"][binding] = _box(key)
    if app.board_screen is not None and screen is app.board_screen:
        out["asking"] = app.board_screen.asking
        out["selected"] = app.board_screen.selected
    out["scrolls"] = [int(w.scroll_y) for w in screen.query(ScrollableContainer) if w.max_scroll_y > 0]
    for options in screen.query(OptionList):
        if options.id and options.display:
            out["lists"][options.id] = [*_box(options.content_region), options.option_count]
    session = app.session
    out["table_id"] = session.table_id if session is not None else None
    out["seat"] = session.seat if session is not None else None
    out["name"] = session.name if session is not None else None
    return out


class WebApp(NetApp):
    """``scopa play`` for one browser page."""

    def __init__(self, *args: Any, layout_file: Path | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.ask_before_resuming = False
        self.layout_file = layout_file
        self._last_layout = ""

    async def _on_app_blur(self, event: events.AppBlur) -> None:
        """Stay focused: the page is blurred at its start and whenever the phone's keyboard
        goes away, and a blurred app shows no keys in its footer (nothing to tap)."""
        event.prevent_default()  # App's own handler would mark the app blurred

    def on_mount(self) -> None:  # NetApp's own on_mount runs too (Textual calls each class's)
        if self.layout_file is not None:
            self.set_interval(LAYOUT_EVERY, self._write_layout)

    def _write_layout(self) -> None:
        if self.layout_file is None:
            return
        text = json.dumps(layout_map(self), sort_keys=True)
        if text == self._last_layout:
            return
        self._last_layout = text
        tmp = self.layout_file.with_suffix(".tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, self.layout_file)


def main() -> int:
    env = os.environ
    missing = [k for k in (ENV_SERVER, ENV_NAME, ENV_IDENTITY, ENV_SEATS) if not env.get(k)]
    if missing:
        print(f"scopa.client.webapp is started by `scopa web`; {', '.join(missing)} not set", file=sys.stderr)
        return 2
    host, port = parse_address(env[ENV_SERVER])
    store = FileTokenStore(Path(env[ENV_SEATS]))
    layout = env.get(LAYOUT_ENV)
    layout_file = Path(layout) / f"layout-{time.time_ns():020d}-{os.getpid()}.json" if layout else None
    app = WebApp(host, port, env[ENV_NAME], store, None, DeckStyle.ITALIAN, True, layout_file=layout_file)
    app.proxied_for = env[ENV_IDENTITY]
    status = app.run()
    return 0 if status is None else int(status)


if __name__ == "__main__":
    sys.exit(main())
