"""docs/PROTOCOL.md documents every command, and its examples are real."""

from __future__ import annotations

import json
import re
import socket
import ssl
import threading
from pathlib import Path

import pytest

from scopa.engine.rules import Preset, RuleSet
from scopa.protocol.convert import rules_to_wire
from scopa.protocol import (
    Message,
    COMMAND_ADAPTER,
    COMMAND_NAMES,
    Bye,
    Connection,
    ConnectionRole,
    CreateTable,
    ErrorCode,
    GameEnd,
    GameStart,
    Hello,
    Joined,
    LegalMove,
    ListTables,
    PlayCard,
    CardPlayed,
    RoundStart,
    SeatInfo,
    TableCreated,
    TableInfo,
    Tables,
    TableState,
    SeatView,
    Welcome,
    YourTurn,
    decode,
    example_commands,
)

from paths import ROOT

DOC = ROOT / "docs" / "PROTOCOL.md"
TEXT = DOC.read_text(encoding="utf-8")
HEADING = re.compile(r"^### `([a-z_]+)`$", re.M)
FENCE = re.compile(r"```(\w+)\n(.*?)\n```", re.S)


def sections() -> dict[str, str]:
    """Command name -> the text of its ``### `name` `` section."""
    matches = list(HEADING.finditer(TEXT))
    out = {}
    for m, nxt in zip(matches, matches[1:] + [None]):
        end = nxt.start() if nxt else TEXT.index("\n## ", m.end())
        out[m[1]] = TEXT[m.end() : end]
    return out


def test_every_command_has_a_section_and_nothing_else_does() -> None:
    documented = list(sections())
    assert len(documented) == len(set(documented)), "a command documented twice"
    assert set(documented) == set(COMMAND_NAMES)


@pytest.mark.parametrize("name", sorted(COMMAND_NAMES))
def test_section_example_decodes_to_its_command(name: str) -> None:
    section = sections()[name]
    examples = [body for lang, body in FENCE.findall(section) if lang == "json"]
    assert len(examples) == 1, f"{name}: expected one json example"
    obj = json.loads(examples[0])
    command = COMMAND_ADAPTER.validate_json(json.dumps(obj), strict=True)
    assert command.name == name
    assert command == example_commands()[name]


@pytest.mark.parametrize("name", sorted(COMMAND_NAMES))
def test_section_names_every_body_field(name: str) -> None:
    body_type = type(example_commands()[name].body)
    section = sections()[name]
    for field in body_type.model_fields:
        assert f"`{field}`" in section, f"{name}: field {field!r} not documented"


def test_hex_example_decodes_to_the_claimed_command() -> None:
    marker = re.search(r"<!-- hex-example: ([a-z_]+) -->\n```text\n(.*?)\n```", TEXT, re.S)
    assert marker is not None
    claimed_name, dump = marker[1], marker[2]
    frame = bytes.fromhex("".join(line[10:58] for line in dump.splitlines()))
    command = decode(frame)
    assert command.name == claimed_name
    claimed = re.search(r"<!-- hex-example-decoded -->\n```json\n(.*?)\n```", TEXT, re.S)
    assert claimed is not None
    assert command == COMMAND_ADAPTER.validate_json(claimed[1], strict=True)
    size = int.from_bytes(frame[:4], "big")
    assert f"{size} bytes" in TEXT and f"0x{size:02x} = {size}" in TEXT


def test_every_error_code_and_rule_field_and_preset_is_documented() -> None:
    codes = TEXT[TEXT.index("## 9. Error codes") : TEXT.index("## 10.")]
    for code in ErrorCode:
        assert f"| `{code.value}` |" in codes, code
    for field in RuleSet.model_fields:
        assert f"| `{field}` |" in TEXT, field
    for preset in Preset:
        assert f"| `{preset.value}` |" in TEXT, preset


def test_mermaid_diagrams_for_each_scene() -> None:
    for title in ("Connecting", "The lobby", "A full turn", "An illegal move", "A round end", "A game end"):
        section = TEXT[TEXT.index(f"### {title}\n") :]
        assert section.split("```", 2)[1].startswith("mermaid\nsequenceDiagram"), title


# --- the "write a bot" section, run against a scripted server ------------------------


def bot_source(port: int) -> str:
    section = TEXT[TEXT.index("## 12. Write a bot") :]
    code = next(body for lang, body in FENCE.findall(section) if lang == "python")
    assert "7777" in code
    return code.replace("7777", str(port))


def tls_bot_source(port: int, pinned: str) -> str:
    """The documented bot with its ``sock = …`` line replaced by the TLS lines of §12."""
    section = TEXT[TEXT.index("## 12. Write a bot") :]
    blocks = [body for lang, body in FENCE.findall(section) if lang == "python"]
    plain, secure = blocks[0], blocks[1]
    line = next(x for x in plain.splitlines() if x.startswith("sock = "))
    secure = re.sub(r'^PINNED = "[^"]*"', f"PINNED = {pinned!r}", secure, flags=re.M)
    assert f"PINNED = {pinned!r}" in secure and "7777" in secure
    return plain.replace(line, secure).replace("7777", str(port))


