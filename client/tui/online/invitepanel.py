"""A private table's invite as one thing to pass on: the link for a browser (when the
server has a web page), the ``scopa play --invite`` command for a terminal, and the link
as a QR code for a phone's camera."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ...text import tr
from ...text import Invite
from ...text import qr_text
from ..dialogs import Once, dialog_css

__all__ = ["Invite", "ShareInviteScreen"]


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
