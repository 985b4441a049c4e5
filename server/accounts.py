"""Claimed names (``scopa serve --accounts``): a password per name, kept only as a salted
scrypt hash, hashed in an executor so the event loop never waits for it, and wrong
attempts rate-limited per name and per address (and one check at a time per address)."""

from __future__ import annotations

import asyncio
import functools
import hashlib
import hmac
import os
from collections import deque
from enum import StrEnum

from .archive import Account
from .journal import Journal, SaveAccount
from .clock import Clock

SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1  # 16 MiB of memory per hash (128 * n * r bytes)
SALT_BYTES = 16
HASH_BYTES = 32


class Verdict(StrEnum):
    OK = "ok"  # the password is the name's
    WRONG = "wrong"  # it is not
    LIMITED = "limited"  # too many wrong attempts lately: not even checked
    UNCLAIMED = "unclaimed"  # nobody claimed the name


def scrypt_hash(password: str, salt: bytes, n: int = SCRYPT_N, r: int = SCRYPT_R, p: int = SCRYPT_P) -> bytes:
    return hashlib.scrypt(password.encode("utf-8"), salt=salt, n=n, r=r, p=p, maxmem=0, dklen=HASH_BYTES)


class AttemptLimiter:
    """At most ``max_failures`` wrong attempts per key within ``window`` seconds."""

    def __init__(self, clock: Clock, max_failures: int = 5, window: float = 300.0) -> None:
        self.clock = clock
        self.max_failures = max_failures
        self.window = window
        self._failures: dict[str, deque[float]] = {}

    def _recent(self, key: str) -> deque[float]:
        times = self._failures.setdefault(key, deque())
        cutoff = self.clock.now() - self.window
        while times and times[0] <= cutoff:
            times.popleft()
        return times

    def blocked(self, *keys: str) -> bool:
        return any(len(self._recent(k)) >= self.max_failures for k in keys)

    def failed(self, *keys: str) -> None:
        now = self.clock.now()
        for k in keys:
            self._recent(k).append(now)

    def forget(self, key: str) -> None:
        self._failures.pop(key, None)


class Accounts:
    """Claim a name, check a name's password (both off the event loop)."""

    def __init__(self, archive: Journal, clock: Clock, *, max_failures: int = 5, window: float = 300.0) -> None:
        self.archive = archive
        self.limiter = AttemptLimiter(clock, max_failures, window)
        self._claiming: set[str] = set()
        self._checking: set[str] = set()  # addresses with a password check under way

    async def claimed(self, name: str) -> bool:
        return name in self._claiming or await self.archive.account(name) is not None

    def begin_check(self, name: str, address: str) -> bool:
        """Whether a password for ``name`` from ``address`` may be checked now (not too
        many wrong ones lately, and no other check from that address under way); if so
        the address is busy until :meth:`check` returns."""
        address_key = f"address:{address}"
        if self.limiter.blocked(f"name:{name}", address_key) or address_key in self._checking:
            return False
        self._checking.add(address_key)
        return True

    async def check(self, name: str, password: str, address: str) -> Verdict:
        """Check a password after :meth:`begin_check` said yes (off the event loop)."""
        keys = (f"name:{name}", f"address:{address}")
        try:
            account = await self.archive.account(name)
            if account is None:
                return Verdict.UNCLAIMED
            digest = await asyncio.get_running_loop().run_in_executor(
                None, functools.partial(scrypt_hash, password, account.salt, account.n, account.r, account.p)
            )
        finally:
            self._checking.discard(keys[1])
        if hmac.compare_digest(digest, account.hash):
            self.limiter.forget(keys[0])
            return Verdict.OK
        self.limiter.failed(*keys)
        return Verdict.WRONG

    async def claim(self, name: str, password: str, address: str) -> Verdict:
        """Claim ``name``: OK, or WRONG if it is claimed already, or LIMITED."""
        key = f"address:{address}"
        if self.limiter.blocked(key):
            return Verdict.LIMITED
        if await self.claimed(name):
            self.limiter.failed(key)
            return Verdict.WRONG
        self._claiming.add(name)  # a second claim while this one is hashing is refused
        try:
            salt = os.urandom(SALT_BYTES)
            digest = await asyncio.get_running_loop().run_in_executor(
                None, functools.partial(scrypt_hash, password, salt)
            )
            await self.archive.write(SaveAccount(Account(name, salt, digest, SCRYPT_N, SCRYPT_R, SCRYPT_P)))
        finally:
            self._claiming.discard(name)
        return Verdict.OK
