"""The facts docs/PROTOCOL.md (and README.md) state that the code holds: limits and
their defaults, the error codes of each command, the reasons `left`, `played` and
`game_end` give, bot names, section references, the field tables; each is checked
against the code here (and the server's refusals against the table of codes), so the
doc cannot drift from it again."""

from __future__ import annotations

import ast
import json
import re
import struct

import msgpack
import pytest

from scopa.engine import EndReason, RuleSet
from scopa.engine.rules import Preset
from scopa.protocol import ErrorCode, ForcedBy, LeftReason, example_commands
from scopa.protocol import commands as wire
from scopa.server.core.clock import FakeClock
from scopa.protocol.convert import rules_to_wire
from scopa.protocol.spec import ANY_COMMAND, COMMAND_ERRORS, may_refuse
from scopa.server import Limits, NetworkEngine
from scopa.server.network import DEFAULT_TURN_TIMEOUT
from scopa.server.core.text import bot_name

from procs import ROOT
from wire_client import WireClient

DOC = (ROOT / "docs" / "PROTOCOL.md").read_text(encoding="utf-8")
FLAT = " ".join(DOC.split())  # the doc's words, whatever the line breaks
README = (ROOT / "README.md").read_text(encoding="utf-8")
SERVER = ROOT / "server"


def section(name: str) -> str:
    start = DOC.index(f"### `{name}`\n")
    end = DOC.find("\n### ", start + 1)
    return DOC[start : end if end != -1 else len(DOC)]


def chapter(number: int) -> str:
    start = DOC.index(f"\n## {number}. ")
    end = DOC.find("\n## ", start + 1)
    return DOC[start : end if end != -1 else len(DOC)]


def codes_in(text: str) -> set[str]:
    return set(re.findall(r"`([a-z_]+)`", text))


# --------------------------------------------------------------------------- limits


def test_the_limits_the_doc_and_the_readme_give_are_the_servers_defaults() -> None:
    d = Limits()
    s = lambda x: f"{x:g} s"  # noqa: E731
    protocol = {  # what §7 and §15 say -> the value in the code
        r"within a few seconds of connecting \[([^\]]+)\]": s(d.hello_timeout),
        r"bounded time \[([^\]]+)\]": s(d.frame_timeout),
        r"silent for a while \[([^\]]+)\]": s(d.ping_interval),
        r"comes back in time \[([^\]]+)\]": s(d.ping_timeout),
        r"capped overall \[([^\]]+)\]": f"{d.max_connections}",
        r"per remote address \[([^\]]+)\]": f"{d.max_connections_per_address}",
        r"token bucket \[([^\]]+)\]": f"{d.commands_per_second:g} a second, bursts of {d.command_burst}",
        r"Persistent flooding \[([^\]]+)\]": f"more than {d.max_refused_commands} refused commands in "
                                              f"{d.refused_window:g} s",
        r"are bounded \[([^\]]+)\]": f"{d.max_queued_frames} frames, {d.max_queued_bytes // 1024} KB",
        r"A client may have \[([^\]]+)\]": f"{d.max_waiting_tables_per_client}",
        r"\[([^\]]+)\] bot-only games running": f"{d.max_bot_tables_per_client}",
        r"whole \[([^\]]+)\] and": f"{d.max_waiting_tables}",
        r"whole \[[^\]]+\] and \[([^\]]+)\]": f"{d.max_bot_tables}",
        r"at most once a second\s+\[([^\]]+)\]": s(d.table_update_interval),
        r"always have one \[([^\]]+)\]": s(DEFAULT_TURN_TIMEOUT),
        r"answers one page \[at most ([^\]]+)\]": f"{wire.MAX_PAGE}",
        r"`ping_after` (\d+ s), `dead_after`": s(d.ping_interval),
        r"`dead_after` (\d+ s) \(`Limits": s(d.ping_timeout),
    }  # fmt: skip
    for pattern, value in protocol.items():
        found = re.search(pattern, DOC)
        assert found is not None, pattern
        assert " ".join(found[1].split()) == value, (pattern, found[1], value)
    readme = {
        "hello_timeout": s(d.hello_timeout), "frame_timeout": s(d.frame_timeout),
        "ping_interval`, `ping_timeout": f"{s(d.ping_interval)}, {s(d.ping_timeout)}",
        "--max-connections": f"{d.max_connections}", "--max-connections-per-address": f"{d.max_connections_per_address}",
        "max_queued_frames": f"{d.max_queued_frames}", "--max-waiting-tables-per-client": f"{d.max_waiting_tables_per_client}",
        "--max-waiting-tables": f"{d.max_waiting_tables}", "--max-bot-tables-per-client": f"{d.max_bot_tables_per_client}",
        "--max-bot-tables": f"{d.max_bot_tables}", "finished_tables_kept": f"{d.finished_tables_kept}",
        "table_update_interval": s(d.table_update_interval),
        "commands_per_second`, `command_burst": f"{d.commands_per_second:g}, {d.command_burst}",
        "max_refused_commands`, `refused_window": f"{d.max_refused_commands}, {s(d.refused_window)}",
        "--turn-timeout": s(DEFAULT_TURN_TIMEOUT),
    }  # fmt: skip
    for name, value in readme.items():
        row = re.search(rf"^\| `{re.escape(name)}` \| ([^|]+) \|", README, re.M)
        assert row is not None, name
        assert row[1].strip() == value, (name, row[1], value)


