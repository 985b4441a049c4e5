"""Test kinds: every test gets exactly one of the markers below, and the cheap kinds are
enforced while the test runs.

    unit         pure code: no sockets (socketpair excepted: an event loop's wake-up
                 pipe), no child processes
    integration  real sockets in this process (a server on 127.0.0.1, port 0), no
                 child processes
    process      child processes: the `scopa` command, pexpect, crash tests, network
                 namespaces (anything goes)
    browser      drives Debian's chromium
    packaging    builds and installs the wheel

A test's kind is, first match wins: a kind marker on the test, its class or its module
(``pytestmark = pytest.mark.unit``); else its entry in ``TEST_KINDS``; else its file's
entry in ``FILE_KINDS``; else ``DEFAULT_KIND``.  A file that declares nothing runs as ``process``, the one kind with no
guard, so a new file can never fail because of its kind; it just stays out of the quick
``-m unit`` loop until it says what it is.  The header of each run lists such files.

While a unit test runs (setup, call and teardown), creating a socket or starting a
process raises ``TierViolation``; while an integration test runs, starting a process
does.  So a test filed under the wrong kind fails loudly instead of passing by luck.

The integration tests of the files in ``SERIAL_FILES`` also get the marker ``serial``:
scripts/test runs them last, alone in one process, not in xdist workers.
"""

from __future__ import annotations

import _posixsubprocess
import os
import socket
import subprocess
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from typing import Any, Literal, get_args

import pytest

Kind = Literal["unit", "integration", "process", "browser", "packaging"]
KINDS: tuple[Kind, ...] = get_args(Kind)
DEFAULT_KIND: Kind = "process"

