"""The invite to a private table as one string to pass on (PROTOCOL.md §15, "The invite
as one string"): the table's id and its invite code joined by a dot, ``7.Xq3v…``.  A
link to a server's web page carries it as its ``invite`` query parameter; whoever is
invited may give either to ``scopa play --invite`` (or the lobby's ``i``).  Beside it, a server's
refusal and a connection that could not be made, in a person's words, and the name the
invited person plays under: why a typed one is not a name, and the forms of it that are;
and what leaving a game being played does at its table, asked before it is done."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import parse_qs, quote, urlsplit

from scopa.protocol import ErrorCode
from scopa.protocol.parties import NAME_CHARS, NAME_PATTERN, normal_name

from .catalog import error_text, is_server_bot
from .i18n import tr

_TABLE = r"[A-Za-z0-9_-]{1,16}"
_CODE = r"[A-Za-z0-9_-]{8,64}"
_STRING = re.compile(rf"^({_TABLE})\.({_CODE})$")
_SPACED = re.compile(rf"^({_TABLE})\s+({_CODE})$")  # the table and the code typed apart


def invite_string(table: str, code: str) -> str:
    """What a host passes on: ``TABLE.CODE``."""
    return f"{table}.{code}"


@dataclass(frozen=True)
class Invite:
    """Where the table is (the server's host and port, TLS or not, its web page's port) and its invite."""

    host: str
    port: int
    invite: str  # TABLE.CODE
    web_port: int | None = None
    tls: bool = False
    local_only: bool = False  # the host is loopback: the invite works on this computer only

    @property
    def link(self) -> str | None:
        """The web page's address that opens the table in a browser (None: no web page)."""
        if self.web_port is None:
            return None
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{'https' if self.tls else 'http'}://{host}:{self.web_port}/?invite={quote(self.invite, safe='.')}"

    @property
    def command(self) -> str:
        """What a friend at a terminal runs."""
        server = f"{'tls://' if self.tls else ''}{self.host}:{self.port}"
        return f"scopa play --server {server} --invite {self.invite}"


def parse_invite(text: str) -> tuple[str, str]:
    """The table and invite code an invite names: the string, a link holding it (its
    ``invite`` parameter, or ``table`` and ``invite`` apart), or the table and the code
    separated by a space.  ``ValueError`` (saying what one looks like) for anything else."""
    text = text.strip()
    if "?" in text or "://" in text:
        query = parse_qs(urlsplit(text).query)
        given = query.get("invite", [""])[0]
        table = query.get("table", [""])[0]
        text = f"{table}.{given}" if table and "." not in given else given
    found = _STRING.match(text) or _SPACED.match(text)
    if found is None:
        raise ValueError(tr("that is not an invite: an invite looks like 7.Xq3vR0aT2m-k9LbZ_c8Ew1yH (the table, a dot, "
                            "the code), or is a link holding one"))
    return found[1], found[2]


def refusal_text(code: ErrorCode, message: str, watching: str | None = None, invited: bool = False,
                 joining: str | None = None, watch_key: str = "w") -> str:
    """A refusal of the server in a person's words.  A private table is refused exactly
    as a table that does not exist (the server tells nobody it is there), so a table
    watched without its invite gets the way to watch a private one; a full table
    ``joining`` was refused at gets the way to watch it (``watch_key``: the key, or the
    command, that does)."""
    if code is ErrorCode.TABLE_FULL and joining is not None:
        return tr("Table {table} is full: {key} watches its game.", table=joining, key=watch_key)
    if code is ErrorCode.NO_SUCH_TABLE and invited:
        return tr("No table matches that invite: the game is over, the table is gone, or the invite is another "
                  "table's.")
    if code is ErrorCode.TABLE_FULL and invited and message.endswith(" finished"):
        return tr("The game at that invite's table is over, and no rematch of it waits for players (a rematch that "
                  "waits takes in whoever holds this invite): ask the table's host for a new invite.")
    if code is ErrorCode.NO_SUCH_TABLE and watching is not None:
        return tr("There is no table '{table}' to watch without an invite: it does not exist, or it is private. "
                  "A private table is watched with the invite its host passed on: scopa watch --invite TABLE.CODE",
                  table=watching)
    return tr("The server says no: {message}", message=error_text(code, message))


def seated_text(asked: str, table: str, seat: int) -> str:
    """Where a join sat the person (``seat`` from 0): the table ``asked`` for, or, its
    game over, the rematch its invite led to."""
    if table != asked:
        return tr("The game at table {old} is over: its invite took you to its rematch, table {table}, seat {seat}.",
                  old=asked, table=table, seat=seat + 1)
    return tr("You sit at table {table}, seat {seat}.", table=table, seat=seat + 1)