async def test_after_the_welcome_a_trickled_frame_is_cut_by_the_ping_deadline_first() -> None:
    """§7: the frame deadline [20 s] is longer than the ping's 5 s + 10 s; the doc says
    which comes first."""
    d = Limits()
    assert d.frame_timeout is not None and d.ping_interval is not None and d.ping_timeout is not None
    assert d.ping_interval + d.ping_timeout < d.frame_timeout
    assert "Bytes of\n  an unfinished frame are not an answer to a ping" in DOC
    clock = FakeClock()
    server = NetworkEngine("127.0.0.1", 0, seed=3, clock=clock)
    await server.start()
    try:
        c = await WireClient.connect(server.port, "slow")
        c.send_raw(b"\x00\x00\x00\x20\x87")  # a frame begun, never finished
        clock.advance(d.ping_interval)
        assert (await c.recv()).name == "ping"
        clock.advance(d.ping_timeout)
        error = await c.recv()
        assert error.name == "error" and error.body.code == "timeout" and error.body.fatal
        assert "ping" in error.body.message and clock.now() < d.frame_timeout
    finally:
        await server.stop()


# --------------------------------------------------------------------------- error codes


def test_every_code_is_one_any_command_may_get_or_some_commands_own() -> None:
    particular = {code for codes in COMMAND_ERRORS.values() for code in codes}
    assert ANY_COMMAND | particular == set(ErrorCode)
    listed = DOC[DOC.index("Any command may be refused with") : DOC.index("| code | meaning |")]
    assert codes_in(listed) == {c.value for c in ANY_COMMAND}


@pytest.mark.parametrize("name", sorted(COMMAND_ERRORS))
def test_each_commands_errors_line_is_the_table_in_code(name: str) -> None:
    line = re.search(r"^\*\*Errors:\*\* (.+)$", section(name), re.M)
    assert line is not None, f"{name}: no Errors line"
    assert codes_in(line[1]) == {c.value for c in COMMAND_ERRORS[name]}, name


def test_every_code_said_not_sent_is_not_sent_by_the_server() -> None:
    used = {m for path in SERVER.glob("*.py") for m in re.findall(r"ErrorCode\.([A-Z_]+)", path.read_text())}
    for code in ErrorCode:
        row = re.search(rf"^\| `{code.value}` \| (.+) \|$", chapter(9), re.M)
        assert row is not None, code
        if code.name in used:
            assert "not sent" not in row[1], code


