"""Keys typed before a box took the focus (and a box that does keys in the order typed,
:class:`TypedBox`): a terminal delivers keys typed quickly (or
pasted) in one read, so the keys after the one that opens a box reach the screen before
the box has the focus.  :func:`catch_up` puts them in the box, so none is lost.  The
arrows of a box too tall for the window (:func:`scrolled`).  And the keys the help screen
lists, a table's or the lobby's (:func:`keys_help`)."""

from __future__ import annotations

from textual import events
from textual.containers import VerticalScroll
from textual.widget import Widget
from textual.widgets import Input, Static
from textual.css.query import NoMatches

from ..text import current_language, tr


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


KEYS_HELP = """\
## Keys

- `1`…`9` (`0` for the tenth): play that card of your hand; if it can take different
  sets of cards you choose which next.
- `/` then a card (`7 Den`, `7d`; French deck `7♦`, `Kc`), Enter: play it; add the cards
  to take (`7d 3c 4s`) to choose the capture at once. Typing a court-card letter opens
  the box by itself (the French deck's queen with a capital `Q`: `q` is leave).
- Click a card in your hand: what it can take lights up on the table; click it again
  (or Enter) to play it, or click one of the lit table cards.
- `t` at a network table: say something to the table (Enter sends, Esc closes the box);
  what people say shows in the side panel.
- `?` or F1: this help. `q`: leave (after a question). Ctrl+C: leave at once.
"""

KEYS_HELP_IT = """\
## Tasti

- `1`…`9` (`0` per la decima): gioca quella carta della mano; se può prendere gruppi di
  carte diversi scegli poi quale.
- `/` e poi una carta (`7 Den`, `7d`; mazzo francese `7♦`, `Kc`), Invio: la gioca; aggiungi
  le carte da prendere (`7d 3c 4s`) per scegliere subito la presa. Scrivere la lettera di
  una figura apre la casella da sé (la donna del mazzo francese con la `Q` maiuscola: `q`
  è uscire).
- Clic su una carta della mano: si illumina in tavola ciò che può prendere; un altro clic
  (o Invio) la gioca, oppure clic su una delle carte illuminate.
- `t` a un tavolo in rete: scrivi qualcosa al tavolo (Invio invia, Esc chiude la
  casella); quello che si dice compare nel pannello laterale.
- `?` o F1: questo aiuto. `q`: esci (dopo una domanda). Ctrl+C: esci subito.
"""


LOBBY_KEYS_HELP = """\
## Keys in the lobby

- `↑` `↓`: choose a table in the list. Enter or `j`: sit at the chosen table (a finished
  game: how it ended). `w`: watch the chosen table.
- `p`: play now (a game with whoever else asks for one); while you wait, Esc or `p` again
  stops waiting. `c`: create a table.
- `i`: join a private table with the invite you were given.
- `o`: tournaments. `r`: list the tables again.
- `t`: say something to the lobby (Enter sends).
- `?` or F1: this help. `q`: leave. Ctrl+C: leave at once.

At a table, `?` lists the keys for playing.
"""

LOBBY_KEYS_HELP_IT = """\
## Tasti nella sala

- `↑` `↓`: scegli un tavolo nell'elenco. Invio o `j`: siediti al tavolo scelto (una
  partita finita: come è andata). `w`: guarda il tavolo scelto.
- `p`: gioca subito (una partita con chi altro la chiede); mentre aspetti, Esc o di nuovo `p`
  smette di aspettare. `c`: apri un tavolo.
- `i`: entra in un tavolo privato con l'invito che ti hanno dato.
- `o`: tornei. `r`: elenca di nuovo i tavoli.
- `t`: scrivi qualcosa alla sala (Invio invia).
- `?` o F1: questo aiuto. `q`: esci. Ctrl+C: esci subito.

A un tavolo, `?` elenca i tasti per giocare.
"""


WATCHING_KEYS_HELP = """\
## Keys while watching

- `b`: stop watching this table.
- The table's chat shows in the side panel: spectators read it but do not write in it.
- When the game ends, `n` on its result watches the rematch its players start (the box
  says so once there is one); Enter leaves the result.
- `?` or F1: this help. `q`: stop watching (after a question). Ctrl+C: leave at once.
"""

WATCHING_KEYS_HELP_IT = """\
## Tasti mentre guardi

- `b`: smetti di guardare questo tavolo.
- La chat del tavolo compare nel pannello laterale: gli spettatori la leggono ma non ci
  scrivono.
- A fine partita, `n` sul risultato guarda la rivincita che i giocatori aprono (il
  riquadro lo dice quando c'è); Invio lascia il risultato.
- `?` o F1: questo aiuto. `q`: smetti di guardare (dopo una domanda). Ctrl+C: esci subito.
"""


def keys_help(lobby: bool = False, watching: bool = False) -> str:
    """The keys the help screen lists: the lobby's, a watched table's (a spectator's
    keys: no card is played) or those of a table played at."""
    it = current_language() == "it"
    if lobby:
        return LOBBY_KEYS_HELP_IT if it else LOBBY_KEYS_HELP
    if watching:
        return WATCHING_KEYS_HELP_IT if it else WATCHING_KEYS_HELP
    return KEYS_HELP_IT if it else KEYS_HELP
