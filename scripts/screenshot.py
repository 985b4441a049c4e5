#!/usr/bin/env python3
"""Draw the README's picture of a game (docs/screenshot.svg) from the app as it is now:
`scopa local` at 80x24, you against the greedy bot, seed 5, a few plays into the first
round, your turn.

    python scripts/screenshot.py            # rewrite docs/screenshot.svg
    python scripts/screenshot.py --check    # exit 1 if docs/screenshot.svg is not current
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from scopa.client.text import DeckStyle
from scopa.client.tui.app import LocalGameApp
from scopa.engine import RuleSet

PICTURE = Path(__file__).resolve().parent.parent / "docs" / "screenshot.svg"
SIZE = (80, 24)
SEED = 5
PLAYS = 8  # plays of the round (you play your first card each time) before your turn is drawn


async def draw() -> str:
    """The picture as SVG text: the same game and the same keys give the same picture."""
    app = LocalGameApp(RuleSet(), ["human", "greedy"], seed=SEED, style=DeckStyle.ITALIAN, pace=0)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(5000):
            await pilot.pause()
            if not app.board_screen.asking or app.master is None:
                continue
            if app.master.state.plays >= PLAYS:
                await pilot.wait_for_scheduled_animations()
                await pilot.pause()
                return app.export_screenshot(title="scopa local")
            await pilot.press("1")  # your first card (and the first capture, if it asks which)
    raise RuntimeError(f"the game did not come to your turn after {PLAYS} plays")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="only say whether the picture is current")
    args = parser.parse_args(argv)
    svg = asyncio.run(draw())
    if args.check:
        current = PICTURE.exists() and PICTURE.read_text(encoding="utf-8") == svg
        print(f"{PICTURE.name} is {'current' if current else 'out of date: run python scripts/screenshot.py'}")
        return 0 if current else 1
    PICTURE.write_text(svg, encoding="utf-8")
    print(f"wrote {PICTURE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
