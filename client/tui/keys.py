"""Keys typed before a box took the focus (and a box that does keys in the order typed,
:class:`TypedBox`): a terminal delivers keys typed quickly (or
pasted) in one read, so the keys after the one that opens a box reach the screen before
the box has the focus.  :func:`catch_up` puts them in the box, so none is lost.  And the
arrows of a box too tall for the window (:func:`scrolled`)."""

from __future__ import annotations

from textual import events
from textual.containers import VerticalScroll
from textual.widget import Widget
from textual.widgets import Input, Static
from textual.css.query import NoMatches

from ..text import tr


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


class TypedBox(Input):
    """A text box that does each key in the order typed.  Textual runs a box's own keys
    (Backspace, Delete, the arrows, Home, End…) only once the key has gone up to the app
    and back, while it puts a letter in at once: "ada" typed quickly after a Backspace
    went in before the Backspace, which then took the last "a" away.  Here those keys are
    done as they arrive, so a burst lands as typed."""

    async def _on_key(self, event: events.Key) -> None:
        if not event.is_printable:
            for binding in self._bindings.key_to_bindings.get(event.key, ()):
                if not binding.priority and self.check_action(binding.action, ()) is not False:
                    event.stop()
                    event.prevent_default()
                    await self.run_action(binding.action)
                    return
        await super()._on_key(event)


def scrolled(screen: Widget, key: str) -> bool:
    """Whether ``key`` (an arrow, a page key) scrolled a box too tall for the window (its
    ``#round-scroll`` part)."""
    scroll = next(iter(screen.query("#round-scroll").results(VerticalScroll)), None)
    if key not in ("up", "down", "pageup", "pagedown") or scroll is None or not scroll.max_scroll_y:
        return False
    {"up": scroll.scroll_up, "down": scroll.scroll_down, "pageup": scroll.scroll_page_up,
     "pagedown": scroll.scroll_page_down}[key](animate=False)
    return True


def last_rows_first(screen: Widget, hint: str) -> None:
    """A box's ``#round-scroll`` part too tall for the window shows its last rows (a
    round's points) first; its ``#round-hint`` says the arrows show the rest."""
    try:
        scroll, line = screen.query_one("#round-scroll", VerticalScroll), screen.query_one("#round-hint", Static)
    except NoMatches:  # the box is closing
        return
    scroll.scroll_end(animate=False)  # once laid out in its new height
    scroll.call_after_refresh(lambda: line.update(tr("↑↓: the whole score") + " · " + hint if scroll.max_scroll_y
                                                  else hint))
