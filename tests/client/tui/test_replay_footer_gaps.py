"""The replay's key line keeps its words apart: a group of keys' word ("step", "round")
is followed by a blank before the next key, as every other key's word is ("→← step  np
round  g jump to round", not "stepnp roundg")."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widgets import Footer
from textual.widgets._footer import FooterLabel

from scopa.client.tui import ReplayApp
from scopa.protocol.record import replay_steps

from test_replay_app import game


pytestmark = pytest.mark.unit


async def drawn_key_line(app: ReplayApp, pilot: Pilot[None]) -> str:
    """The screen's last row once the key line is composed and drawn on it: the footer fills in
    after the bindings are gathered, which a loaded machine may leave to a later refresh."""
    for _ in range(500):
        bottom = "".join(seg.text for seg in app.screen._compositor.render_strips()[-1])
        if app.screen.query(FooterLabel) and bottom.strip():
            return bottom
        await pilot.pause()
    raise AssertionError("the key line was never drawn")


async def test_a_key_groups_word_is_apart_from_the_next_key() -> None:
    record = await game(3)
    app = ReplayApp(record, list(replay_steps(record)))
    async with app.run_test(size=(80, 24)) as pilot:
        await drawn_key_line(app, pilot)
        footer = app.screen.query_one(Footer)
        items = sorted((w for w in footer.query("*") if w.parent is footer or isinstance(w, FooterLabel)),
                       key=lambda w: w.region.x)
        labels = [w for w in items if isinstance(w, FooterLabel)]
        assert labels  # the groups are there
        for label in labels:
            after = [w for w in items if w.region.x >= label.region.right and w.region.width]
            if after:
                assert after[0].region.x > label.region.right, (str(label.render()), after[0])


async def test_the_round_keys_read_n_slash_p() -> None:
    """The two round keys of the key line read "n/p", not "np" as one key."""
    record = await game(3)
    app = ReplayApp(record, list(replay_steps(record)))
    async with app.run_test(size=(80, 24)) as pilot:
        bottom = await drawn_key_line(app, pilot)
        assert "n/p " in bottom and " np " not in bottom, bottom
