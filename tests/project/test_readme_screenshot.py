"""The README's picture of a game (docs/screenshot.svg) is the app as it is now: drawn
again by scripts/screenshot.py, it comes out the same (run that script after changing
what the board looks like)."""

from __future__ import annotations

import asyncio
import html
import importlib.util
import re

from paths import ROOT


def test_the_readme_screenshot_is_the_current_app() -> None:
    spec = importlib.util.spec_from_file_location("screenshot", ROOT / "scripts" / "screenshot.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    assert "docs/screenshot.svg" in (ROOT / "README.md").read_text(encoding="utf-8")
    drawn = asyncio.run(script.draw())
    shown = html.unescape(re.sub(r"<[^>]*>", "", drawn)).replace("\xa0", " ")
    assert "Scopa, 2p, to 11" in shown and "custom" not in shown and "Your turn" in shown
    assert (ROOT / "docs" / "screenshot.svg").read_text(encoding="utf-8") == drawn, \
        "docs/screenshot.svg is out of date: run python scripts/screenshot.py"
