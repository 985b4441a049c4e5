"""The pure parts of finding a server on the LAN: the TXT record both sides read, the
paced refresh of the announcement (on a fake clock), the announcer's life with a
publisher that only takes notes, which listening addresses are announced, the list a
person picks a server from, and the page's QR code.  (tests/server/test_lan_netns.py runs the
real thing between two network namespaces.)"""

from __future__ import annotations

import asyncio
from rich.console import Console

import pytest

from scopa.client.net import FoundServer, choice_rows, parse_choice
from scopa.cli.web import print_qr
from scopa.protocol import PROTOCOL_VERSION
from scopa.server.core.clock import FakeClock
from scopa.protocol.servers import MAX_NAME_BYTES, LanRecord, clean_server_name
from scopa.server import NetworkEngine
from scopa.server.lan import (
    REFRESH_INTERVAL, STOP_TIMEOUT, Announcer, LanIdentity, RefreshPacer, announces, lan_announcer, lobby_record,
    reachable_hosts,
)

from paths import ROOT

# --------------------------------------------------------------------------- the TXT record


def test_a_record_reads_back_as_it_was_written() -> None:
    record = LanRecord("Casa Rossi", PROTOCOL_VERSION, tables=3, players=7, web_port=8000)
    txt = record.to_txt()
    assert txt == {"txtvers": "1", "name": "Casa Rossi", "proto": str(PROTOCOL_VERSION), "tables": "3",
                   "players": "7", "web": "8000"}
    as_zeroconf_gives_it = {k.encode(): v.encode() for k, v in txt.items()}
    assert LanRecord.from_txt(as_zeroconf_gives_it) == record


def test_a_record_without_a_web_page_has_no_web_key() -> None:
    txt = LanRecord("x", 2, 0, 0).to_txt()
    assert "web" not in txt
    assert LanRecord.from_txt(txt).web_port is None


@pytest.mark.parametrize("txt, complaint", [
    ({"txtvers": "2", "name": "a", "proto": "2", "tables": "0", "players": "0"}, "layout"),
    ({"txtvers": "1", "name": "a", "proto": "2", "players": "0"}, "'tables' is missing"),
    ({"txtvers": "1", "name": "a", "proto": "2", "tables": "-1", "players": "0"}, "not a whole number"),
    ({"txtvers": "1", "name": "a", "proto": "x", "tables": "0", "players": "0"}, "not a whole number"),
    ({"txtvers": "1", "name": "a", "proto": "2", "tables": "0", "players": "0", "web": "70000"}, "not a port"),
])
def test_a_malformed_record_is_refused_with_what_is_wrong(txt: dict[str, str], complaint: str) -> None:
    with pytest.raises(ValueError, match=complaint):
        LanRecord.from_txt(txt)