async def test_the_servers_refusals_are_in_the_table() -> None:
    """A corpus of refused commands: each answer's code is one its command may get."""
    server = NetworkEngine("127.0.0.1", 0, seed=4, admin_token_file=None)
    await server.start()
    got: list[tuple[str, str]] = []

    async def refused(c: WireClient, body: wire.Body, recipient: str = "lobby") -> str:
        seq = c.send(body, recipient=recipient)
        reply = await c.recv_until("error", "joined", "snapshot", "left", "table_created", "tables")
        while reply.re != seq:
            reply = await c.recv_until("error", "joined", "snapshot", "left", "table_created", "tables")
        assert reply.name == "error", (body, reply)
        got.append((body.NAME, reply.body.code.value))
        assert may_refuse(body.NAME, reply.body.code), (body.NAME, reply.body.code)
        return reply.body.code.value

    try:
        a = await WireClient.connect(server.port, "ann")
        b = await WireClient.connect(server.port, "bob")
        taken = await WireClient.connect(server.port)
        assert await refused(taken, wire.Hello(name="ann")) == "name_taken"
        resume = wire.ResumeRequest(token="x" * 30, last_event=0)
        assert await refused(taken, wire.Hello(name="zed", resume=resume)) == "bad_token"
        assert await refused(a, wire.CreateTable(preset=Preset.CIRULLA, options={"quindici": True})) == "bad_rules"
        assert await refused(a, wire.CreateTable(fill_with_bots=["nobody"])) == "unknown_bot"
        assert await refused(a, wire.JoinTable(table="404")) == "no_such_table"
        assert await refused(a, wire.LeaveTable(table="404")) == "not_at_table"
        assert await refused(a, wire.WatchTable(table="404")) == "no_such_table"
        assert await refused(a, wire.UnwatchTable(table="404")) == "not_at_table"
        table = await a.create()
        assert await refused(a, wire.PlayCard(card="7d"), f"table:{table}") == "game_not_started"
        assert await refused(b, wire.PlayCard(card="7d"), f"table:{table}") == "not_at_table"
        assert await refused(b, wire.Chat(text="hi"), f"table:{table}") == "not_at_table"
        assert await refused(a, wire.CreateTable()) == "already_at_table"
        assert await refused(a, wire.JoinTable(table=table)) == "already_at_table"
        assert await refused(a, wire.WatchTable(table=table)) == "already_at_table"
        c = await WireClient.connect(server.port, "cid")
        assert (await c.join(table)).name == "joined"
        assert await refused(b, wire.JoinTable(table=table)) == "table_full"
        for client in (a, b, c, taken):
            await client.close()
    finally:
        await server.stop()
    assert len(got) == 15


async def test_a_rules_map_that_is_no_ruleset_is_bad_body_and_preset_options_bad_rules() -> None:
    """§5, §7, §9: `rules` is decoded with the body (bad_body); preset and options are
    built by the server (bad_rules)."""
    assert "`bad_body` when decoding, or `bad_rules` from the server for `preset` + `options`" in FLAT
    assert "`bad_body`: a `rules` map that is not a valid RuleSet" in " ".join(chapter(7).split())
    assert "a `rules` map that is not a valid RuleSet is `bad_body`" in " ".join(chapter(9).split())
    server = NetworkEngine("127.0.0.1", 0, seed=5)
    await server.start()
    try:
        a = await WireClient.connect(server.port, "ann")
        scopa = json.loads(rules_to_wire(RuleSet.build("scopa")).model_dump_json())
        for impossible in ({"cirulla": True, "quindici": True}, {"players": 6, "teams": False}):
            body = dict(scopa, **impossible)
            frame = {"v": 2, "seq": 90, "sender": a.party, "recipient": "lobby", "re": None, "name": "create_table",
                     "body": {"rules": body}}  # fmt: skip
            payload = msgpack.packb(frame, use_bin_type=True)
            a.send_raw(struct.pack(">I", len(payload)) + payload)
            error = await a.recv_until("error")
            assert error.body.code == "bad_body", impossible
            assert may_refuse("create_table", error.body.code)
        a.send(wire.CreateTable(options={"players": 6, "teams": False}))
        assert (await a.recv_until("error")).body.code == "bad_rules"
        await a.close()
    finally:
        await server.stop()


