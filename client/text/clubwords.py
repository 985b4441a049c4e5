"""The Italian of tournaments and quick play in the terminal clients (the plain lobby's
``t`` command, the full-screen client's tournaments screen), of reaching a server
(finding one on the network, a connection not made or lost, a seat kept to go back to),
and of what ``scopa serve`` tells the person running it (where it listens and how to
reach it, its certificate, why it cannot start, that it stopped), and of a server's
finished games and leaderboard, and of the full-screen client's game-over box, lobby and name
box (``TUI_ITALIAN``), by its English: part of
:data:`scopa.client.text.italian.ITALIAN`; and the Italian of the server's log lines as
``scopa serve`` shows them (``LOG_ITALIAN``, ``%``-templates)."""

from __future__ import annotations

CLUB_ITALIAN: dict[str, str] = {
    # the plain lobby's tournaments
    "[bold]t[/bold] tournaments · [bold]t done[/bold] finished ones · [bold]t join ID[/bold] · "
    "[bold]t leave ID[/bold] · [bold]t start ID[/bold] · [bold]t standings ID[/bold]":
        "[bold]t[/bold] tornei · [bold]t done[/bold] quelli finiti · [bold]t join ID[/bold] iscriviti · "
        "[bold]t leave ID[/bold] ritirati · [bold]t start ID[/bold] avvia · [bold]t standings ID[/bold] classifica",
    "Cannot sit at your tournament table {table}: {message}":
        "Non puoi sederti al tuo tavolo del torneo {table}: {message}",
    "Finished tournaments": "Tornei finiti",
    "No tournament has finished yet.": "Nessun torneo è ancora finito.",
    "No tournament is open: see the finished ones with t done.":
        "Nessun torneo aperto: quelli finiti con t done.",
    "No tournament is open: the finished ones are below.": "Nessun torneo aperto: quelli finiti sono qui sotto.",
    "Started: round 1 is paired.": "Avviato: il primo turno è abbinato.",
    "Tournament {id}, round {n}: you sit at table {table}, seat {seat}, against {who}.":
        "Torneo {id}, turno {n}: sei al tavolo {table}, posto {seat}, contro {who}.",
    "Tournament {id}: round {n} is paired.": "Torneo {id}: il turno {n} è abbinato.",
    "Tournament {id}: {what} after round {n}": "Torneo {id}: {what} dopo il turno {n}",
    "Tournaments": "Tornei",
    "W-D-L": "V-P-S",
    "You are no longer registered.": "Iscrizione ritirata: non giochi più questo torneo.",
    "You are registered: the server seats you at your table when a round begins.":
        "Iscrizione fatta: a ogni turno il server ti fa sedere al tuo tavolo.",
    "byes": "riposi",
    "entrant": "partecipante",
    "entrants": "iscritti",
    "final standings": "classifica finale",
    "game": "gioco",
    "game points": "punti partita",
    "id": "id",
    "name": "nome",
    "standings": "classifica",
    "registering": "iscrizioni aperte",
    "running": "in corso",
    "at round {n}": "al turno {n}",
    "which tournament? e.g. t {action} c1": "quale torneo? per esempio t {action} c1",
    "{word}: not a tournament command.": "{word}: non è un comando dei tornei.",
    # a round that gives us no table (both terminal clients)
    "You are out: beaten by {by} in round {n} of '{name}'. Final place: {place}.":
        "Sei fuori: ti ha battuto {by} al turno {n} di '{name}'. Posto finale: {place}.",
    "A bye in round {n} of '{name}': {points} point(s) without playing. The next round is awaited.":
        "Riposi al turno {n} di '{name}': {points} punto/i senza giocare. Si aspetta il turno successivo.",
    "'{name}' is over: you won it!": "'{name}' è finito: l'hai vinto tu!",
    "'{name}' is over. Final place: {place}.": "'{name}' è finito. Posto finale: {place}.",
    # the full-screen client's tournaments
    "tournaments": "tornei",
    "join ID · leave ID · start ID": "join ID iscriviti · leave ID ritirati · start ID avvia",
    "Enter: do it · Esc: back": "Invio: fallo · Esc: indietro",
    "Type join, leave or start and a tournament's id, e.g. join c1.":
        "Scrivi join, leave o start e l'id di un torneo, per esempio join c1.",
    "Tournament {id}: {phase}, {n}/{cap} entrants.": "Torneo {id}: {phase}, {n}/{cap} iscritti.",
    "Waiting for a game of {preset}: {others} other(s) waiting…":
        "Si aspetta una partita di {preset}: {others} in attesa oltre a te…",
    "No tables yet: create one with c.": "Ancora nessun tavolo: aprine uno con c.",
    "Tables": "Tavoli",
    "({n} away)": "({n} assenti)",
    "(1 away)": "(1 assente)",
    "{name} is not a bot; choose from: {bots} (or leave it blank)":
        "{name} non è un bot; scegli tra: {bots} (o lascia vuoto)",
    "only 1 seat to fill, {n} bots named": "solo 1 posto da riempire, {n} bot nominati",
    "Spectators read the table's chat but do not write in it.":
        "Chi guarda legge le chiacchiere del tavolo ma non vi scrive.",
    "only {seats} seats to fill, {n} bots named": "solo {seats} posti da riempire, {n} bot nominati",
    "options are NAME=VALUE, e.g. re_bello=true; {item} is not":
        "le opzioni sono NOME=VALORE, per esempio re_bello=true; {item} non lo è",
    "Could not get back to the server: it does not answer.": "Impossibile tornare al server: non risponde.",
    "Lobby> ": "Sala> ",
    "Table id: ": "Numero del tavolo: ",
    "{line}: not a lobby command.": "{line}: non è un comando della sala.",
    "{name} is not a preset; try one of: {presets}": "{name} non è un gioco; prova uno di: {presets}",
    "The server refused: {message}": "Il server ha rifiutato: {message}",
    "Let's try again.": "Riproviamo.",
    "Rules: {rules}": "Regole: {rules}",
    "Other options (NAME=VALUE …, e.g. re_bello=true) [none]: ":
        "Altre opzioni (NOME=VALORE …, per esempio re_bello=true) [nessuna]: ",
    "Capture mode": "Regola di presa",
    "Target": "Traguardo",
    "choose one of {choices}, or Enter for {default}": "scegli tra {choices}, o Invio per {default}",
    "Bot for the other seat: {bots}; blank = wait for a person.":
        "Bot per l'altro posto: {bots}; vuoto = aspetta una persona.",
    "Bots for the {n} other seats: {bots}; one name fills them all; blank = wait for people.":
        "Bot per gli altri {n} posti: {bots}; un nome li riempie tutti; vuoto = aspetta le persone.",
    "Bots [none]: ": "Bot [nessuno]: ",
    "Cannot join table {table}: {message}": "Non puoi sederti al tavolo {table}: {message}",
    "You won!": "Hai vinto!",
    "You lost.": "Hai perso.",
    "Back in the lobby.": "Di nuovo nella sala.",
    "Watching table {table}: {rules}": "Guardi il tavolo {table}: {rules}",
    "seat {n}": "posto {n}",
    "side {n}": "parte {n}",
    "takes {cards}": "prende {cards}",
    "{who} plays {card}": "{who} gioca {card}",
    "no winner": "nessun vincitore",
    "Waiting for {who} to come back": "Si aspetta che torni {who}",
}


