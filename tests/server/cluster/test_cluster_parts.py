"""The parts of a cluster member that need no Redis: the messages the members exchange,
the table map a server without a cluster sends (unchanged), the options, and which
modules import Redis (only a cluster member's)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from scopa.engine import RuleSet
from scopa.protocol import commands as wire
from scopa.protocol.codec import pack_body
from scopa.protocol.errors import ErrorCode
from scopa.protocol.convert import rules_to_wire
from scopa.server.cluster import ClusterOptions
from scopa.server.cluster.keys import ChatNews, Keys, LeaveNews, TableNews, chat_news, leave_news, read_entry
from scopa.server.cluster.keys import read_news, table_texts
from scopa.server.cluster.keys import AnswerNews, AskNews, CameNews, ToldNews, answer_news, ask_news, came_news
from scopa.server.cluster.keys import told_news
from scopa.server.cluster.redis_url import SentinelUrl, parse_sentinel_url

from paths import ROOT

pytestmark = pytest.mark.unit

SERVER = ROOT / "server"
REDIS_USERS = {"cluster/member.py", "cluster/presence.py", "cluster/names.py", "cluster/leases.py",
               "cluster/tickets.py", "cluster/connector.py", "cluster/relay.py"}


def info(**given: object) -> wire.TableInfo:
    fields: dict[str, object] = {"id": "12", "rules": rules_to_wire(RuleSet.build("scopa")),
                                 "description": "scopa, 2p, to 11", "seats": ["ann", None],
                                 "state": wire.TableState.WAITING} | given
    return wire.TableInfo(**fields)  # type: ignore[arg-type]


def test_a_table_map_without_a_member_is_packed_as_before() -> None:
    plain = info()
    assert "member" not in plain.model_dump(mode="json")
    assert b"member" not in pack_body(wire.TableUpdate(table=plain))
    placed = info(member="10.0.0.7:7015")
    assert placed.model_dump(mode="json")["member"] == "10.0.0.7:7015"
    assert b"member" in pack_body(wire.TableUpdate(table=placed))


@pytest.mark.parametrize("bad", ["nowhere", "host:", ":7015", "a b:1", "host:123456"])
def test_a_member_address_is_host_and_port(bad: str) -> None:
    with pytest.raises(ValueError):
        info(member=bad)
    assert info(member="[::1]:7015").member == "[::1]:7015"


def test_a_welcome_from_a_lone_server_is_packed_as_before() -> None:
    plain = wire.Welcome(you="player:ann", server="s", protocol=2)
    assert b"cluster" not in pack_body(plain)
    told = wire.Welcome(you="player:ann", server="s", protocol=2, cluster=["10.0.0.7:7015", "scopa.example:7015"])
    assert told.model_dump(mode="json")["cluster"] == ["10.0.0.7:7015", "scopa.example:7015"]
    with pytest.raises(ValueError):
        wire.Welcome(you="player:ann", server="s", protocol=2, cluster=["nowhere"])


def test_the_news_the_members_exchange_reads_back() -> None:
    table = info(member="127.0.0.1:7015")
    assert read_news(table_texts("m1", 7, table)[1]) == TableNews("m1", 7, table)
    assert read_entry("m1", table_texts("m1", 7, table)[0].encode()) == TableNews("m1", 7, table)
    said = wire.ChatMessage(author="player:ann", text="ciao")
    assert read_news(chat_news("m2", said).encode()) == ChatNews("m2", said)
    assert read_news(leave_news("m3")) == LeaveNews("m3")
    assert read_news(table_texts("m1", 7, table)[1], unless_from="m1") is None  # a member's own
    assert read_news(table_texts("m1", 7, table)[1], unless_from="m2") == TableNews("m1", 7, table)


def test_a_tournament_s_news_between_the_members_reads_back() -> None:
    """PROTOCOL.md §16: a command carried to the member running the tournament, its answer,
    what the entrants elsewhere are told (with the table they are sent to), a player come."""
    asked = AskNews("m1", "m2", 3, "ada", "scopa-bot 1", wire.TournamentJoin(tournament="c7", team="Rossi",
                                                                               partner="bea"))
    assert read_news(ask_news(asked)) == asked
    answered = AnswerNews("m2", "m1", 3, wire.Error(code=ErrorCode.TOURNAMENT_FULL, message="full"))
    assert read_news(answer_news(answered)) == answered
    game = wire.TournamentGame(table=1, first="ada", second="bea", replay=0, decider=False)
    table = wire.TournamentTable(tournament="c7", round=1, game=game, table="31", seat=0, grace_ms=60_000)
    for seat in ("31", None):
        told = ToldNews("m2", ("ada", "bea"), table, seat)
        assert read_news(told_news(told)) == told
    assert read_news(came_news(CameNews("m1", "ada"))) == CameNews("m1", "ada")
    assert read_news(came_news(CameNews("m1", "ada")), unless_from="m1") is None
    bad = ask_news(asked).replace("tournament_join", "no_such_command")
    assert read_news(bad) is None  # a body this server does not know is dropped


@pytest.mark.parametrize("garbage", [b"", b"not json", b"[]", b'{"k": "table", "m": "x"}', b'{"k": "what", "m": "x"}',
                                     b'{"k": "chat", "m": "x", "chat": {"author": "nobody", "text": "hi"}}'])
def test_unreadable_news_is_dropped(garbage: bytes) -> None:
    assert read_news(garbage) is None


def test_the_keys_live_under_the_prefix() -> None:
    keys = Keys("p")
    assert {keys.members, keys.member("a"), keys.tables("a"), keys.name("ann"), keys.table_ids, keys.lobby,
            keys.lease("7"), keys.leased} == {
        "p:members", "p:member:a", "p:tables:a", "p:name:ann", "p:table_ids", "p:lobby", "p:lease:7", "p:leased"}


def test_the_options_refuse_what_cannot_work() -> None:
    assert ClusterOptions(url="redis://127.0.0.1:6379/0").refresh_interval == pytest.approx(10 / 3)
    for wrong in ({"url": "http://x"}, {"url": "redis://x", "member_ttl": 0}, {"url": "redis://x", "refresh": 20.0},
                  {"url": "redis://x", "lease_ttl": 0}, {"url": "redis://x", "seeds": ("nowhere",)},
                  {"url": "redis://x", "seeds": ("a.example:1", "b.example:")}):
        with pytest.raises(ValueError):
            ClusterOptions(**wrong)  # type: ignore[arg-type]


def test_a_sentinel_url_names_the_sentinels_and_the_master() -> None:
    assert parse_sentinel_url("redis+sentinel://h1:26379,h2:26380/mymaster") == SentinelUrl(
        (("h1", 26379), ("h2", 26380)), "mymaster", 0)
    assert parse_sentinel_url("redis+sentinel://h1,[::1]:5000/m/3") == SentinelUrl((("h1", 26379), ("::1", 5000)), "m", 3)
    assert ClusterOptions(url="redis+sentinel://127.0.0.1:26379/mymaster").url.startswith("redis+sentinel://")
    for wrong in ("redis+sentinel://h1:26379", "redis+sentinel:///m", "redis+sentinel://h1:x/m",
                  "redis+sentinel://h1:26379/m/zero", "redis+sentinel://h1:70000/m", "redis+sentinel://:1/m",
                  "redis+sentinel://h1/m/0/1"):
        with pytest.raises(ValueError):
            ClusterOptions(url=wrong)


def _imports_redis(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "redis" for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "redis" and not node.level:
            return True
    return False


def test_only_a_cluster_member_imports_redis() -> None:
    users = {str(p.relative_to(SERVER)) for p in SERVER.rglob("*.py") if _imports_redis(p)}
    assert users == REDIS_USERS


def test_the_server_reaches_the_cluster_member_only_when_it_has_a_cluster() -> None:
    """network.py imports the member (through the cluster's face, which imports it on first
    use) inside the one branch that makes it (and for types)."""
    tree = ast.parse((SERVER / "network.py").read_text(encoding="utf-8"))
    top = [n for n in tree.body if isinstance(n, ast.ImportFrom) and "cluster" in (n.module or "")]
    assert top == []
    inside = [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module == "cluster"
              and "ClusterMember" in [a.name for a in n.names]]
    assert len(inside) == 2  # one for the type checker, one in NetworkEngine.__init__'s cluster branch
    face = ast.parse((SERVER / "cluster" / "__init__.py").read_text(encoding="utf-8"))
    assert [n.module for n in face.body if isinstance(n, ast.ImportFrom)] == ["__future__", "typing", "options"]
