"""Debian's Prometheus scrapes a server and two cluster members with the scrape
configuration of docs/OPERATING.md, and its HTTP API gives back what happened: a game's
moves (every one, and the person's in the latency histogram), the game started and
finished; in the cluster, a client sent from one member to the other (a redirect), and
after a kill -9 of the member serving a table, the table taken over by the other (a
failover) and the dead member's target down.  The example alert rules and the
dashboard's queries are valid PromQL (promtool, and Prometheus answers every query).

scripts/test installs Debian's prometheus when this file is there; without it the test
fails (it never skips)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import signal
import subprocess
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from pg import pg_url  # noqa: F401 - the fixture
from procs import ROOT, SCOPA, stop
from redis_server import SERVER, redis_client, redis_prefix  # noqa: F401 - the fixture
from scopa.bots import RandomBot, make_bot
from scopa.protocol import commands as wire
from ports import free_port
from test_cluster_failover import Timed, joined_from, members_of, table_made
from wire_client import WireClient

pytestmark = pytest.mark.process

PROMETHEUS, PROMTOOL = "/usr/bin/prometheus", "/usr/bin/promtool"  # Debian's prometheus package
DEADLINE = 60.0  # a safety net: every wait normally ends long before
OPERATING = ROOT / "docs" / "OPERATING.md"
EXAMPLES = ROOT / "examples"


def scrape_config() -> str:
    """The Prometheus configuration shown in docs/OPERATING.md (the one YAML block with
    ``scrape_configs``), which is examples/prometheus.yml word for word."""
    blocks = [b for b in re.findall(r"```yaml\n(.*?)```", OPERATING.read_text(), re.S) if "scrape_configs:" in b]
    assert len(blocks) == 1, "docs/OPERATING.md shows one scrape configuration"
    assert blocks[0] == (EXAMPLES / "prometheus.yml").read_text()
    return blocks[0]


def for_this_test(config: str, targets: list[str]) -> str:
    """The configuration with this test's targets, scraped every second."""
    config, n = re.subn(r"targets: \[.*\]", "targets: " + json.dumps(targets), config)
    assert n == 1
    config, n = re.subn(r"(scrape|evaluation)_interval: \S+", r"\1_interval: 1s", config)
    assert n == 2
    return config


def needs(program: str) -> str:
    if not os.access(program, os.X_OK):
        pytest.fail(f"{program} is missing: this test needs Debian's prometheus package (scripts/test installs it: "
                    "apt-get install prometheus)", pytrace=False)
    return program


def member(port: int, metrics: int, db: str, prefix: str, log: Path) -> subprocess.Popen[bytes]:
    with open(log, "wb") as out:
        return subprocess.Popen(
            [*SCOPA, "serve", "--port", str(port), "--db", db, "--cluster", SERVER, "--cluster-prefix", prefix,
             "--no-announce", "--admin-token-file", str(log.with_suffix(".token")),
             "--metrics", f"127.0.0.1:{metrics}"], cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
            env=dict(os.environ, NO_COLOR="1"))


class Prometheus:
    """A Prometheus server of this test's own, and its HTTP API."""

    def __init__(self, http: aiohttp.ClientSession) -> None:
        self.http = http

    async def query(self, promql: str) -> list[dict[str, Any]]:
        async with self.http.get("/api/v1/query", params={"query": promql}) as response:
            answer = await response.json()
        assert answer["status"] == "success", (promql, answer)
        result: list[dict[str, Any]] = answer["data"]["result"]
        return result

    async def value(self, promql: str) -> float | None:
        """The one value of an instant query (None: no series)."""
        result = await self.query(promql)
        assert len(result) <= 1, (promql, result)
        return float(result[0]["value"][1]) if result else None

    async def until(self, promql: str, wanted: float, what: str) -> None:
        """Wait until ``promql`` gives ``wanted`` (scrapes come every second)."""
        seen: float | None = None
        try:
            async with asyncio.timeout(DEADLINE):
                while (seen := await self.value(promql)) != wanted:
                    await asyncio.sleep(0.2)
        except TimeoutError:
            pytest.fail(f"{what}: {promql} is {seen}, not {wanted}, after {DEADLINE} s")


