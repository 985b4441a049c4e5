"""The Italian of the server's log lines that ``scopa serve`` shows its operator in text
(where it listens, its operator token, its page, tables and games coming and going, a
game not rated and why), by their English ``%``-templates; the JSON log stays English.
scopa/cli/serverlog.py puts them in."""

from __future__ import annotations

LOG_ITALIAN: dict[str, str] = {
    "operator token written to %s": "token dell'operatore scritto in %s",
    "listening on %s:%s%s": "in ascolto su %s:%s%s",
    "listening on %s:%s too, with the cluster's other members on this host":
        "in ascolto anche su %s:%s, con gli altri membri del cluster su questa macchina",
    "web page on %s://%s:%s/ (WebSocket /ws)": "pagina web su %s://%s:%s/ (WebSocket /ws)",
    "metrics on http://%s:%s/metrics (and /healthz, /readyz)": "metriche su http://%s:%s/metrics (e /healthz, /readyz)",
    "made a self-signed certificate in %s": "creato un certificato autofirmato in %s",
    "announced on the LAN as %r": "annunciato sulla rete locale come %r",
    "SIGTERM: stopping the server": "SIGTERM: il server si ferma",
    "server stopped": "server fermato",
    "connection %s from %s": "connessione %s da %s",
    "connection %s (%s) closed": "connessione %s (%s) chiusa",
    "connection %s claims the name %s": "la connessione %s rivendica il nome %s",
    "connection %s: wrong password for %s": "connessione %s: password sbagliata per %s",
    "operator (connection %s): %s %s": "operatore (connessione %s): %s %s",
    "table %s created by %s: %s": "tavolo %s aperto da %s: %s",
    "table %s opened by the server: %s": "tavolo %s aperto dal server: %s",
    "table %s: %s sits at seat %s": "tavolo %s: %s si siede al posto %s",
    "table %s: %s watches": "tavolo %s: %s guarda",
    "table %s: %s disconnected (%s)": "tavolo %s: %s si è scollegato (%s)",
    "table %s: game started (%s) with %s": "tavolo %s: partita iniziata (%s) con %s",
    "table %s: game finished, winner side %s, totals %s (%s)":
        "tavolo %s: partita finita, vince la parte %s, totali %s (%s)",
    "table %s: game abandoned (%s)": "tavolo %s: partita interrotta (%s)",
    "table %s: not rated (%s)": "tavolo %s: non conta per la classifica (%s)",
    "table %s: closed (%s)": "tavolo %s: chiuso (%s)",
    "table %s closed: nobody is waiting at it": "tavolo %s chiuso: non ci aspetta nessuno",
    "table %s: restored at action %s": "tavolo %s: ripristinato alla mossa %s",
    "table %s: restored, waiting for players": "tavolo %s: ripristinato, in attesa di giocatori",
    "table %s: seat %s (%s) is away; waiting %ss": "tavolo %s: il posto %s (%s) è assente; si aspetta %s s",
    "table %s: seat %s (%s) is back": "tavolo %s: il posto %s (%s) è tornato",
    "table %s: seat %s (%s) left the game": "tavolo %s: il posto %s (%s) ha lasciato la partita",
    "table %s: seat %s (%s) did not come back in %ss": "tavolo %s: il posto %s (%s) non è tornato entro %s s",
    "table %s: seat %s (%s) did not come back in %ss; it is free again":
        "tavolo %s: il posto %s (%s) non è tornato entro %s s; è di nuovo libero",
    "table %s: a bot takes seat %s (%s)": "tavolo %s: un bot prende il posto %s (%s)",
    "table %s: seat %s (%s) is played by its person again": "tavolo %s: il posto %s (%s) è di nuovo giocato dalla sua persona",
    "table %s: a quick game of %s for %s": "tavolo %s: una partita veloce di %s per %s",
}
