"""docs/PROTOCOL.md documents every command, and its examples are real."""

from __future__ import annotations

import json
import re
import socket
import threading
from pathlib import Path

import pytest

from scopa.engine.rules import Preset, RuleSet
from scopa.protocol import (
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
    Play,
    Played,
    RoundStart,
    SeatInfo,
    TableCreated,
    TableInfo,
    Tables,
    TableState,
    View,
    Welcome,
    YourTurn,
    decode,
    example_commands,
)

DOC = Path(__file__).resolve().parent.parent / "docs" / "PROTOCOL.md"
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


def scripted_server(listener: socket.socket, log: list[str]) -> None:
    """A tiny server playing one one-turn game by the doc's promises (§7)."""
    sock, _ = listener.accept()
    conn = Connection(ConnectionRole.SERVER)
    rules = RuleSet.build("scopa")
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
        sock.sendall(conn.send_body(body, recipient=recipient, re=re, sender=sender))  # type: ignore[arg-type]

    hello = receive()
    assert isinstance(hello.body, Hello)  # type: ignore[attr-defined]
    send(Welcome(you=me, server="test", protocol=2), me, re=hello.seq)  # type: ignore[attr-defined]
    ask = receive()
    assert isinstance(ask.body, ListTables)  # type: ignore[attr-defined]
    send(Tables(tables=[]), me, re=ask.seq)  # type: ignore[attr-defined]
    create = receive()
    assert isinstance(create.body, CreateTable) and create.body.fill_with_bots == ["random"]  # type: ignore[attr-defined]
    send(TableCreated(table=info), me, re=create.seq)  # type: ignore[attr-defined]
    send(Joined(table="7", seat=0, side=0, token="tok-12345678"), me, re=create.seq, sender=table)  # type: ignore[attr-defined]
    seats = [SeatInfo(seat=0, name="anybot", side=0), SeatInfo(seat=1, name="random-1", side=1, bot=True)]
    send(GameStart(event=1, rules=rules, seats=seats, sides=[[0], [1]]), everyone, sender=table)
    send(RoundStart(event=2, round=1, dealer=1, table=["4s", "3b"], stock=30), everyone, sender=table)
    view = View(
        seat=0, side=0, round=1, dealer=1, turn=0, hand=["7d", "3c"], table=["4s", "3b"], stock=30,
        hand_sizes=[2, 3], captured=[[], []], scope=[0, 0], scopa_cards=[[], []], totals=[0, 0],
    )  # fmt: skip
    send(YourTurn(event=3, legal=legal, view=view), me, sender=table)
    play = receive()
    assert isinstance(play.body, Play)  # type: ignore[attr-defined]
    assert (play.body.card, sorted(play.body.capture)) == ("7d", ["3b", "4s"])  # type: ignore[attr-defined]
    assert play.recipient == table and play.sender == me  # type: ignore[attr-defined]
    send(Played(event=4, seat=0, card="7d", captured=["4s", "3b"], scopa=True, table=[]), everyone, sender=table)
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
    exec(compile(bot_source(port), "PROTOCOL.md bot", "exec"), namespace)  # noqa: S102
    server.join(10)
    listener.close()
    assert not errors, errors
    assert log == ["hello", "list_tables", "create_table", "play", "bye"]