def scripted_server(listener: socket.socket, log: list[str]) -> None:
    """A tiny server playing one one-turn game by the doc's promises (§7)."""
    sock, _ = listener.accept()
    conn = Connection(ConnectionRole.SERVER)
    rules = rules_to_wire(RuleSet.build("scopa"))
    info = TableInfo(id="7", rules=rules, description="scopa", seats=["anybot", None], state=TableState.WAITING)
    me, table, everyone = "player:anybot", "table:7", "table:7/all"
    legal = [LegalMove(index=0, card="7d", capture=["4s", "3b"]), LegalMove(index=1, card="3c", capture=["3b"])]

    def receive() -> object:
        while True:
            command = conn.next_command()
            if command is not None:
                log.append(command.name)
                return command
            conn.feed(sock.recv(4096))

    def send(body: object, recipient: str, re: int | None = None, sender: str | None = None) -> None:
        sock.sendall(conn.send(Message(body, recipient=recipient, re=re, sender=sender)))  # type: ignore[arg-type]

    hello = receive()
    assert isinstance(hello.body, Hello)  # type: ignore[attr-defined]
    send(Welcome(you=me, server="test", protocol=2), me, re=hello.seq)  # type: ignore[attr-defined]
    ask = receive()
    assert isinstance(ask.body, ListTables)  # type: ignore[attr-defined]
    send(Tables(tables=[]), me, re=ask.seq)  # type: ignore[attr-defined]
    create = receive()
    assert isinstance(create.body, CreateTable) and create.body.fill_with_bots == ["random"]  # type: ignore[attr-defined]
    send(TableCreated(table=info), me, re=create.seq)  # type: ignore[attr-defined]
    send(Joined(table="7", seat=0, side=0, token="tok-12345678"), me, re=create.seq)  # type: ignore[attr-defined]
    seats = [SeatInfo(seat=0, name="anybot", side=0), SeatInfo(seat=1, name="random-1", side=1, bot=True)]
    send(GameStart(event=1, rules=rules, seats=seats, sides=[[0], [1]]), everyone, sender=table)
    send(RoundStart(event=2, round=1, dealer=1, table=["4s", "3b"], stock=30), everyone, sender=table)
    view = SeatView(
        seat=0, side=0, round=1, dealer=1, turn=0, hand=["7d", "3c"], table=["4s", "3b"], stock=30,
        hand_sizes=[2, 3], captured=[[], []], scope=[0, 0], scopa_cards=[[], []], totals=[0, 0],
    )  # fmt: skip
    send(YourTurn(event=3, legal=legal, view=view), me, sender=table)
    play = receive()
    assert isinstance(play.body, PlayCard)  # type: ignore[attr-defined]
    assert (play.body.card, sorted(play.body.capture)) == ("7d", ["3b", "4s"])  # type: ignore[attr-defined]
    assert play.recipient == table and play.sender == me  # type: ignore[attr-defined]
    send(CardPlayed(event=4, seat=0, card="7d", captured=["4s", "3b"], scopa=True, table=[]), everyone, sender=table)
    send(GameEnd(event=5, winner=0, totals=[11, 3], reason="target"), everyone, sender=table)
    bye = receive()
    assert isinstance(bye.body, Bye)  # type: ignore[attr-defined]
    sock.close()


def test_the_documented_bot_plays_a_game() -> None:
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    log: list[str] = []
    errors: list[BaseException] = []

    def serve() -> None:
        try:
            scripted_server(listener, log)
        except BaseException as exc:  # noqa: BLE001 - reported by the test below
            errors.append(exc)

    server = threading.Thread(target=serve, daemon=True)
    server.start()
    listener.settimeout(10)
    namespace: dict[str, object] = {"__name__": "doc_bot", "print": lambda *a: None}
    try:
        exec(compile(bot_source(port), "PROTOCOL.md bot", "exec"), namespace)  # noqa: S102
    except SystemExit as exc:  # the bot's way to say the server hung up
        pytest.fail(f"the documented bot stopped: {exc}; server errors: {errors}")
    server.join(10)
    listener.close()
    assert not errors, errors
    assert log == ["hello", "list_tables", "create_table", "play", "bye"]


# --- the doc is what the server does: routes, refusals, the changelog -----------------

from pydantic import BaseModel  # noqa: E402

from scopa.protocol import ROUTES, PartyKind, Route, route_allowed  # noqa: E402
from scopa.protocol.commands import BODY_TYPES  # noqa: E402

