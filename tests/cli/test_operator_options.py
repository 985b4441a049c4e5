"""The operator's options as the examples and `scopa cluster` give them: the systemd units
in examples/systemd start `scopa` with options it has (each unit's command line parsed
by the `scopa` command's own parser), each member of `scopa cluster --metrics-port P`
serves its metrics on a port of its own, and `--metrics` takes HOST:PORT or `web`."""

from __future__ import annotations

import argparse
import re
import shlex

import pytest

from procs import ROOT
from scopa.cli import cluster
from scopa.cli.main import build_parser
from scopa.cli.serve import parse_address

pytestmark = pytest.mark.unit

UNITS = sorted((ROOT / "examples" / "systemd").glob("*.service"))
ENVIRONMENT = {"SCOPA_HOST": "10.0.0.5", "SCOPA_REDIS": "redis://10.0.0.2:6379/0",
               "SCOPA_DB": "postgresql://scopa@10.0.0.3/scopa"}  # as the member unit's comment shows


def exec_start(unit: str) -> list[str]:
    """The unit's ExecStart as words, its lines joined, %i and ${VARIABLES} filled in."""
    text = re.sub(r"\\\n\s*", " ", unit)
    [line] = re.findall(r"^ExecStart=(.+)$", text, re.M)
    line = line.replace("%i", "2")
    line = re.sub(r"\$\{(\w+)\}", lambda m: ENVIRONMENT[m.group(1)], line)
    return shlex.split(line)


@pytest.mark.parametrize("unit", UNITS, ids=lambda p: p.name)
def test_each_systemd_unit_runs_scopa_with_options_it_has(unit: object) -> None:
    text = unit.read_text()  # type: ignore[attr-defined]
    assert "[Service]" in text and "[Install]" in text
    words = exec_start(text)
    assert words[0].endswith("/bin/scopa")
    args = build_parser().parse_args(words[1:])  # an unknown option exits here
    assert args.command == "serve" and args.log_format == "json" and args.metrics is not None
    parse_address(args.metrics)


def test_two_units_exist() -> None:
    assert [u.name for u in UNITS] == ["scopa-member@.service", "scopa.service"]


def test_each_member_of_scopa_cluster_has_its_own_metrics_port() -> None:
    args = argparse.Namespace(host="127.0.0.1", cluster="redis://127.0.0.1:6379/0", db="postgresql://127.0.0.1/test",
                              port=7400, cluster_prefix="scopa", web_port=None, loop="asyncio", metrics_port=9721,
                              log_format="json")
    commands = [cluster.member_command(args, i) for i in range(3)]
    assert [c[c.index("--metrics") + 1] for c in commands] == ["127.0.0.1:9721", "127.0.0.1:9722", "127.0.0.1:9723"]
    assert all(c[c.index("--log-format") + 1] == "json" for c in commands)
    args.metrics_port = None
    assert "--metrics" not in cluster.member_command(args, 0)


def test_metrics_addresses() -> None:
    assert parse_address("127.0.0.1:9715") == ("127.0.0.1", 9715)
    assert parse_address("[::1]:9715") == ("::1", 9715)
    assert parse_address(":9715") == ("127.0.0.1", 9715)
    for wrong in ("9715", "host:port", "127.0.0.1:70000", "web:"):
        with pytest.raises(ValueError, match="HOST:PORT"):
            parse_address(wrong)
