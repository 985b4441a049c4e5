"""The Italian of a server's finished games and its leaderboard as the terminal shows
them (``scopa games``, ``scopa leaderboard``, the plain lobby's ``b``), by its English:
part of :data:`scopa.client.text.italian.ITALIAN`."""

from __future__ import annotations

ARCHIVE_ITALIAN: dict[str, str] = {
    "{who} won {totals} ({reason})": "vince {who} {totals} ({reason})",
    "(private)": "(privata)",
    "no finished games": "nessuna partita finita",
    "no finished games of {player}": "nessuna partita finita di {player}",
    "no rated games of {preset} yet": "ancora nessuna partita in classifica di {preset}",
    "1 finished game was not rated: {reason}": "1 partita finita non conta per la classifica: {reason}",
    "{n} finished games were not rated: {reason}": "{n} partite finite non contano per la classifica: {reason}",
    "rank": "pos.",
    "name": "nome",
    "rating": "punti",
    "games": "partite",
    "wins": "vinte",
}
