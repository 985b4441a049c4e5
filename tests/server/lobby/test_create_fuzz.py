"""Fuzzing ``create_table`` (hypothesis): whatever preset and option map a client sends,
the server's handler answers with ``table_created`` or a ``bad_rules`` that says why —
never an exception (which would log a traceback and drop the connection)."""

from __future__ import annotations

import asyncio
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scopa.engine import Preset, RuleSet
from scopa.protocol import commands as wire
from scopa.protocol.errors import ErrorCode
from scopa.server import Limits, NetworkEngine
from scopa.engine import RuleSetError

from test_server_caps import RecordingSession

KEYS = st.one_of(
    st.sampled_from(sorted(RuleSet.model_fields) + ["preset", "cls", "self", "options", "rules", "__class__",
                                                    "model_config", "build"]),
    st.from_regex(r"[a-z0-9_]{1,32}", fullmatch=True),
)
VALUES = st.one_of(st.none(), st.booleans(), st.integers(min_value=-(2**63), max_value=2**64),
                   st.text(max_size=40), st.sampled_from([p.value for p in Preset]))
OPTIONS = st.dictionaries(KEYS, VALUES, max_size=8)
PRESETS = st.one_of(st.none(), st.sampled_from(list(Preset)))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=PRESETS, options=OPTIONS)
def test_build_rules_raises_only_rule_set_errors(preset: Preset | None, options: dict[str, Any]) -> None:
    from scopa.server.lobby.directory import build_rules

    try:
        rules = build_rules(preset, options)
    except RuleSetError as exc:
        assert str(exc)
    else:
        assert isinstance(rules, RuleSet)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=PRESETS, options=OPTIONS, private=st.booleans())
def test_every_create_table_option_map_gets_a_table_or_bad_rules(preset: Preset | None, options: dict[str, Any],
                                                                   private: bool) -> None:
    try:
        body = wire.CreateTable(preset=preset, options=options, private=private)
    except ValueError:
        return  # the wire model itself refuses it (bad_body): never reaches the handler
    sess = RecordingSession(1, "fuzzer")

    async def create() -> NetworkEngine:  # on an event loop, as the server runs
        engine = NetworkEngine("127.0.0.1", 0, limits=Limits(max_waiting_tables_per_client=None))
        engine.router.route(sess, body, 1, "lobby")  # type: ignore[arg-type]
        return engine

    engine = asyncio.run(create())
    [first, *_] = sess.sent
    if isinstance(first, wire.Error):
        assert first.code == ErrorCode.BAD_RULES and first.message
        assert len(sess.sent) == 1 and len(engine.tables) == 0
    else:
        assert isinstance(first, wire.TableCreated)
        assert isinstance(sess.sent[1], wire.Joined)