def test_a_server_name_fits_a_dns_label() -> None:
    assert clean_server_name("  ada's\nserver.lan  ") == "ada's server lan"  # no dots: they split labels
    long = clean_server_name("è" * 100)
    assert len(long.encode()) <= MAX_NAME_BYTES and long == "è" * (MAX_NAME_BYTES // 2)  # whole characters
    assert clean_server_name("...") == "scopa"


# --------------------------------------------------------------------------- which servers are announced


@pytest.mark.parametrize("host, announced", [
    ("0.0.0.0", True), ("::", True), ("", True), ("10.213.0.1", True), ("192.168.1.10", True),
    ("127.0.0.1", False), ("127.0.0.2", False), ("::1", False), ("[::1]", False), ("localhost", False),
])
def test_only_a_server_listening_beyond_loopback_is_announced(host: str, announced: bool) -> None:
    assert announces(host) is announced


def test_a_loopback_server_gets_no_announcer() -> None:
    def figures() -> LanRecord:
        return LanRecord("x", PROTOCOL_VERSION, 0, 0)

    assert lan_announcer("127.0.0.1", 7015, figures, FakeClock()) is None
    assert lan_announcer("::1", 7015, figures, FakeClock()) is None
    assert lan_announcer("0.0.0.0", 7015, figures, FakeClock()) is not None


def test_a_server_tells_where_other_machines_reach_it_not_loopback() -> None:
    """welcome's lan_hosts: the address it listens on beyond loopback; none on loopback only."""
    assert reachable_hosts("192.168.1.10") == ["192.168.1.10"]
    assert reachable_hosts("127.0.0.1") == reachable_hosts("::1") == reachable_hosts("localhost") == []


async def test_a_loopback_server_welcomes_without_lan_hosts() -> None:
    engine = NetworkEngine("127.0.0.1", 0)
    await engine.start()
    try:
        welcome = engine.router.greeting._welcome_body("player:ada")
        assert welcome.lan_hosts == [] and "lan_hosts" not in welcome.model_dump(mode="json", exclude_none=True)
    finally:
        await engine.stop()


def test_a_server_record_counts_open_public_tables_and_named_clients() -> None:
    engine = NetworkEngine("0.0.0.0", 0)
    record = lobby_record(engine.tables, 3, LanIdentity("alpha", web_port=8000))
    assert record == LanRecord("alpha", PROTOCOL_VERSION, tables=0, players=3, web_port=8000)


# --------------------------------------------------------------------------- paced refreshes


def test_a_change_refreshes_at_once_then_at_most_once_an_interval() -> None:
    clock = FakeClock(start=50.0)
    refreshed: list[float] = []
    pacer = RefreshPacer(clock, 2.0, lambda: refreshed.append(clock.now()))
    pacer.changed()
    assert refreshed == [50.0]  # nothing refreshed lately: at once
    clock.advance(0.5)
    pacer.changed()
    pacer.changed()
    pacer.changed()
    assert refreshed == [50.0] and pacer.pending  # three changes, one refresh waiting
    clock.advance(1.4)
    assert refreshed == [50.0]
    clock.advance(0.1)
    assert refreshed == [50.0, 52.0]  # two seconds after the last one
    clock.advance(5.0)
    pacer.changed()
    assert refreshed == [50.0, 52.0, 57.0]  # long after: at once again


def test_a_cancelled_pacer_refreshes_nothing() -> None:
    clock = FakeClock()
    refreshed: list[float] = []
    pacer = RefreshPacer(clock, 2.0, lambda: refreshed.append(clock.now()))
    pacer.changed()
    pacer.changed()
    pacer.cancel()
    clock.advance(10.0)
    assert refreshed == [0.0]


class NotePublisher:
    """A publisher that writes down what it is asked to publish."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, LanRecord | None]] = []

    async def register(self, record: LanRecord) -> None:
        await asyncio.sleep(0)  # as the network does: later
        self.calls.append(("register", record))

    async def update(self, record: LanRecord) -> None:
        self.calls.append(("update", record))

    async def unregister(self) -> None:
        self.calls.append(("unregister", None))


async def test_the_announcer_registers_refreshes_what_changed_paced_and_withdraws() -> None:
    clock = FakeClock()
    figures = {"tables": 0, "players": 0}
    publisher = NotePublisher()

    def record() -> LanRecord:
        return LanRecord("alpha", PROTOCOL_VERSION, figures["tables"], figures["players"])

    announcer = Announcer(publisher, record, clock, interval=2.0)
    announcer.start()
    announcer.changed()  # nothing changed: nothing to send
    await announcer.settled()
    assert publisher.calls == [("register", record())]

    figures["players"] = 1
    announcer.changed()
    await announcer.settled()
    assert publisher.calls[-1] == ("update", LanRecord("alpha", PROTOCOL_VERSION, 0, 1))

    figures["tables"] = 1  # a burst of changes within the interval: one refresh, with the last figures
    announcer.changed()
    figures["tables"] = 2
    announcer.changed()
    await announcer.settled()
    assert len(publisher.calls) == 2
    clock.advance(2.0)
    await announcer.settled()
    assert publisher.calls[-1] == ("update", LanRecord("alpha", PROTOCOL_VERSION, 2, 1))
    assert len(publisher.calls) == 3

    announcer.set_web_port(8123)  # the web page listens: the record says where
    clock.advance(2.0)
    await announcer.settled()
    assert publisher.calls[-1] == ("update", LanRecord("alpha", PROTOCOL_VERSION, 2, 1, web_port=8123))

    figures["tables"] = 0
    announcer.changed()  # waits for its time…
    await announcer.stop()  # …but the announcement is withdrawn first, and nothing follows
    clock.advance(10.0)
    await announcer.settled()
    assert publisher.calls[-1] == ("unregister", None) and len(publisher.calls) == 5


async def test_the_lobby_tells_the_announcer_of_clients_and_tables() -> None:
    from scopa.client import ClientSession

    engine = NetworkEngine("127.0.0.1", 0)
    await engine.start()
    clock = FakeClock()
    publisher = NotePublisher()
    announcer = Announcer(publisher, lambda: lobby_record(engine.tables, len(engine.names), LanIdentity("a")), clock)
    engine.lobby_listeners.append(announcer.changed)
    announcer.start()
    try:
        async with asyncio.timeout(30):
            session = await ClientSession.connect("127.0.0.1", engine.port, "ada")
            await announcer.settled()
            assert publisher.calls[-1] == ("update", LanRecord("a", PROTOCOL_VERSION, tables=0, players=1))
            await session.create_table(sit=True)
            clock.advance(REFRESH_INTERVAL)
            await announcer.settled()
            assert publisher.calls[-1] == ("update", LanRecord("a", PROTOCOL_VERSION, tables=1, players=1))
            await session.close()
            while len(engine.names):  # the server sees the connection go
                await asyncio.sleep(0)
            clock.advance(REFRESH_INTERVAL)
            await announcer.settled()
            assert publisher.calls[-1] == ("update", LanRecord("a", PROTOCOL_VERSION, tables=0, players=0))
    finally:
        await announcer.stop()
        await engine.stop()


async def test_a_failing_publisher_never_stops_the_server() -> None:
    class Broken(NotePublisher):
        async def register(self, record: LanRecord) -> None:
            raise OSError("no multicast here")

    publisher = Broken()
    announcer = Announcer(publisher, lambda: LanRecord("a", PROTOCOL_VERSION, 0, 0), FakeClock())
    announcer.start()
    await announcer.stop()
    assert publisher.calls == [("unregister", None)]


# --------------------------------------------------------------------------- the list to choose from


def found(name: str, host: str, port: int, tables: int, players: int, web: int | None = None,
          protocol: int = PROTOCOL_VERSION) -> FoundServer:
    return FoundServer(host, port, LanRecord(name, protocol, tables, players, web))


def test_the_choice_list_numbers_each_server_with_what_it_offers() -> None:
    rows = choice_rows([found("alpha", "10.213.1.1", 7015, 1, 1), found("beta", "10.213.1.1", 7016, 0, 3, web=8000),
                        found("old", "fd00::5", 7015, 2, 2, protocol=PROTOCOL_VERSION + 1)])
    assert rows == [
        "1. alpha  10.213.1.1:7015  1 open table, 1 player",
        "2. beta  10.213.1.1:7016  0 open tables, 3 players, web http://10.213.1.1:8000/",
        f"3. old  [fd00::5]:7015  2 open tables, 2 players (protocol {PROTOCOL_VERSION + 1}: "
        "cannot be joined with this client)",
    ]


@pytest.mark.parametrize("answer, index", [("1", 0), (" 3 ", 2), ("0", None), ("4", None), ("beta", None),
                                           ("", None), ("-1", None)])
def test_a_choice_is_a_number_from_the_list(answer: str, index: int | None) -> None:
    assert parse_choice(answer, 3) == index


# --------------------------------------------------------------------------- the page's QR code


def test_the_web_page_lan_address_is_shown_as_a_qr_code() -> None:
    console = Console(record=True, width=120)
    print_qr(console, ["http://10.213.1.1:8000/", "http://127.0.0.1:8000/"])
    text = console.export_text()
    assert "open http://10.213.1.1:8000/" in text
    lines = [line for line in text.splitlines() if line.startswith("█")]
    assert len(lines) >= 10 and len({len(line) for line in lines}) == 1  # a square of blocks


def test_no_qr_code_for_a_page_on_loopback_only() -> None:
    console = Console(record=True, width=120)
    print_qr(console, ["http://127.0.0.1:8000/"])
    assert console.export_text() == ""


def test_the_protocol_document_lists_every_txt_key() -> None:
    from pathlib import Path
    import re

    doc = (ROOT / "docs" / "PROTOCOL.md").read_text(encoding="utf-8")
    section = doc[doc.index("### Finding a server on the LAN"):doc.index("### A real frame")]
    documented = re.findall(r"^\| `([a-z]+)` \|", section, flags=re.M)
    every_key = LanRecord("a", PROTOCOL_VERSION, 0, 0, web_port=1, tls=":".join(["AB"] * 32))
    assert documented == list(every_key.to_txt())
    assert f"(this document: {PROTOCOL_VERSION})" in section and "`_scopa._tcp`" in section


async def test_a_goodbye_that_never_goes_out_holds_up_the_stop_only_so_long() -> None:
    class Stuck(NotePublisher):
        async def unregister(self) -> None:
            await asyncio.Event().wait()

    clock = FakeClock()
    announcer = Announcer(Stuck(), lambda: LanRecord("a", PROTOCOL_VERSION, 0, 0), clock)
    announcer.start()
    await announcer.settled()
    stopping = asyncio.ensure_future(announcer.stop())
    while clock.sleeping == 0:  # the stop's deadline is armed
        await asyncio.sleep(0)
    assert not stopping.done()
    clock.advance(STOP_TIMEOUT)
    await asyncio.wait_for(stopping, 30)
