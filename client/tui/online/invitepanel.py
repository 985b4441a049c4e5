"""A private table's invite as one thing to pass on: the link for a browser (when the
server has a web page), the ``scopa play --invite`` command for a terminal, and the link
as a QR code for a phone's camera."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ...text import tr
from ...text import qr_text
from ..dialogs import Once, dialog_css


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


class ShareInviteScreen(Once, ModalScreen[None]):
    """The invite, shown once the private table is open; any key (or the game's start) closes it."""

    DEFAULT_CSS = dialog_css("ShareInviteScreen", "auto") + (
        "ShareInviteScreen VerticalScroll { height: auto; max-height: 100%; } ShareInviteScreen #qr { width: auto; }")

    def __init__(self, invite: Invite) -> None:
        super().__init__()
        self.invite = invite

    def compose(self) -> ComposeResult:
        link = self.invite.link
        with Vertical(classes="dialog"), VerticalScroll():
            yield Static(tr("Your private table is open: pass this invite on"), classes="dialog-title")
            if self.invite.local_only:  # first, and no QR code: a phone cannot reach this computer's loopback
                yield Static(Text(tr("This invite only works on this computer: the server listens on loopback "
                                     "only. For friends on other machines, start it with --host 0.0.0.0."),
                                  style="yellow"), id="local-only")
            if link is not None:
                yield Static(tr("In a browser:"))
                yield Static(Text(link, style="bold"), id="link")
            yield Static(tr("In a terminal:"))
            yield Static(Text(self.invite.command, style="bold"), id="command")
            if link is not None and not self.invite.local_only:
                yield Static(tr("With a phone's camera:"))
                yield Static(Text(qr_text(link), no_wrap=True), id="qr")
            yield Static(tr("press any key to go on"), classes="dialog-hint")

    def on_key(self, event: events.Key) -> None:
        if event.key in ("question_mark", "f1", "ctrl+c"):
            return
        event.stop()
        self.close(None)

    def on_click(self) -> None:
        self.close(None)
