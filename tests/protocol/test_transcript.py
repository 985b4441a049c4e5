"""docs/transcript.json: the same seeded 2-player game, played again against a live
server, gives the same frames on each connection, both ways, once the values that are
random by design (seat tokens, ping nonces) are masked (docs/TRANSCRIPT.md)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from scopa.protocol import PROTOCOL_VERSION

from transcript import MASKED, REGENERATE, SEED, TRANSCRIPT, differences, mask, record_frames, render, transcript


@pytest.fixture(scope="module")
def committed() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(TRANSCRIPT.read_text(encoding="utf-8"))
    return doc


def test_the_seeded_game_replays_frame_by_frame(committed: dict[str, Any]) -> None:
    now = transcript(SEED)
    diff = differences(now, committed)
    assert not diff, "the wire changed; if that is intended, run `" + REGENERATE + "`:\n" + "\n".join(diff)
    assert render(now) == TRANSCRIPT.read_text(encoding="utf-8")


def test_a_different_game_is_told_apart(committed: dict[str, Any]) -> None:
    other = transcript(SEED + 1)
    diff = differences(other, committed)
    assert any(line.startswith("server_seed") for line in diff)
    assert any(" frame " in line for line in diff)  # different deals, different frames


def test_only_the_tokens_and_nonces_are_random_and_they_are_masked() -> None:
    first, second = (asyncio.run(record_frames(SEED)) for _ in range(2))

    def tokens(frames: dict[str, list[dict[str, Any]]]) -> list[str]:
        return [f["frame"]["body"]["token"] for c in sorted(frames) for f in frames[c]
                if f["frame"]["name"] == "joined"]  # fmt: skip

    assert len(tokens(first)) == 2 and set(tokens(first)).isdisjoint(tokens(second))
    assert all(8 <= len(t) <= 64 and t != MASKED["token"] for t in tokens(first))
    assert first != second and mask(first) == mask(second)
    assert MASKED["token"] not in json.dumps(first)
    assert mask({"a": [{"nonce": 5, "b": {"token": "x"}}]}) == {"a": [{"nonce": MASKED["nonce"], "b": {"token": MASKED["token"]}}]}


def test_the_transcript_is_one_whole_game_with_every_turn_answered(committed: dict[str, Any]) -> None:
    assert committed["protocol"] == PROTOCOL_VERSION and committed["masked"] == MASKED
    assert [c["client"] for c in committed["connections"]] == ["ada", "bob"]
    for conn in committed["connections"]:
        frames = conn["frames"]
        sent = [f["frame"] for f in frames if f["dir"] == "to_server"]
        got = [f["frame"] for f in frames if f["dir"] == "to_client"]
        assert [c["seq"] for c in sent] == list(range(1, len(sent) + 1))  # PROTOCOL.md §2
        assert [c["seq"] for c in got] == list(range(1, len(got) + 1))
        assert sent[0]["name"] == "hello" and sent[-1]["name"] == "bye" and frames[-1]["frame"]["name"] == "bye"
        names = [c["name"] for c in got]
        assert names.count("game_start") == 1 and names.count("game_end") == 1
        assert names.index("game_start") < names.index("game_end") < names.index("left")
        end = got[names.index("game_end")]["body"]
        assert end["reason"] == "target" and max(end["totals"]) >= 11  # R22
        for i, item in enumerate(frames):
            if item["dir"] == "to_client" and item["frame"]["name"] == "your_turn":
                answer = frames[i + 1]
                assert answer["dir"] == "to_server" and answer["frame"]["name"] == "play"
                assert answer["frame"]["re"] == item["frame"]["seq"]
                move = {k: answer["frame"]["body"][k] for k in ("card", "capture")}
                assert move in [{k: m[k] for k in ("card", "capture")} for m in item["frame"]["body"]["legal"]]
        for item in frames:
            if item["frame"]["name"] == "joined":
                assert item["frame"]["body"]["token"] == MASKED["token"]


def test_every_recorded_frame_is_valid_by_the_published_schemas(committed: dict[str, Any]) -> None:
    """What the server sent, by the clients' schema, each against its own definition;
    what the clients sent, by the server's; masked values included."""
    docs = TRANSCRIPT.parent
    schemas = {d: json.loads((docs / f).read_text(encoding="utf-8"))
               for d, f in (("to_client", "protocol.client.schema.json"), ("to_server", "protocol.schema.json"))}
    checked = 0
    for conn in committed["connections"]:
        for item in conn["frames"]:
            schema = schemas[item["dir"]]
            ref = schema["discriminator"]["mapping"][item["frame"]["name"]]
            validator = Draft202012Validator({"$defs": schema["$defs"], "$ref": ref})
            errors = [e.message for e in validator.iter_errors(item["frame"])]
            assert not errors, (item, errors)
            checked += 1
    assert checked > 400
