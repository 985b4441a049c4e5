"""The terminal client's Italian: every string it shows, by its English (a
``str.format`` template keeps its ``{names}``).  One home: :func:`scopa.client.text.i18n.tr`
reads it, and a test fails when a string given to ``tr`` is missing here."""

from __future__ import annotations

import json
from importlib.resources import files

from .clubwords import ARCHIVE_ITALIAN, CLUB_ITALIAN, CONNECTION_ITALIAN, LOBBY_ITALIAN, OPERATOR_ITALIAN, TUI_ITALIAN

ITALIAN: dict[str, str] = {
    # the board
    "You": "Tu",
    "Player {n}": "Giocatore {n}",
    "seed {seed}": "mescolata n. {seed}",
    "Table": "Tavola",
    "Your hand": "La tua mano",
    "{who}'s hand": "La mano di {who}",
    "(the table is empty)": "(la tavola è vuota)",
    "(no cards in hand)": "(nessuna carta in mano)",
    "Chat": "Chiacchiere",
    "type a card": "scrivi una carta",
    "play": "gioca",
    "back": "indietro",
    "chat": "scrivi",
    "leave": "esci",
    "help": "aiuto",
    "stop watching": "smetti di guardare",
    "a card, e.g. 7 Den or 7d; Esc to cancel": "una carta, per esempio 7 Den o 7d; Esc per annullare",
    "say something to the table; Enter sends, Esc closes": "scrivi qualcosa al tavolo; Invio invia, Esc chiude",
    "Your turn: press {keys}, click a card, or / to type one. ? help":
        "Tocca a te: premi {keys}, fai clic su una carta o scrivine una con /. ? aiuto",
    "{time} left, then the server plays for you.": "ancora {time}, poi gioca il server per te.",
    "Your move,": "La tua mossa,",
    ", is kept: it is played when the connection is back.": ", è tenuta da parte: si gioca quando torna la connessione.",
    "Your last card,": "La tua ultima carta,",
    ", was played for you.": ", è stata giocata per te.",
    ", cannot be played now: the table changed while the connection was down. Choose again.":
        ", ora non si può giocare: la tavola è cambiata mentre la connessione era caduta. Scegli di nuovo.",
    "{card} cannot be played now.": "{card} ora non si può giocare.",
    "Click it again, press Enter, or click a lit table card.":
        "Fai di nuovo clic, premi Invio o fai clic su una carta illuminata della tavola.",
    "Click it again or press Enter to lay it down:": "Fai di nuovo clic o premi Invio per calarla:",
    "Not allowed: {error}": "Non si può: {error}",
    # the panels
    "to {n}": "a {n}",
    "round {n}": "smazzata {n}",
    "stock {n}": "mazzo {n}",
    "dealer": "mazziere",
    "to play": "di turno",
    "{time} left": "ancora {time}",
    "1 card": "1 carta",
    "{n} cards": "{n} carte",
    "pile": "prese",
    "cards": "carte",
    "den": "den",
    "prim": "prim",
    "scope": "scope",
    "takes": "prende",
    "or": "oppure",
    "lays down": "si cala",
    "declare {what}": "dichiara {what}",
    "(7 of Coppe as {n})": "(7 di Coppe come {n})",
    "This round": "Questa smazzata",
    "no plays yet": "ancora nessuna giocata",
    "time ran out": "tempo scaduto",
    "away": "assente",
    "away, a bot in {time}": "assente, un bot tra {time}",
    # what happens
    "Round {n}: ": "Smazzata {n}: ",
    "You deal.": "dai tu le carte.",  # after "Smazzata {n}: "
    "{who} deals.": "dà le carte {who}.",
    "The table adds up to {total}: {n} scopa(e) for the dealer.":
        "La tavola fa {total}: {n} scopa/e per il mazziere.",
    "Three or more kings on the table: the deal is void and dealt again.":
        "Tre o più Re in tavola: la smazzata non vale e si ridà.",
    "Your time ran out: the server played": "Il tuo tempo è scaduto: il server ha giocato",
    "and took": "e ha preso",
    ", taking": ", prendendo",
    "for you.": "per te.",
    "You play": "Giochi",
    "{who} plays": "{who} gioca",
    "and take": "e prendi",
    "and takes": "e prende",
    "on the table": "in tavola",
    "(time ran out: the server played for them)": "(tempo scaduto: ha giocato il server)",
    "(played for them)": "(giocata per lui)",
    "You declare {what}: ": "Dichiari {what}: ",
    "{who} declares {what}: ": "{who} dichiara {what}: ",
    "Round {n} is over.": "La smazzata {n} è finita.",
    "Round {n}": "Smazzata {n}",
    "Round points": "Punti della smazzata",
    "Game": "Partita",
    "Game (to {target})": "Partita (a {target})",
    "no suit": "manca un seme",
    "nothing": "niente",
    "The game ended without a winner ({reason}); {score}.": "La partita è finita senza vincitori ({reason}); {score}.",
    "You win{how}, {score}.": "Hai vinto{how}, {score}.",
    "{who} win{how}, {score}.": "Vincono {who}{how}, {score}.",
    "{who} wins{how}, {score}.": "Vince {who}{how}, {score}.",
    "with the Asso, 2 and 3 of Denari": "con l'Asso, il 2 e il 3 di Denari",
    "with all ten Denari": "con tutti e dieci i Denari",
    "{score}: the highest totals are level at or over {target}, so nobody has won yet and another round is played.":
        "{score}: i totali più alti sono pari e arrivano ad almeno {target}, quindi non ha ancora vinto nessuno e "
        "si gioca un'altra smazzata.",
    "Bot {n}": "Bot {n}",
    "Bot {n} ({level})": "Bot {n} ({level})",
    "{name} left: a bot plays the seat for the rest of the game.":
        "{name} ha lasciato la partita: da ora il posto lo gioca un bot.",
    "Leave the game? You are the last person at the table: the game ends at once for everyone, with no winner.":
        "Lasci la partita? Sei l'ultima persona al tavolo: la partita finisce subito per tutti, senza vincitore.",
    "Leave the game? It ends here, with no winner: nobody else plays at this table.":
        "Lasci la partita? Finisce qui, senza vincitori: a questo tavolo non gioca nessun altro.",
    "Leave the game? A bot plays your seat for the rest of the game; you cannot come back to it.":
        "Lasci la partita? Da ora il tuo posto lo gioca un bot; non potrai riprenderlo.",
    "Leave the game? It ends for everyone, with no winner: this table was made to end when a player leaves.":
        "Lasci la partita? Finisce per tutti, senza vincitori: questo tavolo è stato creato per finire quando "
        "qualcuno se ne va.",
    "Leave the game? A bot plays your seat for the rest of the game (or, at a table made to end when a player "
    "leaves, the game ends for everyone).":
        "Lasci la partita? Da ora il tuo posto lo gioca un bot (o, a un tavolo creato per finire quando qualcuno "
        "se ne va, la partita finisce per tutti).",
    "{name} is back.": "Di nuovo al tavolo: {name}.",
    "You were away too long, so a bot played in your place; now you play again.":
        "Eri via da troppo tempo, così un bot ha giocato al tuo posto; ora riprendi tu.",
    "{name} (bot)": "{name} (bot)",
    "{name} disconnected; the table waits for them.": "Connessione persa per {name}; il tavolo aspetta.",
    "{name} disconnected — a bot takes the seat in {time} unless {name} returns.":
        "Connessione persa per {name}: tra {time} un bot prende il posto, se {name} non torna al tavolo.",
    "{name} did not come back: a bot plays the seat for the rest of the game.":
        "Nessun ritorno di {name}: da ora il posto lo gioca un bot.",
    "your declaration": "la tua dichiarazione",
    "Your move, {what}, is played again: the connection dropped as it was sent.":
        "La tua mossa, {what}, viene giocata di nuovo: la connessione è caduta mentre partiva.",
    "Back at table {table}, as it stands now: nothing was played meanwhile.": "Di nuovo al tavolo {table}, com'è adesso: nel frattempo non si è giocato niente.",
    "Back at table {table}, as it stands now: the play you did not see is in this round's list.":
        "Di nuovo al tavolo {table}, com'è adesso: la giocata che non hai visto è nell'elenco della smazzata.",
    "Back at table {table}, as it stands now: this round's plays are in its list.": "Di nuovo al tavolo {table}, com'è adesso: le giocate di questa smazzata sono nell'elenco.",
    "Back at table {table}, as it stands now: the {n} plays you did not see are in this round's list.":
        "Di nuovo al tavolo {table}, com'è adesso: le {n} giocate che non hai visto sono nell'elenco della smazzata.",
    # the dialogs
    "With {card}, which cards do you take?": "Con {card} quali carte prendi?",
    "number, or ↑↓ and Enter, or click": "numero, oppure ↑↓ e Invio, oppure clic",
    "Esc: another card": "Esc: un'altra carta",
    "Left on the table, to {who}: ": "Rimaste in tavola, a {who}: ",
    "Left on the table, to you: ": "Rimaste in tavola, a te: ",
    "Left on the table, to you and {partner}: ": "Rimaste in tavola, a te e a {partner}: ",
    "The next round starts by itself when the players go on; Enter (or any letter) closes this.":
        "La smazzata seguente comincia da sé quando i giocatori vanno avanti; Invio (o una lettera) chiude questo riquadro.",
    "The game is over: this was its last round. Enter (or any letter) closes this.": "La partita è finita: questa era l'ultima smazzata. Invio (o una lettera) chiude questo riquadro.",
    "press any key to go on": "premi un tasto per continuare",
    "Enter to leave": "Invio per uscire",
    "Enter to go back to the lobby": "Invio per tornare alla sala",
    "Game over": "Partita finita",
    "Pass the keyboard to {who}": "Passa la tastiera a {who}",
    "The other hands are hidden.": "Le altre mani sono coperte.",
    "{who}: press Enter when ready.": "{who}: premi Invio quando ci sei.",
    "yes": "sì",
    "no": "no",
    "Yes": "Sì",
    "No": "No",
    "y: yes · n: no": "s: sì · n: no",
    "close": "chiudi",
    "Back": "Indietro",
    "This table": "Questo tavolo",
    "Game: {rules}": "Gioco: {rules}",
    "Table number: {table}": "Numero del tavolo: {table}",
    "two teams, partners opposite": "due squadre, i compagni seduti di fronte",
    "{n} players, {sides}": "{n} giocatori, {sides}",
    "The first side to {target} points wins.": "Vince chi arriva per primo a {target} punti.",
    "Turn timer: {time} for each move, {first} for each player's first move of a round; then the server plays for you.":
        "Tempo per mossa: {time}, {first} per la prima mossa di ciascuno in ogni smazzata; poi gioca il server per te.",
    "Turn timer: {time} for each move, {first} for each player's first move of a round; then the server plays for that player.":
        "Tempo per mossa: {time}, {first} per la prima mossa di ciascuno in ogni smazzata; poi gioca il server al suo posto.",
    "Turn timer: {time} for each move; then the server plays for that player.": "Tempo per mossa: {time}; poi gioca il server al suo posto.",
    "Turn timer: none.": "Tempo per mossa: nessuno.",
    "A private table: only people with its invite sit here.": "Un tavolo privato: si siede solo chi ha l'invito.",
    "A table listed in the lobby.": "Un tavolo che compare nella sala.",
    "A local game, played on this computer.": "Una partita in locale, su questo computer.",
    "Dealt from seed {seed}.": "Mescolata numero {seed}.",
    "↑↓ PgUp PgDn: scroll · Esc, ? or q: back": "↑↓ PagSu PagGiù: scorri · Esc, ? o q: indietro",
    "Leave the game? It ends here: a local game is not kept.":
        "Lasci la partita? Finisce qui: una partita in locale non si conserva.",
    # the lobby
    "Scopa lobby": "Sala della Scopa",
    "{name} on {server}": "{name} su {server}",
    "Not your turn: {name} is playing.": "Non è il tuo turno: tocca a {name}.",
    "Not your turn yet.": "Non è ancora il tuo turno.",
    "The name {asked} is already in use: here you are {name}.": "Il nome {asked} è già in uso: qui sei {name}.",
    "create": "crea",
    "join": "siediti",
    "invite": "invito",
    "watch": "guarda",
    "refresh": "aggiorna",
    "table": "tavolo",
    "rules": "regole",
    "seats": "posti",
    "state": "stato",
    "watching": "spettatori",
    "waiting": "in attesa",
    "playing": "in gioco",
    "finished": "finita",
    "closed": "chiuso",
    "free": "libero",
    "{name} (away)": "{name} (assente)",
    "play now": "gioca subito",
    "play scopone now": "gioca subito a scopone",
    "scopone's leaderboard": "la classifica dello scopone",
    "Tournament {tournament}: you sit at table {table}, seat {seat}.":
        "Torneo {tournament}: sei al tavolo {table}, posto {seat}.",
    "p: play now · c: create a table · Enter or j: join the selected table · w: watch it · ?: rules":
        "p: gioca subito · c: apri un tavolo · Invio o j: siediti al tavolo scelto · w: guardalo · ?: regole",
    "No tables yet: press c to create one.": "Ancora nessun tavolo: premi c per aprirne uno.",
    "No table selected: c creates one.": "Nessun tavolo scelto: c ne apre uno.",
    "t: say something to the lobby": "t: scrivi qualcosa alla sala",
    "Join a private table": "Entra a un tavolo privato",
    "the invite you were given, e.g. 7.Xq3…": "l'invito che ti hanno dato, per esempio 7.Xq3…",
    "Enter: join · Esc: back": "Invio: entra · Esc: indietro",
    "y: go back to it · n: leave it": "s: torna alla partita · n: abbandonala",
    "You have an unfinished game at table {table} on {server} (seat {seat}, as {name}).":
        "Hai una partita in sospeso al tavolo {table} su {server} (posto {seat}, come {name}).",
    "That game is over or gone ({reason}).": "Quella partita è finita o non c'è più ({reason}).",
    "You sit at table {table}, seat {seat}.": "Sei al tavolo {table}, posto {seat}.",
    "Table {table} is open: {rules}.": "Il tavolo {table} è aperto: {rules}.",
    "table {table}": "tavolo {table}",
    "watching table {table} (b: back)": "guardi il tavolo {table} (b: indietro)",
    "No longer watching table {table} ({reason}).": "Non guardi più il tavolo {table} ({reason}).",
    "You left table {table}.": "Hai lasciato il tavolo {table}.",
    "The game ended without a winner ({reason}).": "La partita è finita senza vincitori ({reason}).",
    "Waiting for the other seats to fill…": "Si aspetta che gli altri posti si riempiano…",
    "Waiting for the other seats to fill. A private table: pass on its invite,":
        "Si aspetta che gli altri posti si riempiano. Un tavolo privato: passa il suo invito,",
    "Your friends run scopa play --invite with it (or press i in the lobby and paste it).":
        "I tuoi amici lo danno a scopa play --invite (o premono i nella sala e lo incollano).",
    "Not sent while reconnecting: {text}": "Non inviato durante la riconnessione: {text}",
    "Your moves are kept until it is back.": "Le tue mosse restano da parte finché non torna.",
    "Your private table is open: pass this invite on": "Il tuo tavolo privato è aperto: passa questo invito",
    "In a browser:": "In un browser:",
    "In a terminal:": "In un terminale:",
    "With a phone's camera:": "Con la fotocamera di un telefono:",
    "This invite only works on this computer: the server listens on loopback only. For friends on other machines, "
    "start it with --host 0.0.0.0.": "Questo invito funziona solo su questo computer: il server ascolta solo in "
    "locale (loopback). Per gli amici su altri computer, avvialo con --host 0.0.0.0.",
    # the create-table form
    "Open a table": "Apri un tavolo",
    "More options of the game": "Altre opzioni del gioco",
    "(free seat)": "(posto libero)",
    "someone awaited": "si aspetta qualcuno",
    "here": "presente",
    "Create": "Apri",
    "Cancel": "Annulla",
    "Tab: next field · Enter: open a list or press a button · Space: tick · Ctrl+S: create · Esc: cancel":
        "Tab: campo successivo · Invio: apri un elenco o premi un pulsante · Spazio: spunta · Ctrl+S: apri · "
        "Esc: annulla",
    "Play to": "Si gioca a",
    "Capture rule": "Regola di presa",
    "Refill each turn": "Pesca a ogni giocata",
    "At most two": "Al massimo due",
    "Re bello": "Re bello",
    "Players": "Giocatori",
    "Teams": "Squadre",
    "Hand size": "Carte in mano",
    "Table cards": "Carte in tavola",
    "Ponino": "Ponino",
    "Napola": "Napola",
    "Quindici": "Quindici",
    "Escoba": "Escoba",
    "Trentino": "Trentino",
    "Asso piglia tutto": "Asso piglia tutto",
    "Frac": "Frac",
    "Cirulla": "Cirulla",
    "teams with 4 or 6 players": "squadre in 4 o in 6",
    "two teams": "due squadre",
    "each alone": "ciascuno per sé",
    "Traditional (same value first)": "Tradizionale (prima la carta uguale)",
    "Fewest cards": "Meno carte",
    "Free choice": "Scelta libera",
    "Custom: the options below": "A piacere: le opzioni qui sotto",
    "Your own game: set each option below.": "Un gioco tuo: imposta ogni opzione qui sotto.",
    "Other seats": "Altri posti",
    "wait for people": "aspetta le persone",
    "{level} bots": "bot di livello {level}",
    "easy": "facile",
    "medium": "medio",
    "hard": "difficile",
    "Private": "Privato",
    "not listed in the lobby: you get an invite to pass on to the people you want "
    "(they run scopa play --invite with it, or press i in the lobby and paste it)":
        "non compare nella sala: ricevi un invito da passare alle persone che vuoi "
        "(lo danno a scopa play --invite, o premono i nella sala e lo incollano)",
    "Turn timer": "Tempo per mossa",
    "the server's own": "quello del server",
    "the server's own ({time})": "quello del server ({time})",
    "none (a private table only)": "nessuno (solo un tavolo privato)",
    "time for each move ({time} more for each player's first move of a round); when it runs out, the server plays a "
    "card for that player":
        "il tempo per ogni mossa ({time} in più per la prima mossa di ciascuno in ogni smazzata); quando scade, il server gioca "
        "una carta al posto di chi è di turno",
    "If a player leaves": "Se qualcuno se ne va",
    "a bot plays on": "continua un bot",
    "the game ends": "la partita finisce",
    "when a player leaves the game, or loses the connection and is not back in time":
        "quando qualcuno lascia la partita, o perde la connessione e non torna in tempo",
    "whether partners play together as a team, sitting opposite each other":
        "se i compagni giocano in squadra, seduti uno di fronte all'altro",
    "Those rules do not work: {reason}": "Queste regole non funzionano: {reason}",
    "only a private table may play without a turn timer": "solo un tavolo privato può giocare senza tempo per mossa",
    "custom": "a piacere",
    "custom ({game} changed)": "a piacere ({game} cambiato)",
    "{n} players": "{n} giocatori",
    "{n} players in teams": "{n} giocatori a squadre",
    # invites and refusals
    "that is not an invite: an invite looks like 7.Xq3vR0aT2m-k9LbZ_c8Ew1yH (the table, a dot, the code), "
    "or is a link holding one":
        "questo non è un invito: un invito è fatto come 7.Xq3vR0aT2m-k9LbZ_c8Ew1yH (il tavolo, un punto, il "
        "codice), oppure è un link che ne contiene uno",
    "No table matches that invite: the game is over, the table is gone, or the invite is another table's.":
        "Nessun tavolo corrisponde a quell'invito: la partita è finita, il tavolo non c'è più, o l'invito è di "
        "un altro tavolo.",
    "There is no table '{table}' to watch without an invite: it does not exist, or it is private. "
    "A private table is watched with the invite its host passed on: scopa watch --invite TABLE.CODE":
        "Non c'è un tavolo '{table}' da guardare senza invito: non esiste, o è privato. Un tavolo privato si "
        "guarda con l'invito che ha passato chi l'ha aperto: scopa watch --invite TAVOLO.CODICE",
    "The server says no: {message}": "Il server dice di no: {message}",
    # a typed move
    "type a move number, or a card such as 7d (add the cards to take: 7d 3c 4s)":
        "scrivi il numero di una mossa, o una carta come 7d (con le carte da prendere: 7d 3c 4s)",
    "there is no move {n}; choose 1 to {last}": "non c'è la mossa {n}; scegli da 1 a {last}",
    "{text} is not a card (a card is written like {card}); you hold {hand}":
        "{text} non è una carta (una carta si scrive come {card}); hai in mano {hand}",
    "{card} is not in your hand; you hold {hand}": "{card} non è nella tua mano; hai in mano {hand}",
    "no capture of {taken} with {card}; allowed: {options}": "{card} non può prendere {taken}; si può: {options}",
    "{card} cannot take {taken}: it can only be laid down": "{card} non può prendere {taken}: si può solo calare",
    "{card} can take different sets of cards: {options}; pick one by its number":
        "{card} può prendere carte diverse: {options}; scegline una col suo numero",
    # after a local game
    "Seed {seed}: replay with --seed {seed}": "Mescolata numero {seed}: per rigiocarla, --seed {seed}",
    "Game left.": "Partita lasciata.",
    "record written to {path}": "partita registrata in {path}",
    "no record written: the game was left before its end": "nessuna registrazione: la partita è stata lasciata prima della fine",
    # the plain client
    "Your move: ": "La tua mossa: ",
    "You have {time}, then the server plays for you.": "Hai {time}, poi gioca il server per te.",
    "(your last card is played for you)": "(la tua ultima carta si gioca da sé)",
    "Round {n}: {name} deals. Table: ": "Smazzata {n}: dà le carte {name}. Tavola: ",
    "dealer: {name}": "mazziere: {name}",
    "stock: {n}": "mazzo: {n}",
    "rules: {rules}": "regole: {rules}",
    "side": "parte",
    "score": "punti",
    "(you)": "(tu)",
    "Table:": "Tavola:",
    "Cards in hand —": "Carte in mano —",
    "Your hand:": "La tua mano:",
    "Round score": "Punti della smazzata",
    "cards captured": "carte prese",
    "primiera sum": "primiera",
    "— (suit missing)": "— (manca un seme)",
    "points": "punti",
    "Game starts: {rules}. Seats: {names}": "Comincia la partita: {rules}. Posti: {names}",
    "The table showed": "In tavola c'erano",
    "— void deal, dealing again.": "— smazzata nulla, si ridà.",
    "Dealer's bonus: {n} scopa(e)!": "Premio del mazziere: {n} scopa/e!",
    "{who} declared {what} ({n} points": "{who} ha dichiarato {what} ({n} punti",
    "as {n}": "come {n}",
    "You played": "Hai giocato",
    "{who} played": "{who} ha giocato",
    "(played by the game master)": "(giocata dal server)",
    "Totals:": "Totali:",
    "Game over ({reason}): {who} wins {totals}": "Partita finita ({reason}): vince {who} {totals}",
    "Game over ({reason}): {who} win {totals}": "Partita finita ({reason}): vincono {who} {totals}",
    "{name} lost the connection; the table waits up to {time}.":
        "{name} ha perso la connessione; il tavolo aspetta fino a {time}.",
    "{name} did not come back: a {strategy} bot plays the seat.":
        "Nessun ritorno di {name}: il posto lo gioca un bot {strategy}.",
    # the plain lobby
    "PRESET": "GIOCO",
    "create a table": "apri un tavolo",
    "join a table": "siediti a un tavolo",
    "watch a table": "guarda un tavolo",
    "leaderboard": "classifica",
    # the replay viewer
    "Scopa replay": "Scopa: rivedi la partita",
    "step": "passo",
    "round": "smazzata",
    "next": "avanti",
    "next round": "smazzata dopo",
    "previous round": "smazzata prima",
    "start": "inizio",
    "end": "fine",
    "jump to round": "scegli smazzata",
    "quit": "esci",
    "game {game}": "partita {game}",
    "hand": "mano",
    "{who}: {cards}, {scope}, {points}": "{who}: {cards}, {scope}, {points}",
    "1 card taken": "1 carta presa",
    "{n} cards taken": "{n} carte prese",
    "1 point": "1 punto",
    "{n} points": "{n} punti",
    "The record stops making sense here: {problem}": "Da qui la registrazione non torna: {problem}",
    "round 1-{n} then Enter (Esc: cancel)": "smazzata 1-{n} poi Invio (Esc: annulla)",
    "there is no round {text}: rounds 1-{n}": "non c'è la smazzata {text}: smazzate 1-{n}",
    "{who} declares {what}": "{who} dichiara {what}",
    "{who} lays {card} on the table": "{who} cala in tavola: {card}",
    "{who} plays {card}, takes {cards}": "{who} gioca {card}, prende {cards}",
    "scopa!": "scopa!",
    "1 scopa": "1 scopa",
    "{n} scope": "{n} scope",
    "Round {n}: {dealer} deals {cards} on the table, which add up to {total}: the dealer's side takes them, "
    "{scope} (V13)": "Smazzata {n}: {dealer} mette in tavola {cards}, che fanno {total}: le prende la parte del "
    "mazziere, {scope} (V13)",
    "Round {n}: {dealer} deals; on the table {cards}": "Smazzata {n}: dà le carte {dealer}; in tavola {cards}",
    "deal": "distribuzione",
    "action {i}/{n}": "mossa {i}/{n}",
    "Round {n}/{rounds} · {move} · step {i}/{steps} — {text}":
        "Smazzata {n}/{rounds} · {move} · passo {i}/{steps} — {text}",
    "Game over: {reason}, {totals}": "Partita finita: {reason}, {totals}",
    "Game over: {who} won {totals} ({reason})": "Partita finita: vince {who} {totals} ({reason})",
    "Game over: {both} won {totals} ({reason})": "Partita finita: vincono {both} {totals} ({reason})",
    "game {game}: record written to {file} ({n} rounds)": "partita {game}: registrazione scritta in {file} ({n} smazzate)",
    "Games: {presets}": "Giochi: {presets}",
    "Game [{default}]: ": "Gioco [{default}]: ",
    "cannot write {file}: {why}": "impossibile scrivere {file}: {why}",
    "password for {name}: ": "password di {name}: ",
    "again: ": "di nuovo: ",
    "the two passwords differ": "le due password sono diverse",
    "a password is 8-200 characters": "una password ha da 8 a 200 caratteri",
    "the name {name} is yours: give its password (${env}) when you connect as {name}":
        "il nome {name} è tuo: da' la sua password (${env}) quando ti colleghi come {name}",
    "inconsistent:": "incoerente:",
    "consistent: {rounds} rounds, {steps} steps, result {totals} ({reason})":
        "coerente: {rounds} smazzate, {steps} passi, risultato {totals} ({reason})",
    "the record stops making sense here: {problem}": "da qui la registrazione non torna: {problem}",
    "nothing to show: {problem}": "niente da mostrare: {problem}",
    "not a valid name: {name} (1-24 letters, digits, _ . -)": "nome non valido: {name} (1-24 lettere, cifre, _ . -)",
    "not a valid player name: {name} (1-24 letters, digits, _ . -)":
        "nome di giocatore non valido: {name} (1-24 lettere, cifre, _ . -)",
    "--limit must be 1-100, not {n}": "--limit va da 1 a 100, non {n}",
    "not a game id: {game} (the first column of scopa games, e.g. 7)":
        "non è il numero di una partita: {game} (la prima colonna di scopa games, per esempio 7)",
    "cannot write the record to {file}: no such folder, or it is a folder":
        "impossibile scrivere la registrazione in {file}: la cartella non c'è, o è una cartella",
    "not a seat token: a token is 8-64 letters, digits, _ and -":
        "non è un gettone di posto: un gettone ha 8-64 lettere, cifre, _ e -",
    "${env} must be 8-200 characters": "${env} deve avere da 8 a 200 caratteri",
    # the replay, said to the person who played the game
    "You declare {what}": "Dichiari {what}",
    "You lay {card} on the table": "Cali in tavola: {card}",
    "You play {card}, take {cards}": "Giochi {card}, prendi {cards}",
    "Round {n}: you deal {cards} on the table, which add up to {total}: your side takes them, {scope} (V13)":
        "Smazzata {n}: metti in tavola {cards}, che fanno {total}: le prende la tua parte, {scope} (V13)",
    "Round {n}: you deal; on the table {cards}": "Smazzata {n}: dai tu le carte; in tavola {cards}",
    "Game over: you won {totals} ({reason})": "Partita finita: hai vinto {totals} ({reason})",
    "Game over: your side won {totals} ({reason})": "Partita finita: avete vinto {totals} ({reason})",
    "Round {n}: you deal. Table: ": "Smazzata {n}: dai tu le carte. Tavola: ",
    "You declared {what} ({n} points": "Hai dichiarato {what} ({n} punti",
    "Game over ({reason}): you win {totals}": "Partita finita ({reason}): hai vinto {totals}",
    "Game over ({reason}): your side wins {totals}": "Partita finita ({reason}): avete vinto {totals}",
    "Game over ({reason}): nobody wins — {totals}": "Partita finita ({reason}): non vince nessuno — {totals}",
    "watch the game again, step by step": "rivedi la partita, mossa per mossa",
    # the replay as a log (scopa replay --plain)
    "Game {game}: {rules}; seed {seed}": "Partita {game}: {rules}; mescolata numero {seed}",
    "Game: {rules}; seed {seed}": "Partita: {rules}; mescolata numero {seed}",
    "Played: {when}": "Giocata: {when}",
    "Players: {players}": "Giocatori: {players}",
    "{name} (bot: {strategy})": "{name} (bot: {strategy})",
    "{name} (bot)": "{name} (bot)",
    "{name} (person)": "{name} (persona)",
    "{name} (person, then a bot)": "{name} (persona, poi un bot)",
    "hands: {hands}": "mani: {hands}",
    "round score: {sides}": "punti della smazzata: {sides}",
    "totals: {totals}": "totali: {totals}",
    # the scopa command's own words
    "Those rules do not work:": "Queste regole non funzionano:",
    "bye": "ciao",
    "(to play against it: --seats human,{kind})": "(per giocarci contro: --seats human,{kind})",
    "--seats names 1 seat; a table has 2, 3, 4 or 6": "--seats indica 1 posto; un tavolo ne ha 2, 3, 4 o 6",
    "--seats names {n} seats; a table has 2, 3, 4 or 6": "--seats indica {n} posti; un tavolo ne ha 2, 3, 4 o 6",
    "--name gives {n} names, but the table has {people} seat(s) for people (human in --seats)":
        "--name dà {n} nomi, ma al tavolo i posti per persone sono {people} (human in --seats)",
    "{kind} cannot sit at the table; a seat is human (you), a bot level ({levels}), another built-in bot ({bots}), "
    "or your own bot as MODULE:CLASS or FILE.py:CLASS":
        "{kind} non può sedersi al tavolo; un posto è human (tu), un livello di bot ({levels}), un altro bot già "
        "pronto ({bots}) o un tuo bot come MODULO:CLASSE o FILE.py:CLASSE",
    "cannot write a record to {file}: no such folder, or it is a folder":
        "impossibile scrivere una registrazione in {file}: la cartella non c'è, o è una cartella",
    "The output is not a terminal: scopa local cannot draw the board.":
        "L'uscita non è un terminale: scopa local non può disegnare la tavola.",
    "Seat only bots (e.g. --seats greedy,random) to print a game, or add --plain to play with typed lines.":
        "Fai sedere solo bot (per esempio --seats greedy,random) per stampare una partita, o aggiungi --plain "
        "per giocare scrivendo le mosse.",
    "cannot read {file}: {why}": "impossibile leggere {file}: {why}",
    "{file} is too large for a record (over {n} MiB)": "{file} è troppo grande per una registrazione (oltre {n} MiB)",
    "{file} is not a text file": "{file} non è un file di testo",
    **CLUB_ITALIAN, **CONNECTION_ITALIAN, **OPERATOR_ITALIAN,
    **ARCHIVE_ITALIAN, **TUI_ITALIAN, **LOBBY_ITALIAN,
    **json.loads(files("scopa.client.text").joinpath("help_it.json").read_text(encoding="utf-8")),  # the command's help
    **json.loads(files("scopa.client.text").joinpath("operator_it.json").read_text(encoding="utf-8")),  # scopa admin
}