@asynccontextmanager
async def prometheus(tmp: Path, targets: list[str]) -> AsyncIterator[Prometheus]:
    config = tmp / "prometheus.yml"
    config.write_text(for_this_test(scrape_config(), targets))
    shutil.copy(EXAMPLES / "scopa-alerts.yml", tmp / "scopa-alerts.yml")
    checked = subprocess.run([needs(PROMTOOL), "check", "config", str(config)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    port = free_port()
    with open(tmp / "prometheus.log", "wb") as log:
        proc = subprocess.Popen([needs(PROMETHEUS), f"--config.file={config}", f"--storage.tsdb.path={tmp / 'tsdb'}",
                                 f"--web.listen-address=127.0.0.1:{port}"], stdout=log, stderr=subprocess.STDOUT)
    try:
        async with aiohttp.ClientSession(f"http://127.0.0.1:{port}") as http:
            async with asyncio.timeout(DEADLINE):
                while True:
                    try:
                        async with http.get("/-/ready") as response:
                            if response.status == 200:
                                break
                    except aiohttp.ClientConnectionError:
                        pass
                    assert proc.poll() is None, (tmp / "prometheus.log").read_text()
                    await asyncio.sleep(0.1)
            yield Prometheus(http)
    finally:
        proc.terminate()
        proc.wait(timeout=DEADLINE)


@asynccontextmanager
async def single_server(tmp: Path) -> AsyncIterator[tuple[int, int]]:
    port, metrics = free_port(), free_port()
    with open(tmp / "single.log", "wb") as out:
        proc = subprocess.Popen([*SCOPA, "serve", "--port", str(port), "--no-announce",
                                 "--admin-token-file", str(tmp / "single.token"), "--metrics", f"127.0.0.1:{metrics}"],
                                cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, env=dict(os.environ, NO_COLOR="1"))
    try:
        yield port, metrics
    finally:
        stop(proc, DEADLINE)


async def connected(port: int, name: str) -> WireClient:
    async with asyncio.timeout(DEADLINE):
        while True:
            try:
                return await WireClient.connect(port, name)
            except OSError:
                await asyncio.sleep(0.05)


def dashboard_queries() -> Iterator[str]:
    dashboard = json.loads((EXAMPLES / "grafana-dashboard.json").read_text())
    for panel in dashboard["panels"]:
        for target in panel.get("targets", []):
            yield target["expr"]


async def test_prometheus_reads_moves_games_and_a_failover_from_a_server_and_two_members(
        tmp_path: Path, pg_url: str, redis_prefix: str) -> None:
    checked = subprocess.run([needs(PROMTOOL), "check", "rules", str(EXAMPLES / "scopa-alerts.yml")],
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    redis = await redis_client()
    ports, metrics = [free_port(), free_port()], [free_port(), free_port()]
    a = member(ports[0], metrics[0], pg_url, redis_prefix, tmp_path / "a.log")
    b = member(ports[1], metrics[1], pg_url, redis_prefix, tmp_path / "b.log")
    try:
        async with single_server(tmp_path) as (port, single_metrics):
            single, at_a, at_b = (f"127.0.0.1:{m}" for m in (single_metrics, *metrics))
            async with prometheus(tmp_path, [single, at_a, at_b]) as prom:
                # one game on the server of its own: every move counted, ada's in the histogram
                ada = await connected(port, "ada")
                await ada.create(bots=["random"])
                events = await ada.play_game(RandomBot(seed=5))
                assert events[-1].name == "game_end"
                played = [e.body for e in events if isinstance(e.body, (wire.CardPlayed, wire.DeclarationMade))]
                hers = [p for p in played if p.seat == 0]
                await ada.close()
                on = f'instance="{single}"'
                await prom.until(f"scopa_moves_total{{{on}}}", len(played), "every move counted")
                await prom.until(f"scopa_move_seconds_count{{{on}}}", len(hers), "each of ada's moves timed")
                assert await prom.value(f"scopa_games_started_total{{{on}}}") == 1
                assert await prom.value(f'scopa_games_ended_total{{{on},how="finished"}}') == 1
                assert await prom.value(f'scopa_refusals_total{{{on},code="bad_body"}}') == 0
                assert await prom.value(f"scopa_ready{{{on}}}") == 1
                assert (await prom.value(f"process_resident_memory_bytes{{{on}}}") or 0) > 0

                # the cluster: ann, at B, plays at a table on A; A is killed mid-game; B takes it over
                async with asyncio.timeout(DEADLINE):
                    while await members_of(redis, redis_prefix) < 2:
                        await asyncio.sleep(0.05)
                await prom.until(f'scopa_cluster_members{{instance="{at_b}"}}', 2, "B sees A and itself")
                maker, table = await table_made(ports[0])
                await prom.until(f'scopa_tables{{instance="{at_a}",state="waiting"}}', 1, "A's table counted")
                ann = await joined_from(ports[1], "ann", table)
                assert ann.port == ports[0]
                await prom.until(f'scopa_cluster_redirects_total{{instance="{at_b}"}}', 1, "ann sent from B to A")
                await prom.until(f'scopa_cluster_leases_held{{instance="{at_a}"}}', 1, "A holds the table's lease")
                player = Timed(make_bot("random", "ann", seed=6), after=3)
                player.session = ann
                playing = asyncio.create_task(ann.play_game(player))
                await asyncio.wait_for(player.reached.wait(), DEADLINE)
                a.send_signal(signal.SIGKILL)
                a.wait(timeout=DEADLINE)
                result = await asyncio.wait_for(playing, DEADLINE * 2)
                assert result.reason != "abandoned" and ann.port == ports[1]
                await prom.until(f'scopa_cluster_tables_taken_over_total{{instance="{at_b}"}}', 1, "a failover")
                await prom.until(f'up{{instance="{at_a}"}}', 0, "the killed member's target down")
                await prom.until(f'scopa_cluster_members{{instance="{at_b}"}}', 1, "B sees only itself")
                await prom.until(f'scopa_games_ended_total{{instance="{at_b}",how="finished"}}', 1,
                                 "the game taken over finished on B")
                assert (await prom.value(f'scopa_moves_total{{instance="{at_b}"}}') or 0) > 0
                assert await prom.value(f'scopa_records_written_total{{instance="{at_b}"}}') == 1
                await ann.close()
                maker.abort()

                for promql in dashboard_queries():  # each a valid query over what was scraped
                    await prom.query(promql)
    finally:
        for proc in (a, b):
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        print((tmp_path / "a.log").read_text(errors="replace"), (tmp_path / "b.log").read_text(errors="replace"))
        await redis.aclose()