CONNECTION_ITALIAN: dict[str, str] = {
    # a turn clock from a server that does not say its reading time
    "Turn timer: {time} for each move; then the server plays for you.": "Tempo per mossa: {time}; poi gioca il server per te.",
    "time for each move; when it runs out, the server plays a card for that player":
        "il tempo per ogni mossa; quando scade, il server gioca una carta al posto di chi è di turno",
    "While you were away the bot played: {cards}": "Mentre eri via il bot ha giocato: {cards}",
    "You were away too long: a bot played in your place.": "Eri via da troppo tempo: un bot ha giocato al tuo posto.",
    "The bot played for you": "Il bot ha giocato per te",
    "New table {table}: {rules}; seated {n}/{seats}: {who}. Join it with j {table}.":
        "Nuovo tavolo {table}: {rules}; seduti {n}/{seats}: {who}. Per sederti: j {table}.",
    "nobody yet": "ancora nessuno",
    "Said at the table so far:": "Detto al tavolo finora:",
    "Table {table} is full: its game starts.": "Il tavolo {table} è al completo: la partita comincia.",
    "Table {table}: {who} sits down ({n}/{seats}).": "Tavolo {table}: si siede {who} ({n}/{seats}).",
    "Table {table}: {who} sit down ({n}/{seats}).": "Tavolo {table}: si siedono {who} ({n}/{seats}).",
    "You are back at your seat: now you play again.": "Sei di nuovo al tuo posto: ora riprendi tu.",
    "{card} (scopa)": "{card} (scopa)",
    "You left the game at table {table}: a bot plays your seat.":
        "Hai lasciato la partita al tavolo {table}: al tuo posto gioca un bot.",
    "You left the game at table {table}: it ended there, with no winner.":
        "Hai lasciato la partita al tavolo {table}: è finita lì, senza vincitori.",
    "You left table {table}.": "Hai lasciato il tavolo {table}.",
    "Round {n} has begun.": "È iniziata la smazzata {n}.",
    "Your turn: you have {time} left for your next move.": "Tocca a te: hai ancora {time} per la prossima mossa.",
    "If the time runs out, the server plays a card for you and the game goes on.":
        "Se il tempo finisce, il server gioca una carta al posto tuo e la partita va avanti.",
    "{name} to play: {time} left for the move.": "Tocca a {name}: restano {time} per la mossa.",
    "{time} left for the move.": "Restano {time} per la mossa.",
    # the name to play under: asked, or given with --name
    "{typed} cannot be a name: a name has no spaces": "{typed} non può essere un nome: un nome non ha spazi",
    "{typed} cannot be a name: a name has 1 to 24 letters (accented ones too), digits, '.', '_' or '-'":
        "{typed} non può essere un nome: un nome ha da 1 a 24 caratteri tra lettere (anche accentate), cifre, "
        "'.', '_' e '-'",
    "{first} or {second}": "{first} o {second}",
    "{problem}. Try {offer}.": "{problem}. Prova {offer}.",
    "Your name at the tables (Enter: {name}): ": "Il tuo nome ai tavoli (Invio: {name}): ",
    "Your name at the tables": "Il tuo nome ai tavoli",
    "Letters (accented ones too), digits, . _ -, at most 24, no spaces. Enter: play · Esc: leave":
        "Lettere (anche accentate), cifre, . _ -, al massimo 24, senza spazi. Invio: gioca · Esc: esci",
    "Letters (accented ones too), digits, . _ -, at most 24, no spaces. Enter: watch · Esc: leave":
        "Lettere (anche accentate), cifre, . _ -, al massimo 24, senza spazi. Invio: guarda · Esc: esci",
    # the seat a plain client keeps, and what happens at its table
    "Go back to it? (y/n) [y]: ": "Vuoi tornarci? (s/n) [s]: ",
    "You are back at table {table}, seat {seat}: the game goes on.":
        "Sei di nuovo al tavolo {table}, posto {seat}: la partita continua.",
    "{name} sits down at seat {seat}.": "{name} si siede al posto {seat}.",
    "{name} left the table.": "{name} ha lasciato il tavolo.",
    # the plain client's move prompt: what one can type there besides a move
    "? lists what you can type here.": "? elenca cosa puoi scrivere qui.",
    "At the prompt you can type:": "Al prompt puoi scrivere:",
    "a move's number, or its card as shown (7d, 7 Den): play it":
        "il numero di una mossa, o la sua carta come la vedi (7d, 7 Den): la giochi",
    "? or aiuto: this list": "? o aiuto: questo elenco",
    "!text or chat text: say text to the table": "!testo o scrivi testo: dici testo al tavolo",
    "esci or q: leave the game (you are asked first)": "esci o q: lascia la partita (prima ti viene chiesto)",
    "Ctrl+C: close the client at once": "Ctrl+C: chiude subito il programma",
    "Type the words after the !, e.g. !ciao a tutti": "Scrivi le parole dopo il !, per esempio !ciao a tutti",
    "(y/n) [n]: ": "(s/n) [n]: ",
    "Leaving the table…": "Lasci il tavolo…",
    "You stay at the table.": "Resti al tavolo.",
    "The connection to the server was lost.": "La connessione al server si è interrotta.",
    "Connection to the server lost: retrying…": "Connessione al server persa: riprovo…",
    "Connected again.": "Di nuovo connesso.",
    "No server answers at {address}: is the address right, and is the server (scopa serve) on?":
        "Nessun server risponde a {address}: l'indirizzo è giusto, e il server (scopa serve) è acceso?",
    "{address} does not answer: check the address and the network.":
        "{address} non risponde: controlla l'indirizzo e la rete.",
    "No computer is called {host}: check the address.": "Nessun computer si chiama {host}: controlla l'indirizzo.",
    "The server at {address} does not use TLS: connect to {address} without tls://.":
        "Il server a {address} non usa TLS: collegati a {address} senza tls://.",
    "The server at {address} uses TLS: connect to tls://{address}.":
        "Il server a {address} usa TLS: collegati a tls://{address}.",
    "{address} cannot be reached: check the network and the address.":
        "{address} non si raggiunge: controlla la rete e l'indirizzo.",
    "Looking for Scopa servers on this network…": "Cerco server di Scopa su questa rete…",
    "No Scopa server answered on this network within {seconds} s, nor on this computer. Host one with "
    "\"scopa serve --host 0.0.0.0\", or give the address of one: --server HOST:PORT":
        "Nessun server di Scopa ha risposto su questa rete in {seconds} s, né su questo computer. Avviane uno con "
        "\"scopa serve --host 0.0.0.0\", o indica l'indirizzo di uno: --server HOST:PORTA",
    "No server chosen; give one with --server HOST:PORT": "Nessun server scelto; indicane uno con --server HOST:PORTA",
    "Scopa servers on this network:": "Server di Scopa su questa rete:",
    "Several Scopa servers on this network; choose one with --server HOST:PORT:":
        "Più server di Scopa su questa rete; scegline uno con --server HOST:PORTA:",
    "Which one (1-{n}, Enter for none)? ": "Quale (1-{n}, Invio per nessuno)? ",
    "Type a number from 1 to {n}": "Scrivi un numero da 1 a {n}",
    "1 open table": "1 tavolo aperto",
    "{n} open tables": "{n} tavoli aperti",
    "1 player": "1 giocatore",
    ", web {address}": ", web {address}",
    " (protocol {n}: cannot be joined with this client)": " (protocollo {n}: questo client non può entrarci)",
    "{address} is not a server address: write HOST:PORT, e.g. 192.168.1.20:7000":
        "{address} non è l'indirizzo di un server: scrivi HOST:PORTA, per esempio 192.168.1.20:7000",
    "--wait must be more than 0 seconds": "--wait deve essere più di 0 secondi",
    "$SCOPA_PASSWORD must be 8-200 characters": "$SCOPA_PASSWORD deve avere da 8 a 200 caratteri",
    "--games must be at least 1": "--games deve essere almeno 1",
    "Connected to {address} as {name}.": "In linea con {address} come {name}.",
    "connection lost; reconnecting…": "connessione persa; mi ricollego…",
    "reconnected": "di nuovo in linea",
    "reconnected: back in table {table} as {name}": "di nuovo in linea: di nuovo al tavolo {table} come {name}",
    "reconnected: back in the lobby": "di nuovo in linea: di nuovo nella sala",
    "the server refused ({code}: {message}); connecting again in {seconds} s":
        "il server ha rifiutato ({code}: {message}); mi ricollego tra {seconds} s",
}