TOKENS = {"guest": PartyKind.GUEST, "lobby": PartyKind.LOBBY, "player:<you>": PartyKind.PLAYER,
          "table:<id>": PartyKind.TABLE, "table:<id>/all": PartyKind.TABLE_ALL}
PAIR = re.compile(r"`([^`]+)` → `([^`]+)`")


def _section(start: str, end: str) -> str:
    return TEXT[TEXT.index(start) : TEXT.index(end)]


def test_section_3_table_is_the_routes_table_in_code() -> None:
    rows = re.findall(r"^\| `([^`]+)` → `([^`]+)` \| (.+) \|$", _section("## 3. Parties", "## 4."), re.M)
    assert rows
    documented = {(name, Route(TOKENS[s], TOKENS[r])) for s, r, names in rows for name in re.findall(r"`([a-z_]+)`", names)}
    assert documented == {(name, route) for name, routes in ROUTES.items() for route in routes}


@pytest.mark.parametrize("name", sorted(COMMAND_NAMES))
def test_section_8_says_who_sends_each_command_to_whom(name: str) -> None:
    line = re.search(r"^\*\*Route:\*\* (.+)$", sections()[name], re.M)
    assert line is not None, f"{name}: no Route line"
    assert {Route(TOKENS[s], TOKENS[r]) for s, r in PAIR.findall(line[1])} == ROUTES[name]


def _kinds(label: str) -> set[PartyKind]:
    """The party kinds a diagram participant stands for (a connection is ``guest`` until
    its welcome, then ``player:``)."""
    if "(guest" in label:
        return {PartyKind.GUEST} | ({PartyKind.PLAYER} if "player:" in label else set())
    if label.startswith("player:"):
        return {PartyKind.PLAYER}
    if label.startswith("table:"):
        return {PartyKind.TABLE}
    assert label == "lobby", label
    return {PartyKind.LOBBY}


def test_section_10_diagrams_follow_the_routes() -> None:
    diagrams = [body for lang, body in FENCE.findall(_section("## 10.", "## 11.")) if lang == "mermaid"]
    assert len(diagrams) >= 10
    arrows = 0
    for diagram in diagrams:
        kinds = {alias: _kinds(label) for alias, label in re.findall(r"participant (\w+) as (.+)$", diagram, re.M)}
        for a, b, message in re.findall(r"^\s*(\w+)->>(\w+): (.+)$", diagram, re.M):
            name = message.split()[0].rstrip(",")
            assert name in COMMAND_NAMES, message
            recipients = {PartyKind.TABLE_ALL} if re.search(r"\(to table:\w+/all", message) else kinds[b]
            routes = {Route(s, r) for s in kinds[a] for r in recipients}
            assert routes & ROUTES[name], (message, routes)
            arrows += 1
    assert arrows > 60


def test_every_refusal_is_in_the_per_state_table() -> None:
    table = _section("**Every refusal.**", "## 8. Commands")
    rows = [line for line in table.splitlines() if line.startswith("| ") and not line.startswith("| state")]
    codes = {code for line in rows for code in re.findall(r"`([a-z_]+)`", line.split("|")[3])}
    assert codes == {code.value for code in ErrorCode}
    for line in rows:
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert len(cells) == 6, line
        assert cells[4].rstrip("²") in ("yes", "no") and cells[5] in ("yes", "no", "only when late"), line


def test_the_doc_states_the_version_2_rules() -> None:
    assert TEXT.startswith("# The Scopa wire protocol (version 2)")
    assert "A client MUST ignore keys it does not know" in TEXT
    assert "MUST NOT be rate-limited" in TEXT
    assert "**its own number**" in _section("## 2. The envelope", "## 3.")  # one event per seat's deal
    assert "Spectators **do** get the table's chat" in TEXT
    assert "a repeated `seq` is run like any other command" in TEXT
    assert "`83` = a map of 3" in TEXT
    pacing = TEXT[TEXT.index("**Client pacing and backoff.**") :]
    assert "exponential backoff" in pacing[:1500] and "SHOULD" in pacing[:1500]


# The commands and body fields of version 1, to hold the changelog to every addition.
V1_COMMANDS = frozenset({
    "bye", "chat", "chat_message", "create_table", "deal", "declare", "declared", "error", "game_end",
    "game_start", "hello", "join_table", "joined", "leave_table", "left", "list_tables", "ping", "play",
    "played", "pong", "round_end", "round_start", "snapshot", "table_created", "table_update", "tables",
    "unwatch_table", "watch_table", "welcome", "your_turn",
})  # fmt: skip
V1_FIELDS = {
    "SeatView": {"captured", "dealer", "declared", "hand", "hand_sizes", "round", "scopa_cards", "scope", "seat",
             "side", "stock", "table", "totals", "turn"},
    "PublicView": {"captured", "dealer", "declared", "hand_sizes", "round", "scopa_cards", "scope", "stock",
                   "table", "totals", "turn"},
    "RoundEnd": {"breakdown", "cards", "event", "leftover", "leftover_to", "points", "round", "totals"},
    "TableInfo": {"away", "description", "id", "private", "rules", "seats", "spectators", "state", "turn_timeout"},
    "PlayCard": {"capture", "card", "turn"},
}


