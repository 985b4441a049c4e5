"""The test kinds (tests/tiers.py): a unit test cannot open a socket or start a process, an
integration test cannot start a process, and every table entry names a real test file."""

from __future__ import annotations

import asyncio
import multiprocessing
import socket
import subprocess
import sys

import pytest
from pathlib import Path

import tiers
from tiers import TierViolation
from paths import TESTS

# outside any guard itself: it checks the guards it turns on
pytestmark = pytest.mark.process

# every test file under tests/ by name: tiers.py keys its tables by the file names
TEST_FILES = {path.name: path for path in TESTS.rglob("test_*.py")}


def start_process() -> None:
    subprocess.run([sys.executable, "-c", "pass"], check=True, timeout=60)


def fork_process() -> None:
    child = multiprocessing.get_context("fork").Process(target=int)
    child.start()
    child.join(60)


async def listen() -> None:
    server = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    server.close()
    await server.wait_closed()


async def start_async_process() -> None:
    child = await asyncio.create_subprocess_exec(sys.executable, "-c", "pass")
    await child.wait()


def test_a_unit_test_cannot_open_a_socket() -> None:
    with tiers._guard("unit"):
        with pytest.raises(TierViolation, match="unit test opened a socket"):
            socket.socket()
        with pytest.raises(TierViolation, match="opened a socket"):
            socket.create_connection(("127.0.0.1", 9))
        with pytest.raises(TierViolation, match="opened a socket"):
            asyncio.run(listen())
        a, b = socket.socketpair()  # an event loop's wake-up pipe stays allowed
        a.close()
        b.close()
    socket.socket().close()  # and everything is back once the test is over


@pytest.mark.parametrize("kind", ["unit", "integration"])
def test_unit_and_integration_tests_cannot_start_processes(kind: tiers.Kind) -> None:
    with tiers._guard(kind):
        for start in (start_process, fork_process, lambda: asyncio.run(start_async_process())):
            with pytest.raises(TierViolation, match=f"{kind} test started a process"):
                start()
    start_process()


def test_an_integration_test_may_listen() -> None:
    with tiers._guard("integration"):
        asyncio.run(listen())


@pytest.mark.parametrize("kind", ["process", "browser", "packaging"])
def test_the_other_kinds_may_do_anything(kind: tiers.Kind) -> None:
    with tiers._guard(kind):
        start_process()
        asyncio.run(listen())


def test_every_entry_names_a_real_test() -> None:
    for name in tiers.FILE_KINDS:
        assert name in TEST_FILES, f"tests/tiers.py lists {name}, which does not exist"
    for key in tiers.TEST_KINDS:
        name, test = key.split("::")
        source = TEST_FILES[name].read_text(encoding="utf-8")
        assert f"def {test}(" in source, f"tests/tiers.py lists {key}, which does not exist"
    assert set(tiers.FILE_KINDS.values()) | set(tiers.TEST_KINDS.values()) <= set(tiers.KINDS)


def test_the_serial_files_are_real_integration_files() -> None:
    for name in tiers.SERIAL_FILES:
        source = TEST_FILES[name].read_text(encoding="utf-8")
        assert "pytestmark = pytest.mark.integration" in source or tiers.FILE_KINDS.get(name) == "integration", \
            f"tests/tiers.py keeps {name} out of the xdist workers, but it is not an integration test file"


def test_the_serial_marker_goes_to_the_serial_files_only() -> None:
    alone = "test_table_id_taken.py"  # in SERIAL_FILES; test_clock.py is an integration file that is not
    assert alone in tiers.SERIAL_FILES and "test_clock.py" not in tiers.SERIAL_FILES
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-p", "no:cacheprovider",
                           "-m", "serial", *(str(TEST_FILES[n]) for n in (alone, "test_clock.py", "test_cluster_failover.py"))],
                          cwd=TESTS, capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    files = {Path(line.split("::")[0]).name for line in done.stdout.splitlines() if "::" in line}
    assert files == {alone}, done.stdout


def test_every_test_file_name_is_unique() -> None:
    """The test files live in folders mirroring the code, but tiers.py keys its tables
    by file name, and pytest imports a test file (and a test imports another) by name."""
    names = sorted(path.name for path in TESTS.rglob("test_*.py"))
    assert len(names) == len(set(names)), sorted({n for n in names if names.count(n) > 1})
