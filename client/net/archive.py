"""Asking a server for its finished games, a game's record, the leaderboard, or to claim
a name (PROTOCOL.md §13), over a :class:`~scopa.client.net.session.ClientSession` (their lines of
text are client/text/games.py's)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from scopa.protocol import LOBBY
from scopa.protocol.commands import (
    ClaimName,
    GameSummary,
    Games,
    GetLeaderboard,
    GetRecord,
    Leaderboard,
    ListGames,
    NameClaimed,
    RecordReply,
    TableInfo,
    TableState,
)
from scopa.protocol.record import Record

from .channel import ConnectionLost
from .session import ClientSession, ServerRefused
from .trust import CertificateRefused


async def list_games(session: ClientSession, player: str | None = None, preset: str | None = None,
                     limit: int = 50, tokens: Iterable[str] = ()) -> list[GameSummary]:
    """The server's finished games, newest first (``ServerRefused`` if it keeps none)."""
    body = ListGames.model_validate({"player": player, "preset": preset, "limit": limit, "tokens": list(tokens)},
                                    strict=False)
    reply = await session._request(body, str(LOBBY))
    assert isinstance(reply.body, Games)
    return list(reply.body.games)


async def game_over_at(session: ClientSession, table: str) -> tuple[bool, GameSummary | None]:
    """Whether the game at public table ``table`` is over (a table refused as not there
    may have just finished), and its summary when the server keeps finished games."""
    try:
        summary = next((g for g in await list_games(session, limit=100) if g.id == table), None)
    except ServerRefused:  # a server that keeps no finished games
        summary = None
    if summary is not None:
        return True, summary
    return any(t.id == table for t in await session.list_tables(TableState.FINISHED)), None


def server_address(session: ClientSession) -> str:
    """The address of the server ``session`` is connected to, as ``--server`` takes it."""
    return f"[{session.host}]:{session.port}" if ":" in session.host else f"{session.host}:{session.port}"


async def fetch_record(session: ClientSession, game: str, token: str | None = None) -> Record:
    """One finished game's record."""
    reply = await session._request(GetRecord(game=game, token=token), str(LOBBY))
    assert isinstance(reply.body, RecordReply)
    return reply.body.record


async def leaderboard(session: ClientSession, preset: str = "scopa", limit: int = 20) -> Leaderboard:
    body = GetLeaderboard.model_validate({"preset": preset, "limit": limit}, strict=False)
    reply = await session._request(body, str(LOBBY))
    assert isinstance(reply.body, Leaderboard)
    return reply.body


async def claim_name(session: ClientSession, password: str) -> str:
    """Claim the session's name with ``password`` (a server with accounts)."""
    reply = await session._request(ClaimName(password=password), str(LOBBY))
    assert isinstance(reply.body, NameClaimed)
    return reply.body.name