# --------------------------------------------------------------------------- reasons


def reason_row(name: str, field: str) -> set[str]:
    row = re.search(rf"^\| `{field}` \| [^|]+ \| (.+) \|$", section(name), re.M)
    assert row is not None, (name, field)
    return codes_in(row[1].split("; default")[0])


def test_the_reasons_the_doc_lists_are_the_servers() -> None:
    assert reason_row("left", "reason") == {r.value for r in LeftReason}
    assert reason_row("played", "forced") == {r.value for r in ForcedBy}
    assert reason_row("game_end", "reason") == {r.value for r in EndReason}


def test_the_server_says_left_and_forced_only_with_their_reasons() -> None:
    """No reason is spelled out anywhere else: a ``Left(...)`` in the server takes a
    ``LeftReason`` (or a table's finish reason, itself one)."""
    for path in SERVER.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) in ("Left", "force", "_finish"):
                for arg in [*node.args, *(k.value for k in node.keywords if k.arg == "reason")]:
                    assert not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)), \
                        f"{path.name}:{node.lineno}: a reason spelled out"


# --------------------------------------------------------------------------- names, references, tables


def test_bot_names_in_the_examples_and_the_doc_are_the_servers() -> None:
    for command in example_commands().values():
        for seat in getattr(command.body, "seats", []) or []:
            if isinstance(seat, wire.SeatInfo) and seat.bot:
                assert seat.name == bot_name(seat.name.split("-", 1)[0], seat.seat), seat
    assert not re.search(r"bot-(random|greedy|expert)-\d", DOC)
    assert "greedy-bot-1" in DOC


def test_section_references_point_to_their_sections() -> None:
    headings = dict(re.findall(r"^## (\d+)\. (.+)$", DOC, re.M))
    for number in re.findall(r"changelog \(§(\d+)\)", DOC, re.I):
        assert headings[number] == "Changelog", number
    slugs = {re.sub(r"[^a-z0-9 -]", "", f"{n} {t}".lower()).replace(" ", "-") for n, t in headings.items()}
    slugs |= {re.sub(r"[^a-z0-9 -]", "", t.lower()).replace(" ", "-") for t in re.findall(r"^### (.+)$", DOC, re.M)}
    for link in re.findall(r"\]\(#([^)]+)\)", DOC):
        assert link in slugs, link


@pytest.mark.parametrize("name", sorted(example_commands()))
def test_every_body_field_is_a_row_of_its_sections_field_table(name: str) -> None:
    """The field table of a section is one block of table rows: a paragraph inside it
    would cut the rows after it off (as once in ``round_end``)."""
    text = section(name)
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("| field |")), None)
    fields = type(example_commands()[name].body).model_fields
    if start is None:
        assert not fields, name
        return
    block = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        block.append(line)
    rows = {f for line in block if (m := re.match(r"^\| `([a-z_]+)`(?:, `([a-z_]+)`)?", line)) for f in m.groups()
            if f}  # fmt: skip
    assert set(fields) <= rows, (name, set(fields) - rows)


def test_each_seats_deal_has_its_own_number_as_the_doc_says() -> None:
    assert "each seat's deal has its own (§2)" in section("deal")
    recorded = json.loads((ROOT / "docs" / "transcript.json").read_text(encoding="utf-8"))
    deals = {f["frame"]["body"]["event"] for c in recorded["connections"] for f in c["frames"]
             if f["frame"]["name"] == "deal"}  # fmt: skip
    count = sum(f["frame"]["name"] == "deal" for c in recorded["connections"] for f in c["frames"])
    assert len(deals) == count > 2  # no two seats' deals share a number


def test_the_doc_says_what_the_returning_client_and_a_dropped_creator_get() -> None:
    assert "the returning client included**, gets\n  `seat_back`" in chapter(7)
    assert "a seat it holds is kept for the grace period like any\nother" in DOC
    assert "`closed`" in section("left")