def _wire_models() -> dict[str, type[BaseModel]]:
    """Every wire model reachable from the command bodies, by class name."""
    import typing

    found: dict[str, type[BaseModel]] = {}

    def visit(annotation: object) -> None:
        for arg in typing.get_args(annotation):
            visit(arg)
        if isinstance(annotation, type) and issubclass(annotation, BaseModel) \
                and annotation.__module__.startswith("scopa.protocol") and annotation.__name__ not in found:
            found[annotation.__name__] = annotation
            for f in annotation.model_fields.values():
                visit(f.annotation)

    for body in BODY_TYPES:
        visit(body)
    return found


def test_the_changelog_lists_every_addition_since_version_1() -> None:
    log = TEXT[TEXT.index("## 14. Changelog") :]
    for name in sorted(COMMAND_NAMES - V1_COMMANDS):
        assert f"`{name}`" in log, f"new command {name} not in the changelog"
    for model, fields in V1_FIELDS.items():
        for field in sorted(set(_wire_models()[model].model_fields) - fields):
            assert f"`{field}`" in log, f"{model}.{field} not in the changelog"
    for model in sorted(set(_wire_models()) - set(V1_FIELDS)):
        if _wire_models()[model].__module__ == "scopa.protocol.commands" and model in ("PlayLogEntry", "PileInfo",
                                                                                      "SideTally"):
            for field in _wire_models()[model].model_fields:
                assert f"`{field}`" in log, f"{model}.{field} not in the changelog"
    assert "`closed`" in log and "`v` is `2`" in log


def test_the_recorded_transcript_follows_the_routes() -> None:
    """docs/transcript.json (a whole game recorded from a live server, both ways) uses
    only the routes of §3."""
    recorded = json.loads((DOC.parent / "transcript.json").read_text(encoding="utf-8"))
    frames = [f["frame"] for c in recorded["connections"] for f in c["frames"]]
    assert len(frames) > 400
    for frame in frames:
        assert frame["v"] == 2
        assert route_allowed(frame["name"], frame["sender"], frame["recipient"]), frame


def _tls_listener(tmp_path: Path) -> tuple[ssl.SSLSocket, int, str]:
    """A TLS listener on 127.0.0.1 with a self-signed certificate: it, its port, the fingerprint."""
    from scopa.server.core.tls import self_signed

    tls = self_signed(tmp_path)
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    secure = tls.context.wrap_socket(listener, server_side=True)
    secure.settimeout(10)
    return secure, port, tls.fingerprint


def test_the_documented_bot_plays_a_game_over_tls(tmp_path: Path) -> None:
    secure, port, fingerprint = _tls_listener(tmp_path)
    log: list[str] = []
    errors: list[BaseException] = []

    def serve() -> None:
        try:
            scripted_server(secure, log)
        except BaseException as exc:  # noqa: BLE001 - reported by the test below
            errors.append(exc)

    server = threading.Thread(target=serve, daemon=True)
    server.start()
    namespace: dict[str, object] = {"__name__": "doc_bot", "print": lambda *a: None}
    try:
        exec(compile(tls_bot_source(port, fingerprint), "PROTOCOL.md bot over TLS", "exec"), namespace)  # noqa: S102
    except SystemExit as exc:
        pytest.fail(f"the documented bot stopped: {exc}; server errors: {errors}")
    server.join(10)
    secure.close()
    assert not errors, errors
    assert log == ["hello", "list_tables", "create_table", "play", "bye"]


def test_the_documented_bot_sends_nothing_to_another_certificate(tmp_path: Path) -> None:
    secure, port, fingerprint = _tls_listener(tmp_path)
    received: list[bytes] = []

    def serve() -> None:
        sock, _ = secure.accept()
        try:
            received.append(sock.recv(4096))
        except (ssl.SSLError, OSError):
            received.append(b"")  # closed without a word
        sock.close()

    server = threading.Thread(target=serve, daemon=True)
    server.start()
    namespace: dict[str, object] = {"__name__": "doc_bot", "print": lambda *a: None}
    with pytest.raises(SystemExit, match="not the certificate of this server: nothing was sent"):
        exec(compile(tls_bot_source(port, ":".join(["AB"] * 32)), "PROTOCOL.md bot over TLS", "exec"),  # noqa: S102
             namespace)
    sock = namespace["sock"]
    assert isinstance(sock, ssl.SSLSocket)
    sock.close()
    server.join(10)
    secure.close()
    assert received == [b""]
