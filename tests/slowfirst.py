"""The test files that take longest start first.

scripts/test runs the process, browser and packaging kinds with ``--dist loadfile`` (each
file whole in one worker) and ``--no-loadscope-reorder`` (files handed out in collection
order, not by how many tests they hold).  A long file handed out last keeps one worker
busy after the others ran out of work; handed out first, the short files fill in beside
it.  So the files below, longest first (by their summed test times in a whole run), come
first in the collection; every other test keeps its place.
"""

from __future__ import annotations

from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent

SLOW_FIRST = (  # fmt: skip
    "server/club/test_club_cli.py", "client/console/test_bot_farm.py", "server/cluster/test_cluster_failover.py",
    "server/journal/test_faults.py", "project/test_packaging.py", "server/journal/test_server_records.py",
    "client/web/test_web_client.py", "client/web/test_web_family.py", "client/tui/test_tui_outage.py",
    "server/journal/test_crash.py", "cli/test_cli_bot.py", "server/club/test_club_cluster_failover.py",
    "cli/test_replay_cli.py", "server/journal/test_journal_admin.py", "client/web/test_web_table_lines.py",
    "client/web/test_web_trial.py", "server/club/test_club_restart.py", "project/test_readme_commands.py",
)
RANK = {name: n for n, name in enumerate(SLOW_FIRST)}


def pytest_configure(config: pytest.Config) -> None:
    gone = [name for name in SLOW_FIRST if not (TESTS / name).is_file()]
    if gone:
        raise pytest.UsageError(f"tests/slowfirst.py names test files that are not there: {', '.join(gone)}")


def rank(path: Path) -> int:
    """The file's place in SLOW_FIRST (after them all when it is not there)."""
    for parts in (2, 3):
        if (n := RANK.get("/".join(path.parts[-parts:]))) is not None:
            return n
    return len(RANK)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: rank(item.path))  # stable: the others keep their order
