"""The Grafana dashboard in examples/ loads as a dashboard, and every query in it (and in
the example alert rules) names only metrics that a server exports: the names are read
from the ``/metrics`` of a running cluster member with a journal, the one kind of server
that has every figure."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from procs import ROOT
from redis_server import SERVER, redis_prefix  # noqa: F401 - the fixture
from scopa.server import NetworkEngine
from scopa.server.cluster import ClusterOptions
from scopa.server.journal.memory.storage import MemoryStorage
from scopa.server.endpoints import MetricsPort, Probes

pytestmark = pytest.mark.integration

EXAMPLES = ROOT / "examples"
PROMETHEUS_OWN = {"up"}  # series Prometheus makes itself for each target
PROMQL_WORDS = {  # functions, aggregations and keywords: never metric names
    "sum", "min", "max", "avg", "count", "by", "without", "on", "ignoring", "group_left", "group_right",
    "and", "or", "unless", "offset", "bool", "rate", "irate", "increase", "delta", "histogram_quantile", "absent",
    "topk", "bottomk", "quantile", "clamp_min", "clamp_max", "time", "vector", "scalar", "le", "inf", "nan",
}


def metric_names(promql: str) -> set[str]:
    """The metric names a PromQL expression reads."""
    text = re.sub(r'"(?:[^"\\]|\\.)*"', "", promql)  # strings (label values, legends)
    text = re.sub(r"\{[^}]*\}", "", text)  # label matchers
    text = re.sub(r"\[[^\]]*\]", "", text)  # range windows
    text = re.sub(r"\b(?:by|without|on|ignoring)\s*\([^)]*\)", "", text)  # grouping labels
    names = set(re.findall(r"\b[a-zA-Z_:][a-zA-Z0-9_:]*\b(?!\s*\()", text))  # not a function's name
    return {n for n in names if n.lower() not in PROMQL_WORDS}


def test_the_metric_names_of_a_query_are_found() -> None:
    query = 'histogram_quantile(0.99, sum by (le) (rate(scopa_move_seconds_bucket{job="scopa"}[5m]))) > 0.1'
    assert metric_names(query) == {"scopa_move_seconds_bucket"}
    assert metric_names('1 - scopa_journal_up or absent(up{job="x"}) unless on (instance) scopa_ready') == {
        "scopa_journal_up", "up", "scopa_ready"}


def dashboard_queries(dashboard: dict[str, object]) -> Iterator[str]:
    for panel in dashboard["panels"]:  # type: ignore[attr-defined]
        for target in panel.get("targets", []):
            yield target["expr"]


def alert_queries() -> list[str]:
    return re.findall(r"^\s*expr: (.+)$", (EXAMPLES / "scopa-alerts.yml").read_text(), re.M)


def test_the_dashboard_loads_as_a_grafana_dashboard() -> None:
    dashboard = json.loads((EXAMPLES / "grafana-dashboard.json").read_text())
    assert dashboard["title"] and dashboard["uid"] and isinstance(dashboard["schemaVersion"], int)
    panels = dashboard["panels"]
    assert len({p["id"] for p in panels}) == len(panels)  # ids unique
    variables = {v["name"] for v in dashboard["templating"]["list"]}
    for panel in panels:
        grid = panel["gridPos"]
        assert grid["x"] + grid["w"] <= 24 and grid["h"] > 0
        if panel["type"] == "row":
            continue
        assert panel["title"] and panel["datasource"]["type"] == "prometheus"
        assert panel["datasource"]["uid"].strip("${}") in variables
        targets = panel["targets"]
        assert targets and len({t["refId"] for t in targets}) == len(targets)
        assert all(t["expr"].strip() for t in targets)
    assert len(list(dashboard_queries(dashboard))) >= 20


async def exported_names(redis_prefix: str) -> set[str]:
    """Every name in the ``/metrics`` of a cluster member with a journal."""
    engine = NetworkEngine("127.0.0.1", 0, seed=1, storage=MemoryStorage(),
                           cluster=ClusterOptions(url=SERVER, prefix=redis_prefix, member_ttl=30.0))
    await engine.start()
    probes = Probes(engine)
    port = MetricsPort(probes)
    await port.start("127.0.0.1", 0)
    try:
        async with aiohttp.ClientSession() as http:
            async with http.get(f"http://127.0.0.1:{port.port}/metrics") as response:
                assert response.status == 200 and response.content_type == "text/plain"
                text = await response.text()
    finally:
        await engine.stop()
        await port.stop()
    families = list(text_string_to_metric_families(text))
    # a gauge with nothing to count yet (no tables) is declared with no sample
    return {s.name for f in families for s in f.samples} | {f.name for f in families if f.type == "gauge"}


async def test_every_query_of_the_dashboard_and_the_alerts_names_an_exported_metric(redis_prefix: str) -> None:
    exported = await exported_names(redis_prefix) | PROMETHEUS_OWN
    dashboard = json.loads((EXAMPLES / "grafana-dashboard.json").read_text())
    queries = [*dashboard_queries(dashboard), *alert_queries()]
    assert len(queries) > 20
    read = set()
    for query in queries:
        names = metric_names(query)
        assert names, query
        assert names <= exported, f"{query} reads {sorted(names - exported)}, which no server exports"
        read |= names
    # and the dashboard shows every family of the server's own figures
    shown = {re.sub(r"_(bucket|count|sum)$", "", n) for n in read}
    own = {re.sub(r"_(bucket|count|sum)$", "", n) for n in exported if n.startswith("scopa_")}
    assert own <= shown, f"figures on no panel: {sorted(own - shown)}"