# file name -> kind, for the files that do not declare their kind themselves
FILE_KINDS: dict[str, Kind] = {  # fmt: skip
    # unit
    "test_arena.py": "unit", "test_arena_cli.py": "unit", "test_bots_expert.py": "unit", "test_bots_fixed_moves.py": "unit",
    "test_bots_legality.py": "unit", "test_collector.py": "unit", "test_doctests.py": "unit",
    "test_engine_captures.py": "unit", "test_engine_errors.py": "unit",
    "test_engine_examples.py": "unit", "test_engine_explain.py": "unit",
    "test_engine_effects.py": "unit", "test_engine_master.py": "unit", "test_engine_properties.py": "unit",
    "test_engine_restore.py": "unit", "test_engine_rules.py": "unit",
    "test_engine_speedups.py": "unit", "test_engine_view_public.py": "unit",
    "test_import_rules.py": "unit", "test_liveness.py": "unit", "test_move_log.py": "unit",
    "test_protocol_connection.py": "unit", "test_protocol_envelope.py": "unit",
    "test_protocol_errors.py": "unit", "test_protocol_events.py": "unit",
    "test_protocol_fuzz.py": "unit", "test_protocol_names.py": "unit",
    "test_protocol_packing.py": "unit", "test_protocol_plain_decode.py": "unit",
    "test_protocol_roundtrip.py": "unit", "test_protocol_rules.py": "unit",
    "test_protocol_schema.py": "unit", "test_protocol_turn_data.py": "unit",
    "test_readme_screenshot.py": "unit", "test_record_format.py": "unit",
    "test_replay_app.py": "unit", "test_rl_actions.py": "unit", "test_rl_docs.py": "unit",
    "test_rl_env.py": "unit", "test_rules_as_written.py": "unit", "test_storage.py": "unit",
    "test_tui_away.py": "unit", "test_tui_boardstate.py": "unit", "test_tui_kept_move.py": "unit",
    "test_tui_local.py": "unit", "test_tui_local_names.py": "unit", "test_tui_snapshots.py": "unit",
    "test_tui_title.py": "unit", "test_tui_comeback_summary.py": "unit",
    "test_variants_examples.py": "unit", "test_variants_properties.py": "unit",
    "test_bots_ceiling.py": "unit", "test_bots_chitarella.py": "unit",
    "test_speedups_required.py": "unit", "test_tui_leaving.py": "unit",
    # integration
    "test_server_malformed_barrage.py": "integration", "test_client_botrunner.py": "integration",
    "test_client_replay.py": "integration", "test_client_session.py": "integration",
    "test_clock.py": "integration", "test_create_fuzz.py": "integration",
    "test_server_caps.py": "integration", "test_lan_units.py": "integration",
    "test_lean_server.py": "integration", "test_lobby_paging.py": "integration",
    "test_presets_network.py": "integration", "test_protocol_docs.py": "integration",
    "test_protocol_facts.py": "integration", "test_protocol_version_and_routes.py": "integration",
    "test_proxied.py": "integration", "test_reconnect.py": "integration",
    "test_resume_events.py": "integration", "test_rl_bridge.py": "integration", "test_seat_held.py": "integration",
    "test_server_badinput.py": "integration", "test_server_games.py": "integration",
    "test_server_uvloop.py": "integration", "test_server_routes_and_refusals.py": "integration",
    "test_slow_clients.py": "integration", "test_spectators.py": "integration",
    "test_table_failure.py": "integration", "test_timers.py": "integration",
    "test_transcript.py": "integration", "test_tui_create_form.py": "integration",
    "test_tui_network.py": "integration", "test_tui_outage.py": "integration", "test_tui_seat_held.py": "integration",
    "test_tui_table_life.py": "integration",
    "test_server_no_leaks.py": "integration", "test_web_capacity.py": "integration",
    "test_tui_resume_board.py": "integration", "test_tui_board_words.py": "integration",
    "test_tui_give_up_seat.py": "integration",
    "test_fair_lobby.py": "integration", "test_rating_with_end.py": "integration",
    "test_fair_ratings.py": "integration", "test_journal_conformance.py": "integration", "test_rematch.py": "integration",
    # process
    "test_accounts.py": "process", "test_admin.py": "process", "test_cli_bot.py": "process",
    "test_cli_local.py": "process", "test_cli_play.py": "process", "test_cli_text.py": "process",
    "test_client_reconnect.py": "process", "test_crash.py": "process",
    "test_example_js.py": "process", "test_examples.py": "process", "test_faults.py": "process",
    "test_journal_damage_and_age.py": "process", "test_journal_migrations.py": "process",
    "test_journal_waits.py": "process",
    "test_lan_netns.py": "process", "test_link_phases.py": "process",
    "test_preset_identity.py": "process", "test_readme_commands.py": "process",
    "test_records_cli.py": "process", "test_replay_cli.py": "process",
    "test_rl_example.py": "process", "test_rl_optional_extra.py": "process", "test_rulebook.py": "process",
    "test_server_records.py": "process", "test_server_workers.py": "process",
    "test_storage_process.py": "process", "test_storage_writer.py": "process", "test_move_writer.py": "process",
    "test_fair_accounts.py": "process", "test_bots_horizon.py": "process", "test_journal_admin.py": "process", "test_journal_start.py": "process",
    "test_names_accented.py": "process", "test_server_sigterm.py": "process", "test_web_build.py": "process",
    "test_web_front.py": "process",
    "test_tui_resume.py": "process", "test_watch_reconnect.py": "process",
    # browser
    "test_web_table.py": "browser", "test_web_seat_held.py": "browser", "test_web_social.py": "browser",
    "test_web_table_lines.py": "browser",
    # packaging
    "test_packaging.py": "packaging",
}

# "file::test" -> kind, for the tests whose kind differs from their file's
TEST_KINDS: dict[str, Kind] = {
    "test_bots_ceiling.py::test_a_server_refuses_to_seat_the_cheater": "integration",
    "test_arena.py::test_results_do_not_depend_on_the_number_of_workers": "process",
    "test_move_log.py::test_a_running_journal_keeps_its_move_file_and_a_second_server_is_refused": "process",
    "test_move_log.py::test_a_damaged_record_of_the_move_file_is_listed_and_every_other_game_resumes": "process",
    "test_server_caps.py::test_a_claimed_name_is_claimed_in_every_case": "process",
    "test_tui_outage.py::test_a_card_pressed_while_the_server_is_down_is_played_after_the_restart": "process",
    "test_tui_outage.py::test_the_turn_clock_waits_while_the_server_is_down_and_counts_again_once_back": "process",
}