def lost_text(unreachable: Sequence[tuple[str, str]]) -> str:
    """A connection that could not be made or was lost, in a person's words: for each
    address tried, why it was not reached (``(why, address)``, as the client's
    ``Unreachable``); none: the connection was lost."""
    lines = [_unreachable_line(why, address) for why, address in unreachable]
    return "\n".join(dict.fromkeys(lines)) or tr("The connection to the server was lost.")


def link_text(back: bool) -> str:
    """What both terminal clients say when the connection to the server is lost (and
    they try again by themselves), or ``back``."""
    return tr("Connected again.") if back else tr("Connection to the server lost: retrying…")


def _unreachable_line(why: str, address: str) -> str:
    host = address.removeprefix("tls://").rsplit(":", 1)[0]
    if why == "refused":
        return tr("No server answers at {address}: is the address right, and is the server (scopa serve) on?",
                  address=address)
    if why == "no_answer":
        return tr("{address} does not answer: check the address and the network.", address=address)
    if why == "unknown_host":
        return tr("No computer is called {host}: check the address.", host=host)
    if why == "tls_failed":
        return tr("The server at {address} does not use TLS: connect to {address} without tls://.", address=address)
    if why == "speaks_tls":
        return tr("The server at {address} uses TLS: connect to tls://{address}.", address=address)
    return tr("{address} cannot be reached: check the network and the address.", address=address)


def gave_up_text(table: str, reason: str | None) -> str | None:
    """A saved seat given up (``leave_table``'s ``left`` reason): what became of its game;
    None when nothing held the seat (no reason)."""
    if reason is None:
        return None
    if reason == "left":
        return tr("You left the game at table {table}: a bot plays your seat.", table=table)
    if reason == "abandoned":
        return tr("You left the game at table {table}: it ended there, with no winner.", table=table)
    return tr("You left table {table}.", table=table)


def name_forms(typed: str) -> list[str]:
    """The names a server takes that are made of ``typed``'s words: joined by ``_``, and
    run together ("Nonna Pina": ``Nonna_Pina``, ``NonnaPina``), as the browser offers them."""
    words = re.sub(rf"[^{NAME_CHARS}\s]", "", normal_name(typed)).split()
    forms = ("_".join(words)[:24], "".join(words)[:24])
    return [form for form in dict.fromkeys(forms) if re.fullmatch(NAME_PATTERN, form)]


def name_problem(typed: str, option: str = "--name ") -> str | None:
    """Why ``typed`` is not a name, in the person's language, with the forms of it that are
    (each after ``option``: ``--name`` on the command line, nothing at a prompt); None: it is one."""
    if re.fullmatch(NAME_PATTERN, normal_name(typed)) is not None:
        return None
    if re.search(r"\s", typed.strip()):
        problem = tr("{typed} cannot be a name: a name has no spaces", typed=repr(typed.strip()))
    else:
        problem = tr("{typed} cannot be a name: a name has 1 to 24 letters (accented ones too), digits, "
                     "'.', '_' or '-'", typed=repr(typed.strip()))
    forms = [option + form for form in name_forms(typed)]
    if not forms:
        return problem + "."
    offer = forms[0] if len(forms) == 1 else tr("{first} or {second}", first=forms[0], second=forms[1])
    return tr("{problem}. Try {offer}.", problem=problem, offer=offer)


def renamed_text(asked: str | None, granted: str | None) -> str | None:
    """What to tell a person whose name was taken on the server, which gave them another
    (``asked`` "Giulia", ``granted`` "Giulia2"); None: they have the name they asked for."""
    if not asked or not granted or normal_name(asked) == granted:
        return None
    return tr("The name {asked} is already in use: here you are {name}.", asked=normal_name(asked), name=granted)


def leave_question(others: Sequence[str | None], bot_takeover: bool | None) -> str:
    """What leaving the game now does at this table, as the server does it (PROTOCOL.md
    ``leave_table``): a bot plays the seat when the table says so (``bot_takeover``;
    None: not known here) and another person plays on; otherwise the game ends for
    everyone.  ``others``: the names at the other seats (None: a seat a bot plays since
    its person left)."""
    people = [n for n in others if n is not None and not is_server_bot(n)]
    if others and not people and None in others:
        return tr("Leave the game? You are the last person at the table: the game ends at once for everyone, "
                  "with no winner.")
    if others and not people:
        return tr("Leave the game? It ends here, with no winner: nobody else plays at this table.")
    if bot_takeover is True:
        return tr("Leave the game? A bot plays your seat for the rest of the game; you cannot come back to it.")
    if bot_takeover is False:
        return tr("Leave the game? It ends for everyone, with no winner: this table was made to end when a "
                  "player leaves.")
    return tr("Leave the game? A bot plays your seat for the rest of the game (or, at a table made to end "
              "when a player leaves, the game ends for everyone).")