OPERATOR_ITALIAN: dict[str, str] = {
    # the start line, in parts
    "Scopa server on {address}": "Server di Scopa su {address}",
    ", games journaled to {db}": ", partite registrate in {db}",
    ", in the cluster at {url} as {member}": ", nel gruppo di server di {url} come {member}",
    ", announced on the LAN as {name}": ", annunciato sulla rete locale come {name}",
    ", {loop} (Ctrl-C to stop)": ", {loop} (Ctrl-C per fermarlo)",
    "on uvloop": "con uvloop",
    "on asyncio's loop": "con il ciclo di asyncio",
    # the browser's page
    "Open: {url}": "Apri: {url}",
    "Point a phone's camera at this to open {url}:": "Inquadra questo codice con la fotocamera del telefono per aprire {url}:",
    # stopping, or not starting
    "server stopped": "server fermato",
    "cannot use the journal {db}: {error}": "impossibile usare il registro {db}: {error}",
    "cannot serve on {address}: {error}": "impossibile servire su {address}: {error}",
    "cannot use the database {db}: {error}": "impossibile usare il database {db}: {error}",
    "--metrics web: give --web PORT too": "--metrics web: indica anche --web PORTA",
    "--metrics: give HOST:PORT (e.g. 127.0.0.1:9715) or web, not {value}":
        "--metrics: indica HOST:PORTA (per esempio 127.0.0.1:9715) o web, non {value}",
    "--accounts needs --db: the accounts are kept in the database":
        "--accounts richiede --db: gli account si tengono nel database",
    "--advertise is for a cluster member: give --cluster too":
        "--advertise è per un server di un gruppo: indica anche --cluster",
    "--cluster needs the redis package: pip install 'scopa[cluster]'":
        "--cluster richiede il pacchetto redis: pip install 'scopa[cluster]'",
    "--cluster: give --advertise HOST:PORT, the address clients reach this server at (it listens on {host})":
        "--cluster: indica --advertise HOST:PORTA, l'indirizzo a cui i client raggiungono questo server "
        "(ascolta su {host})",
    "--cluster-web-port is for a cluster member (give --cluster), instead of --web":
        "--cluster-web-port è per un server di un gruppo (indica --cluster), al posto di --web",
    "--loop uvloop needs the uvloop package: pip install 'scopa[fast]'":
        "--loop uvloop richiede il pacchetto uvloop: pip install 'scopa[fast]'",
    # TLS
    "TLS with a self-signed certificate ({cert}), SHA-256 fingerprint {fingerprint}":
        "TLS con un certificato autofirmato ({cert}), impronta SHA-256 {fingerprint}",
    "TLS with the certificate {cert}, SHA-256 fingerprint {fingerprint}":
        "TLS con il certificato {cert}, impronta SHA-256 {fingerprint}",
    "--tls self-signed and --tls-cert/--tls-key: give one or the other":
        "--tls self-signed e --tls-cert/--tls-key: indica l'uno o gli altri",
    "--tls-cert and --tls-key go together: give both": "--tls-cert e --tls-key vanno insieme: indicali entrambi",
    "--allow-plain-secrets is for a server without TLS": "--allow-plain-secrets è per un server senza TLS",
    "cannot use the TLS certificate ({which}): {error}": "impossibile usare il certificato TLS ({which}): {error}",
    "{cert} with its key {key}": "{cert} con la sua chiave {key}",
    "--accept-certificate: {error}": "--accept-certificate: {error}",
}


