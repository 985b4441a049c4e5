"""Keys typed before a box took the focus: a terminal delivers keys typed quickly (or
pasted) in one read, so the keys after the one that opens a box reach the screen before
the box has the focus.  :func:`catch_up` puts them in the box, so none is lost."""

from __future__ import annotations

from textual import events
from textual.widgets import Input


def catch_up(box: Input, event: events.Key) -> bool:
    """Put ``event`` in ``box`` (still opening): a printable character goes in at the
    cursor, Enter submits the box.  True when the key was the box's."""
    if event.character and event.character.isprintable():
        event.stop()
        box.insert_text_at_cursor(event.character)
        return True
    if event.key == "enter":
        event.stop()
        box.run_worker(box.action_submit())
        return True
    return False