# integration files that stay out of the xdist workers (marked ``serial``): their servers
# share the one Redis of the tests with real-time leases, refreshes and command timeouts
# of a few seconds, which a second busy worker beside them can outlast
SERIAL_FILES: frozenset[str] = frozenset({
    "test_admin_drain.py", "test_club_cluster.py", "test_club_cluster_spread.py", "test_cluster_handoff.py", "test_cluster_lobby.py", "test_cluster_silence.py",
    "test_cluster_tables.py", "test_cluster_unstored.py", "test_dashboard.py", "test_journal_fence.py",
    "test_readiness.py", "test_table_id_taken.py", "test_tls_cluster.py", "test_tournament_redirect.py",
})  # fmt: skip

_KIND = pytest.StashKey[Kind]()
_UNDECLARED = pytest.StashKey[list[str]]()


class TierViolation(Exception):
    """A test did something its kind forbids."""


def _kind_of(item: pytest.Item) -> tuple[Kind, bool]:
    """The item's kind, and whether it came from a declaration (marker or table)."""
    for node in item.listchain()[::-1]:  # the test first, then its class, then module
        for mark in node.own_markers:
            if mark.name in KINDS:
                return mark.name, True  # type: ignore[return-value]
    name = getattr(item, "originalname", item.name)
    kind = TEST_KINDS.get(f"{item.path.name}::{name}") or FILE_KINDS.get(item.path.name)
    if kind is not None:
        return kind, True
    return DEFAULT_KIND, False


def pytest_configure(config: pytest.Config) -> None:
    config.stash[_UNDECLARED] = []


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    undeclared: set[str] = set()
    for item in items:
        kind, declared = _kind_of(item)
        item.stash[_KIND] = kind
        item.add_marker(kind)
        if kind == "integration" and item.path.name in SERIAL_FILES:
            item.add_marker("serial")
        if not declared:
            undeclared.add(item.path.name)
    config.stash[_UNDECLARED] = sorted(undeclared)


def pytest_report_collectionfinish(config: pytest.Config) -> list[str]:
    files = config.stash.get(_UNDECLARED, [])
    if not files:
        return []
    return [f"test files with no kind (run as {DEFAULT_KIND}; see tests/tiers.py): {', '.join(files)}"]


def _refuse(kind: Kind, what: str) -> Callable[..., Any]:
    def refuse(*args: object, **kwargs: object) -> Any:
        raise TierViolation(
            f"a {kind} test {what}: give it the kind that allows this "
            "(a marker on the test or module, or its entry in tests/tiers.py)"
        )

    return refuse


@contextmanager
def _guard(kind: Kind) -> Iterator[None]:
    if kind not in ("unit", "integration"):
        yield
        return
    with pytest.MonkeyPatch.context() as mp:
        starts = _refuse(kind, "started a process")
        mp.setattr(subprocess.Popen, "_execute_child", starts)  # subprocess, asyncio's too
        mp.setattr(_posixsubprocess, "fork_exec", starts)  # multiprocessing
        for name in ("fork", "forkpty", "posix_spawn", "posix_spawnp", "system",
                     "execv", "execve", "execvp", "execvpe", "spawnv", "spawnve"):  # fmt: skip
            if hasattr(os, name):
                mp.setattr(os, name, starts)
        if kind == "unit":
            opens = _refuse(kind, "opened a socket")
            plain_init = socket.socket.__init__

            def init(self: socket.socket, family: Any = -1, type: Any = -1, proto: Any = -1,
                     fileno: Any = None) -> None:  # fmt: skip
                if fileno is None:  # socketpair() wraps descriptors it already has
                    opens()
                plain_init(self, family, type, proto, fileno)

            mp.setattr(socket.socket, "__init__", init)
            mp.setattr(socket, "create_connection", opens)
            mp.setattr(socket, "create_server", opens)
        yield


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, object, object]:
    with _guard(item.stash.get(_KIND, DEFAULT_KIND)):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, object, object]:
    with _guard(item.stash.get(_KIND, DEFAULT_KIND)):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, object, object]:
    with _guard(item.stash.get(_KIND, DEFAULT_KIND)):
        return (yield)
