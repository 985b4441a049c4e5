"""The ``server`` fixture of the tests of seats that go away and come back: a server on
127.0.0.1 (port 0) whose seats wait 60 s for their person, on the test's fake ``clock``
(the fixture of conftest.py).  A test module takes it with
``from graced import server  # noqa: F401 - the fixture``."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from scopa.server import NetworkEngine
from scopa.server.core.clock import FakeClock


@pytest.fixture
async def server(clock: FakeClock) -> AsyncIterator[NetworkEngine]:
    engine = NetworkEngine("127.0.0.1", 0, seed=4242, grace=60.0, clock=clock)
    await engine.start()
    yield engine
    await engine.stop()
