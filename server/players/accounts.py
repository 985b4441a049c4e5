"""Accounts: claimed names (``scopa serve --accounts``), over the journal.

A password per name, kept only as a salted scrypt hash, hashed in an executor so the
event loop never waits for it; wrong attempts rate-limited per address and per name
(never for the owner's own address), one check at a time per address, and claims
bounded per address (see :class:`Accounts`).  The NetworkEngine hands this module each
``hello`` (:meth:`Accounts.hello_deferred`: a claimed name's password is checked before
the welcome) and each ``claim_name`` (:meth:`Accounts.claim_name`, PROTOCOL.md §13).
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import hmac
import logging
import os
import weakref
from collections import deque
from collections.abc import Callable
from enum import StrEnum

from scopa.protocol import commands as wire
from scopa.protocol.errors import ErrorCode

from ..core import metrics, Clock, Limits, BackgroundTasks, name_key
from ..journal import Account, Journal, SaveAccount
from ..conn import ServerSession

log = logging.getLogger("scopa.server")

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
    """At most ``max_failures`` wrong attempts per key within ``window`` seconds; a check
    under way counts as a failure until it is known to be right (so checks started at
    the same moment cannot get past the limit together)."""

    def __init__(self, clock: Clock, max_failures: int = 5, window: float = 300.0) -> None:
        self.clock = clock
        self.max_failures = max_failures
        self.window = window
        self._failures: dict[str, deque[float]] = {}
        self._pending: dict[str, int] = {}

    def _recent(self, key: str) -> deque[float]:
        times = self._failures.get(key)
        if times is None:
            return deque()
        cutoff = self.clock.now() - self.window
        while times and times[0] <= cutoff:
            times.popleft()
        if not times:
            del self._failures[key]
        return times

    def count(self, key: str) -> int:
        """Recent failures of ``key``, with the checks of it under way."""
        return len(self._recent(key)) + self._pending.get(key, 0)

    def blocked(self, *keys: str) -> bool:
        return any(self.count(k) >= self.max_failures for k in keys)

    def begin(self, *keys: str) -> None:
        """A check of these keys starts (it counts until :meth:`end`)."""
        for k in keys:
            self._pending[k] = self._pending.get(k, 0) + 1

    def end(self, *keys: str, failed: bool) -> None:
        now = self.clock.now()
        for k in keys:
            left = self._pending.get(k, 0) - 1
            if left > 0:
                self._pending[k] = left
            else:
                self._pending.pop(k, None)
            if failed:
                self._failures.setdefault(k, deque()).append(now)

    def failed(self, *keys: str) -> None:
        now = self.clock.now()
        for k in keys:
            self._failures.setdefault(k, deque()).append(now)


class Accounts:
    """Claim a name, check a name's password (both off the event loop).

    Guessing is limited three ways (the numbers are :class:`~scopa.server.core.limits.Limits` fields):
    an address with ``password_failures_per_address`` wrong passwords (for any names)
    within ``password_window`` is not checked again until they age out; a name with
    ``password_failures_per_name`` wrong passwords (from any addresses) is not checked
    for addresses that never logged in to it — its owner, at an address it logged in
    from (or claimed it from), still gets in; and one check at a time per address.
    An address claims at most ``name_claims_per_address`` names per ``name_claims_window``.
    A name is claimed, and looked up, under its :func:`~scopa.server.core.text.name_key`: look-alikes of
    a claimed name are claimed too.

    Without ``enabled`` (a server without ``--accounts``) no name is claimed, every
    ``hello`` goes through and ``claim_name`` is refused."""

    def __init__(self, journal: Journal | None, clock: Clock, limits: Limits | None = None, *,
                 enabled: bool = True) -> None:
        if enabled and journal is None:
            raise ValueError("accounts are kept in the server's database: give it one (--db)")
        lim = limits if limits is not None else Limits()
        self.journal = journal
        self.enabled = enabled
        self.limits = lim
        self.verified: weakref.WeakSet[ServerSession] = weakref.WeakSet()
        """Connections that gave their claimed name's password."""
        self._background = BackgroundTasks()
        self.limiter = AttemptLimiter(clock, lim.password_failures_per_address, lim.password_window)
        self.name_limiter = AttemptLimiter(clock, lim.password_failures_per_name, lim.password_window)
        self.claims = AttemptLimiter(clock, lim.name_claims_per_address, lim.name_claims_window)
        self._claiming: set[str] = set()  # name keys being claimed
        self._checking: dict[str, tuple[str, ...]] = {}  # address under check -> the name keys it counts under
        self._owners: dict[str, set[str]] = {}  # name key -> addresses that logged in to it

    async def account(self, name: str) -> Account | None:
        """The account of ``name`` or of a look-alike of it."""
        assert self.journal is not None
        return await self.journal.account(name_key(name)) or await self.journal.account(name)

    async def claimed(self, name: str) -> bool:
        return name_key(name) in self._claiming or await self.account(name) is not None

    def _keys(self, name: str, address: str) -> tuple[str, ...]:
        """The limiter keys a check of ``name`` from ``address`` counts under: the
        name's only for an address its owner has not logged in from."""
        key = name_key(name)
        return () if address in self._owners.get(key, ()) else (f"name:{key}",)

    def begin_check(self, name: str, address: str) -> bool:
        """Whether a password for ``name`` from ``address`` may be checked now (not too
        many wrong ones lately, and no other check from that address under way); if so
        the address is busy until :meth:`check` returns."""
        address_key = f"address:{address}"
        name_keys = self._keys(name, address)
        if (self.limiter.blocked(address_key) or self.name_limiter.blocked(*name_keys)
                or address_key in self._checking):
            return False
        self._checking[address_key] = name_keys
        self.limiter.begin(address_key)
        self.name_limiter.begin(*name_keys)
        return True

    async def check(self, name: str, password: str, address: str) -> Verdict:
        """Check a password after :meth:`begin_check` said yes (off the event loop)."""
        address_key = f"address:{address}"
        name_keys = self._checking.get(address_key, ())
        wrong = False
        try:
            account = await self.account(name)
            if account is None:
                return Verdict.UNCLAIMED
            digest = await asyncio.get_running_loop().run_in_executor(
                None, functools.partial(scrypt_hash, password, account.salt, account.n, account.r, account.p)
            )
            if not hmac.compare_digest(digest, account.hash):
                wrong = True
                return Verdict.WRONG
            self._owners.setdefault(name_key(name), set()).add(address)
            return Verdict.OK
        finally:
            self._checking.pop(address_key, None)
            self.limiter.end(address_key, failed=wrong)
            self.name_limiter.end(*name_keys, failed=wrong)

    async def claim(self, name: str, password: str, address: str) -> Verdict:
        """Claim ``name``: OK, or WRONG if it (or a look-alike) is claimed already, or
        LIMITED (too many refused claims, or too many names claimed, from ``address``)."""
        key = f"address:{address}"
        counted = not self.limits.trusts(address)
        if self.limiter.blocked(key) or (counted and self.claims.blocked(key)):
            return Verdict.LIMITED
        if await self.claimed(name):
            self.limiter.failed(key)
            return Verdict.WRONG
        folded = name_key(name)
        self._claiming.add(folded)  # a second claim while this one is hashing is refused
        if counted:
            self.claims.failed(key)  # every claim counts against the address's allowance
        try:
            salt = os.urandom(SALT_BYTES)
            digest = await asyncio.get_running_loop().run_in_executor(
                None, functools.partial(scrypt_hash, password, salt)
            )
            assert self.journal is not None
            await self.journal.write(SaveAccount(Account(folded, salt, digest, SCRYPT_N, SCRYPT_R, SCRYPT_P)))
        finally:
            self._claiming.discard(folded)
        self._owners.setdefault(folded, set()).add(address)
        return Verdict.OK

    # ------------------------------------------------------------------ the wire side

    def hello_deferred(self, sess: ServerSession, body: wire.Hello, seq: int, welcome: Callable[[], None]) -> bool:
        """With accounts, a hello for a claimed name: True when this module answers it
        (an error, or ``welcome()`` once the password checked out off the event loop)."""
        if not self.enabled:
            return False
        self._background.spawn(self._hello_claimed(sess, body, seq, welcome))
        return True

    async def _hello_claimed(self, sess: ServerSession, body: wire.Hello, seq: int,
                             welcome: Callable[[], None]) -> None:
        if not await self.claimed(body.name):
            if not sess.closed:
                welcome()
            return
        if sess.closed:
            return
        if body.password is None:
            sess.error(ErrorCode.NAME_TAKEN, f"the name {body.name!r} is claimed: give its password, or choose "
                                             "another name", re=seq)
            return
        if not self.begin_check(body.name, sess.address):
            metrics.RATE_LIMITED_PASSWORDS.inc()
            sess.error(ErrorCode.RATE_LIMITED, "too many wrong passwords, or another check under way: try again "
                                               "later", re=seq)
            return
        await self._verify(sess, body, seq, welcome)

    async def _verify(self, sess: ServerSession, body: wire.Hello, seq: int, welcome: Callable[[], None]) -> None:
        assert body.password is not None
        verdict = await self.check(body.name, body.password, sess.address)
        if sess.closed:
            return
        if verdict is Verdict.WRONG:
            log.info("connection %s: wrong password for %s", sess.id, body.name)
            sess.error(ErrorCode.BAD_PASSWORD, f"that is not the password of {body.name!r}", re=seq)
        else:
            welcome()
            if sess.name == body.name and verdict is Verdict.OK:
                self.verified.add(sess)

    def claim_name(self, sess: ServerSession, body: wire.ClaimName, seq: int) -> None:
        """``claim_name``: the connection's name, with this password (answered off the loop)."""
        if not self.enabled:
            sess.error(ErrorCode.UNEXPECTED_COMMAND, "this server has no accounts (it runs without --accounts)",
                       re=seq)
            return
        self._background.spawn(self._claim_name(sess, body, seq))

    async def _claim_name(self, sess: ServerSession, body: wire.ClaimName, seq: int) -> None:
        assert sess.name is not None
        name = sess.name
        verdict = await self.claim(name, body.password, sess.address)
        if verdict is Verdict.LIMITED:
            metrics.RATE_LIMITED_NAME_CLAIMS.inc()
            sess.error(ErrorCode.RATE_LIMITED, "too many refused attempts: try again later", re=seq)
        elif verdict is not Verdict.OK:
            sess.error(ErrorCode.NAME_TAKEN, f"the name {name!r} is claimed already", re=seq)
        else:
            log.info("connection %s claims the name %s", sess.id, name)
            self.verified.add(sess)
            sess.tell(wire.NameClaimed(name=name), re=seq)

    def is_verified(self, sess: ServerSession) -> bool:
        """Whether ``sess`` gave its claimed name's password (or claimed its name)."""
        return sess in self.verified

    async def close(self) -> None:
        await self._background.close()
