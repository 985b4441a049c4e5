"""The Redis server the cluster tests use (127.0.0.1:6379, database 0, or
``$SCOPA_TEST_REDIS``): each test gets a key prefix of its own, its keys deleted
afterwards, so tests of several people may run against the same server at once."""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis
from redis.exceptions import RedisError

SERVER = os.environ.get("SCOPA_TEST_REDIS", "redis://127.0.0.1:6379/0")


async def redis_client() -> Redis:
    """A client of the test server; fails the test with what to do when it cannot be reached."""
    client = Redis.from_url(SERVER, socket_connect_timeout=5, socket_timeout=5)
    try:
        await client.ping()
    except (RedisError, OSError) as exc:
        await client.aclose()
        pytest.fail(f"Redis is not reachable at {SERVER} ({exc}): the cluster tests need a running Redis "
                    "server (or set $SCOPA_TEST_REDIS to one)", pytrace=False)
    return client


@pytest.fixture
async def redis_prefix() -> AsyncIterator[str]:
    """A key prefix nobody else uses (its keys are deleted after the test)."""
    client = await redis_client()
    prefix = f"scopa-test-{uuid.uuid4().hex[:12]}"
    try:
        yield prefix
    finally:
        keys = [key async for key in client.scan_iter(match=f"{prefix}:*")]
        if keys:
            await client.delete(*keys)
        await client.aclose()