ARCHIVE_ITALIAN: dict[str, str] = {
    # the replay viewer: its last step, its keys
    "End of the game · step {i}/{steps} — {result}": "Fine della partita · passo {i}/{steps} — {result}",
    "keys": "tasti",
    # a server's finished games and its leaderboard (scopa games, scopa leaderboard)
    "{who} won {totals} ({reason})": "vince {who} {totals} ({reason})",
    "{both} won {totals} ({reason})": "vincono {both} {totals} ({reason})",
    "a bot for {name}": "un bot al posto di {name}",
    "you left the game; {result}": "hai lasciato la partita; {result}",
    "{who} left the game; {result}": "{who} ha lasciato la partita; {result}",
    "{both} left the game; {result}": "{both} hanno lasciato la partita; {result}",
    "The game at table {table} is over.": "La partita al tavolo {table} è finita.",
    "Every game here is over (w on one shows how it ended): press c to create a table.":
        "Qui le partite sono tutte finite (w su una dice com'è andata): premi c per aprire un tavolo.",
    "The game at table {table} is over: {result}.": "La partita al tavolo {table} è finita: {result}.",
    "scopa games lists it, and scopa replay {table} --server {server} shows it again step by step.":
        "La trovi con scopa games, e scopa replay {table} --server {server} la fa rivedere passo per passo.",
    "(private)": "(privata)",
    "no finished games": "nessuna partita finita",
    "1 spectator": "1 spettatore",
    "{n} spectators": "{n} spettatori",
    "{key}: unknown key — ? for help": "{key}: tasto sconosciuto — ? per l'aiuto",
    "The clock waits for the connection.": "Il tempo è fermo finché non torna la connessione.",
    "the game was played at a private table, which only its players see: give --token TOKEN (a seat token of that "
    "table), or ask as the user who played it with scopa play (its tokens are kept in --state-dir)":
        "la partita è di un tavolo privato, che vedono solo i suoi giocatori: dai --token TOKEN (un token di posto "
        "di quel tavolo), oppure chiedila come l'utente che ci ha giocato con scopa play (i suoi token sono in "
        "--state-dir)",
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


LOG_ITALIAN: dict[str, str] = {
    # the server's log lines as scopa serve shows them in text (scopa/cli/serverlog.py; the JSON log stays English)
    "operator token written to %s": "token dell'operatore scritto in %s",
    "listening on %s:%s%s": "in ascolto su %s:%s%s",
    "listening on %s:%s too, with the cluster's other members on this host":
        "in ascolto anche su %s:%s, con gli altri membri del cluster su questa macchina",
    "web page on %s://%s:%s/ (WebSocket /ws)": "pagina web su %s://%s:%s/ (WebSocket /ws)",
    "metrics on http://%s:%s/metrics (and /healthz, /readyz)": "metriche su http://%s:%s/metrics (e /healthz, /readyz)",
    "made a self-signed certificate in %s": "creato un certificato autofirmato in %s",
    "announced on the LAN as %r": "annunciato sulla rete locale come %r",
    "the LAN announcement failed: %s": "l'annuncio sulla rete locale non è riuscito: %s",
    "no LAN address to announce: this server is not announced":
        "nessun indirizzo di rete locale da annunciare: questo server non viene annunciato",
    "tournament %s created by %s: %s": "torneo %s creato da %s: %s",
    "%d tournaments restored from the journal": "%d tornei ripristinati dal registro",
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
    "table %s: %s disconnected (%s)": "tavolo %s: connessione di %s persa (%s)",
    "table %s: game started (%s) with %s": "tavolo %s: partita iniziata (%s) con %s",
    "table %s: game finished, winner side %s, totals %s (%s)":
        "tavolo %s: partita finita, vince la parte %s, totali %s (%s)",
    "table %s: game abandoned (%s)": "tavolo %s: partita interrotta (%s)",
    "table %s: game abandoned (%s left)": "tavolo %s: partita interrotta (l'ha lasciata %s)",
    "table %s: game abandoned (seat %s did not come back)": "tavolo %s: partita interrotta (il posto %s non è tornato)",
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
    "connection %s is %s (client %r)": "la connessione %s è di %s (client %r)",
    "connection %s resumes seat %s of table %s as %s": "la connessione %s riprende il posto %s del tavolo %s come %s",
    "connection %s: seat %s of table %s resumed too often; retry in %.1f s":
        "connessione %s: il posto %s del tavolo %s ripreso troppe volte; si riprova tra %.1f s",
    "table %s: seat %s refused %s times; the game master plays":
        "tavolo %s: il posto %s ha sbagliato mossa %s volte; gioca il server al suo posto",
}

LOG_WORDS: dict[str, str] = {
    # the server's own words put in its log lines (why a game was abandoned), not words of the protocol
    "closed by the operator": "chiusa dall'operatore",
    "internal_error": "errore interno del server",
    "the journal did not store its start": "il registro non ne ha salvato l'inizio",
}

LOG_COUNTED: dict[str, tuple[int, ...]] = {
    # the arguments of a log line that number a seat or a side from 0: the text log counts them from 1,
    # as the clients say "seat 1" (the JSON log keeps the server's numbers)
    "table %s: %s sits at seat %s": (2,),
    "table %s: game finished, winner side %s, totals %s (%s)": (1,),
    "table %s: seat %s (%s) is away; waiting %ss": (1,),
    "table %s: seat %s (%s) is back": (1,),
    "table %s: seat %s (%s) left the game": (1,),
    "table %s: seat %s (%s) did not come back in %ss": (1,),
    "table %s: seat %s (%s) did not come back in %ss; it is free again": (1,),
    "table %s: a bot takes seat %s (%s)": (1,),
    "table %s: seat %s (%s) is played by its person again": (1,),
    "table %s: seat %s refused %s times; the game master plays": (1,),
    "table %s: game abandoned (seat %s did not come back)": (1,),
    "connection %s resumes seat %s of table %s as %s": (1,),
    "connection %s: seat %s of table %s resumed too often; retry in %.1f s": (1,),
}

LOG_RULES: dict[str, int] = {"table %s: game started (%s) with %s": 1, "table %s created by %s: %s": 2,
                             "table %s opened by the server: %s": 1}
"""The log lines with a table's rules as ``RuleSet.describe`` gives them, and which argument they are."""

LOG_REASON = "table %s: game finished, winner side %s, totals %s (%s)"
"""The log line whose last argument is why the game ended, as its word's key (``target``)."""


# The full-screen client's game-over box (each side's points by category, a rematch, another game
# against the same bots), its lobby at a narrow width and `scopa watch`'s name box (keys sorted).
# The plain lobby and its form that opens a table: the table's own settings (private, the turn timer, its invite).
LOBBY_ITALIAN: dict[str, str] = {
    "A private table is not listed in the lobby: you get an invite to pass on.":
        "Un tavolo privato non compare nella sala: ricevi un invito da passare a chi vuoi.",
    "A private table: pass on its invite,": "Un tavolo privato: passa il suo invito,",
    "Private table? (y/n) [n]: ": "Tavolo privato? (s/n) [n]: ",
    "Time per move [{default}]: ": "Tempo per mossa [{default}]: ",
    "Time per move: {range}": "Tempo per mossa: {range}",
    "Your friends run:": "I tuoi amici lanciano:",
    "a turn timer is a time from {range}, e.g. 0:30; {text} is not":
        "il tempo per mossa va {range}, per esempio 0:30; {text} non lo è",
    "abandoned": "abbandonata",
    "answer y (yes) or n (no)": "rispondi s (sì) o n (no)",
    "e.g. {times}": "per esempio {times}",
    "none: no timer at all": "nessuno: senza tempo",
    "or open in a browser:": "oppure aprono nel browser:",
    "private": "privato",
    "{low} to {high}": "da {low} a {high}",
    "{name} is not a rule of the game: whether the table is private and its turn timer are the next questions":
        "{name} non è una regola del gioco: tavolo privato e tempo per mossa sono le prossime domande",
    "{name} is not an option of the rules (scopa options lists them)":
        "{name} non è un'opzione delle regole (scopa options le elenca)",
}


TUI_ITALIAN: dict[str, str] = {
    "A bot plays for {names}, who left the game or did not come back.":
        "Per {names} gioca un bot: ha lasciato la partita o non è tornato in tempo.",
    "A game already played, shown step by step: the keys below move through it; nothing is played here.":
        "Una partita già giocata, mostrata passo per passo: i tasti qui sotto la percorrono; qui non si gioca.",
    "Back at table {table}, as it stands now: one play was made meanwhile, and it ended the round.":
        "Di nuovo al tavolo {table}, com'è adesso: nel frattempo c'è stata una giocata, e ha chiuso la smazzata.",
    "Back at table {table}, as it stands now: {n} plays were made meanwhile, and a round ended.":
        "Di nuovo al tavolo {table}, com'è adesso: nel frattempo ci sono state {n} giocate ed è finita una smazzata.",
    "Back at table {table}: when you came back, nothing had been played yet in this round.":
        "Di nuovo al tavolo {table}: al tuo ritorno, in questa smazzata non si era ancora giocato.",
    "Enter (or any key but a number) to go on": "Invio (o un tasto qualsiasi, ma non un numero) per continuare",
    "Enter: play as {name}": "Invio: giochi come {name}",
    "Enter: watch as {name}": "Invio: guardi come {name}",
    "Final score": "Punteggio finale",
    "Leave Scopa?": "Vuoi uscire da Scopa?",
    "Narrow window, columns left out: {columns} (? for the rules).":
        "Finestra stretta, colonne nascoste: {columns} (? per le regole).",
    "Points by category": "Punti per categoria",
    "Reconnecting to table {table}: the game as it stands is on its way…":
        "Riconnessione al tavolo {table}: arriva la partita com'è adesso…",
    "Rounds not seen here": "Smazzate non viste qui",
    "Stop watching table {table} and go back to the lobby?": "Smetti di guardare il tavolo {table} e torni alla sala?",
    "Stop watching table {table} and leave?": "Smetti di guardare il tavolo {table} ed esci?",
    "Table {table} is full: {key} watches its game.": "Il tavolo {table} è pieno: con {key} guardi la sua partita.",
    "Table {table} is open: a rematch of table {old}.": "Il tavolo {table} è aperto: la rivincita del tavolo {old}.",
    "The game at table {old} is over: its invite took you to its rematch, table {table}, seat {seat}.":
        "La partita al tavolo {old} è finita: il suo invito ti ha portato alla rivincita, tavolo {table}, posto {seat}.",
    "The game at that invite's table is over, and no rematch of it waits for players (a rematch that waits takes in "
    "whoever holds this invite): ask the table's host for a new invite.":
        "La partita al tavolo di quell'invito è finita e nessuna rivincita aspetta giocatori (una rivincita in attesa "
        "accoglie chi ha questo invito): chiedi un nuovo invito a chi ha aperto il tavolo.",
    "The game is over: this was its last round. Enter (or any letter) shows the result.":
        "La partita è finita: questa era l'ultima smazzata. Invio (o una lettera) mostra il risultato.",
    "The game replayed": "La partita rivista",
    "The game was abandoned with the score at {score}. Nobody wins.":
        "La partita è stata abbandonata sul {score}. Nessuno vince.",
    "The game was abandoned. Nobody wins.": "La partita è stata abbandonata. Nessuno vince.",
    "The game was abandoned: {name} left it, with the score at {score}. Nobody wins.":
        "La partita è stata abbandonata: {name} l'ha lasciata sul {score}. Nessuno vince.",
    "The game was abandoned: {name} left it. Nobody wins.":
        "La partita è stata abbandonata: {name} l'ha lasciata. Nessuno vince.",
    "The players see how many watch their table, not who: your name is only for the server. Left empty, you watch "
    "as {name}.":
        "I giocatori vedono quanti guardano il loro tavolo, non chi: il nome serve solo al server. Se lo lasci "
        "vuoto, guardi come {name}.",
    "Waiting for a game of {preset}: {others} other(s) waiting… Esc (or p) stops waiting.":
        "Si aspetta una partita di {preset}: {others} in attesa oltre a te… Esc (o di nuovo p) smette di aspettare.",
    "Watching table {table}: the rematch of table {old}.": "Guardi il tavolo {table}: la rivincita del tavolo {old}.",
    "While you were away your time ran out: the server played {cards} for you.":
        "Mentre eri via il tuo tempo è scaduto: il server ha giocato {cards} per te.",
    "You have only 1 card in hand.": "Hai solo 1 carta in mano.",
    "You have only {n} cards in hand.": "Hai solo {n} carte in mano.",
    "You lose {score} to {who}{how}.": "Hai perso {score} contro {who}{how}.",
    "You stopped waiting for a quick game.": "Non aspetti più una partita veloce.",
    "Your team loses {score} to {who}{how}.": "La tua squadra ha perso {score} contro {who}{how}.",
    "Your team wins{how}, {score}.": "La tua squadra ha vinto{how}, {score}.",
    "Your turn": "Tocca a te",
    "expert": "esperto",
    "greedy": "avido",
    "local game": "partita locale",
    "play again": "gioca ancora",
    "play again against bots ({names} left the game)": "gioca ancora contro dei bot ({names} ha lasciato la partita)",
    "play again against the same bots": "gioca ancora contro gli stessi bot",
    "random": "casuale",
    "rematch: a new table for the same players": "rivincita: un nuovo tavolo per gli stessi giocatori",
    "stock": "mazzo",
    "stop waiting": "smetti di aspettare",
    "watch the rematch, at table {table}": "guarda la rivincita, al tavolo {table}",
    "{card} and took {cards}": "{card} e ha preso {cards}",
    "{earlier}; then {later}": "{earlier}; poi {later}",
    "{game} to {target}": "{game} a {target}",
    "{name} disconnected: unless {name} returns, a bot takes the seat when the time on its row runs out.":
        "Connessione persa per {name}: se non torna al tavolo, un bot prende il posto quando finisce il tempo "
        "nella sua riga.",
    "{name} proposes a rematch: play it": "{name} propone la rivincita: giocala",
    "{name}'s turn": "Tocca a {name}",
    "{name}'s turn: press {keys}, click a card, or / to type one. ? help":
        "Tocca a {name}: premi {keys}, fai clic su una carta o scrivine una con /. ? aiuto",
    "{n} free": "{n} liberi",
    "{who}: press {keys} or click a card": "{who}: premi {keys} o fai clic su una carta",
    "↑↓: the whole score": "↑↓: tutto il punteggio",
}
