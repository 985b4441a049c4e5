// The page's words in Italian and English: the browser's language first, then the
// person's own choice (kept). Every string the page shows comes from here; a text with
// {names} in braces is filled in by fill().
import type { ErrorCode } from "./protocol";
// The Italian both clients share (server error codes, the engine's refusal reasons, options): client/text/catalog_it.json,
// which the terminal client reads too.
import catalog from "../../text/catalog_it.json";

export type Lang = "it" | "en";

const EN = {
  linkFull: "This table is full", linkFullOf: "The game {name} invited you to has no seat left: it is being played without you. You can watch it, or find another table.", linkFullAny: "This table has no seat left: its game is being played without you. You can watch it, or find another table.", watchIt: "Watch the game", toTables: "Go to the tables",
  linkOverNow: "This game is already over: pick a name to see how it ended, and watch it again if you like.", seeResult: "See how it ended",
  linkGone: "This table is gone", linkGoneSaid: "Its game may be over, the table closed, or the link incomplete: there is nothing to wait for. In the tables' page you find the games being played and the finished ones.",
  watchedOver: "The game of {names} is over: here is how it ended.", watchedOverTable: "This game is over: here is how it ended.",
  rematch: "Rematch", rematchOffer: "{name} proposes a rematch", rematchJoin: "Play the rematch", whyLeft: "{name} left the game",
  rematchWatch: "Watch the rematch", rematchWithBot: "Rematch, a bot in place of {names}", rematchWaits: "offered to {names}: waiting", againstBotAgain: "New game against the bot", againstBotsAgain: "New game against the bots",
  watchingGame: "You are watching the game of {names}: you are not playing.", watchingTable: "You are watching this table: you are not playing.", and: "and",
  standIn: "{name} is not at the table: a bot plays in their place.", standInTitle: "Seats a bot plays",
  invited: "You are invited to a table: pick a name and play.",
  invitedBy: "{name} invites you to a game of {game} for {n}, to {target} points: pick a name and play.",
  invitedWith: "{name} invites you to a game of {game} for {n}, to {target} points, with {rules}: pick a name and play.", tableSettings: "At this table: {rules}.",
  nameInUse: "The name {asked} is already in use. Play as {given}, or pick another name.", otherName: "Pick another name",
  playNow: "Play now", withPeople: "Play with other people", againstBotsSaid: "It starts at once: bots play the other seats.",
  withPeopleSaid: "You wait for other people who choose the same game: it starts once there are enough of you.",
  partnerSeat: "Your team-mate: seat {n}, opposite you (you are at seat 1).", partnerSeats: "Your team-mates: seats {seats} and {last} (you are at seat 1).",
  quickNeedOne: "Waiting for 1 more player for a game of {game}…", quickNeed: "Waiting for {n} more players for a game of {game}…", quickOthers: "({n} waiting with you)", leaveQueue: "Stop waiting",
  tournaments: "Tournaments", showTournaments: "Show the tournaments", noTournaments: "No tournament open.",
  showFinished: "Show the finished tournaments", finishedTournaments: "Finished tournaments", noFinished: "No tournament has finished yet.",
  newTournament: "Create a tournament", tournamentName: "Name", format: "Format", swiss: "Swiss", round_robin: "Round robin",
  knockout: "Knockout", rounds: "Rounds (Swiss)", cap: "At most", register: "Register", unregister: "Unregister",
  start: "Start", standings: "Standings", tournamentLine: "{name} · {format} · {game} · {phase}{round} · {n}/{cap}: {entrants}",
  roundNo: " · round {n}", noRoundYet: "Standings (no round played yet)",
  registering: "registering", running: "running", over: "over", standingsTitle: "Standings after round {n}",
  finalStandings: "Final standings", buchholz: "Buchholz", gamePoints: "Game points",
  outKnocked: "You are out: beaten by {by} in round {n} of '{name}'. Final place: {place}.",
  outBye: "A bye in round {n} of '{name}': {points} point(s) without playing. The next round is awaited.",
  outWon: "'{name}' is over: you won it!", outOver: "'{name}' is over. Final place: {place}.",
  nameRule: "Up to 24 letters (accented ones too), digits and _ - . — no spaces.",
  nameSpaces: "A name cannot have spaces.", nameBad: "A name may have only letters, digits and _ - . (up to 24).",
  nameEmpty: "Type a name first.", playAs: "Play as {name}",
  title: "Scopa", yourName: "Your name", play: "Play", you: "You are", lobby: "Tables", noTables: "No tables yet: create one.",
  againstBots: "A game against bots now", create: "Create a table", game: "Game", players: "Players", playersDefault: "as the game says ({n})", bots: "Bots for the empty seats",
  none: "none (wait for people)", easy: "easy", medium: "medium", hard: "hard", private: "Private (only with the invite link)",
  timer: "Turn timer", serverDefault: "the server's", noTimer: "none (private tables only)", more: "More options",
  firstMoveMore: "Each player's first move of a round has {n} s more (to look at the new cards).",
  people: "People at the table (you included)", peopleAll: "{n}: every seat", peopleBots: "{n} and {b} bots", peopleBotOne: "{n} and 1 bot",
  peopleYou: "just you and {b} bots", peopleYouOne: "just you and 1 bot", peopleHint: "Bots play the other seats; the invite link is for the people.",
  noAnswer: "the server is not answering: retrying…", playHeld: "play waiting for the connection",
  optionUnset: "as the game says", yes: "yes", no: "no",
  join: "Join", watch: "Watch", stopWatching: "Back to the tables", leave: "Leave", leaveGame: "Leave the game", linkFullNow: "The table is full: you can watch the game.",
  inviteLocal: "This address works on this computer only: open the page at the server's network address (the one “scopa serve” prints after “Open:”, or “Apri:” in Italian).", chat: "Chat", send: "Send", chatWatching: "Watchers read the chat but do not write.",
  thisGame: "At this table: {game}", rules: "Rules", close: "Close", yourTurn: "Your turn", turnOf: "{name} to play", waiting: "Waiting for the other seats…",
  stock: "Stock", table: "Table", emptyTable: "The table is empty", hand: "Your hand", plays: "This round", lastPlay: "Last play: {play}", score: "Score", side: "Side",
  cards: "Cards", denari: "Denari", primiera: "Primiera", scope: "Scope", settebello: "Settebello",
  roundEnd: "Round {n} over", lastRound: "Round {n}, the last", gameEnd: "Game over", winner: "{name} won", youWon: "You won!", youWonTeam: "Your side won!", winnerTeam: "{name} won", youLostTeam: "Your side lost: {name} won.", youWonLine: "you won", botName: "Bot {n} ({level})", yourSideWonLine: "your side won", youLostLine: "you lost", yourSideLostLine: "your side lost",
  botWonForYou: "you left: the bot in your place won {score}", botLostForYou: "you left: the bot in your place lost {score}",
  turnInBox: "If the time runs out, the server plays a card for you and the game goes on.", draw: "Nobody won", next: "Continue",
  roundBegun: "Round {n} has begun.", youHaveLeft: "You have {n} s left for your next move.", theyHaveLeft: "{n} s left for the move.",
  toLobby: "Back to the tables", roundPoints: "Round points", gameTotal: "Game (to {n})", noSuit: "a suit missing",
  primieraRule: "Primiera: each suit's best card counts (7 = 21, 6 = 18, ace = 16, 5 = 15, 4 = 14, 3 = 13, 2 = 12, court cards = 10); a side needs a card of every suit.",
  primieraNone: "{name}: a suit is missing ({suits}): no primiera.", primieraNoneMany: "{name}: {n} suits are missing ({suits}): no primiera.",
  primieraNoneSome: "{name}: a suit is missing: no primiera.",
  choose: "Which cards do you take with {card}?", takeNothing: "take nothing", declare: "Declare", invite: "Invite a friend: send this link",
  copy: "Copy the link", copied: "Copied", share: "Share",
  qr: "Or a friend here points their phone's camera at this:", qrLabel: "QR code of the invite link",
  connecting: "Connecting…", lost: "Connection lost, reconnecting…", moveWaits: "Your play ({card}) has not reached the server yet: it goes as soon as the connection is back.", moveNotSent: "Your play did not go through: play again.", elsewhere: "This seat is open in another tab or device.",
  playHere: "Play here", deck: "Cards", italian: "Italian", french: "French", language: "Language", settings: "Settings", points: "Points",
  spectatorOne: "1 spectator", spectatorsMany: "{n} spectators", perMove: "{n} s a move", away: "{name} is away from the table: the seat stays theirs for another {left}, then a bot plays.", back: "{name} is back at the table.",
  botLeft: "{name} left the game: a bot plays their seat from now on.",
  watcherCame: "Someone is watching the game now.", watcherWent: "Someone has stopped watching the game.",
  nothingTaken: "{card} takes nothing: tap it again to lay it on the table.",
  tapNotYours: "It is not your turn yet: {name} is playing.", tapWait: "Your play is on its way to the server.",
  tapHandFirst: "First tap a card in your hand, then a table card it takes.", tapNotTaken: "{card} does not take {other}.",
  partner: "on your team", newChat: "{n} new messages in the chat", newChatOne: "1 new message in the chat", scopaYou: "You made a scopa!", scopaOf: "{name} made a scopa!",
  youLeftEnd: "Nobody won: you left the game, so it ended.", diamonds: "Diamonds",
  tapHint: "Tap a card: what it takes lights up; tap it again (or a lit card) to play.",
  takesOne: "{card} takes {cards}: tap it again (or a lit card) to play it.", or: " or ",
  takesChoice: "{card} can take {ways}: tap it again and choose which cards to take.", takesChoosing: "{card} can take {ways}: choose below which cards to take.",
  keysHint: "Keys: 1–{n} pick the card in that place in your hand, the same key again plays it; Esc lets it go; ? shows the rules.",
  me: "you", botSeat: "{name} (bot)", scopa: "Scopa!", seat: "Seat {n}", freeSeat: "empty", emptySeat: "empty seat", inHand: "{n} in hand", awaySeat: "away",
  moving: "Your table is moving to another server; coming back…",
  notEncrypted: "Connection not encrypted",
  notPrivate: "The connection to this page is not encrypted: on a home network that is fine, but on a shared one (a café, a hotel) others could see what you send.",
  notPrivateHost: "Whoever hosts the game can turn on encryption (TLS) in its server: then the connection is private.",
  leaveQuestion: "Leave the game? It ends at once for everyone at this table, with no winner.",
  leaveYes: "Leave: end the game", stay: "Keep playing",
  leaveToBot: "Leave the game? A bot plays your seat for the rest of the game; you cannot come back to it.",
  leaveEnds: "Leave the game? It ends for everyone, with no winner: this table was made to end when a player leaves.",
  leaveYesBot: "Leave: a bot plays on",
  leftToBot: "You left the game: a bot plays your seat for the rest of it.",
  heldBack: "You were away too long, so a bot played in your place; now you play again.",
  botPlayedForYou: "While you were away the bot played for you: {cards}.",
  stateWaiting: "waiting for players", statePlaying: "playing", statePeopleAway: "waiting for its players to come back", privateTable: "private",
  timedOut: "time ran out, so the server played it", timedOutOf: "{name}'s time ran out: the server played {card} for them.", timedOutYou: "Your time ran out: the server played {card} for you.",
  timedOutAway: "While you were away your time ran out: the server played {cards} for you.",
  secondsLeft: "{n} s left to move", declared: "{name} declares {kind} (+{n})",
  ended: "The game ended: {why}.", whyAbandoned: "a player left", whyTarget: "a side reached the target",
  whyTrentino: "Asso, 2 and 3 of Denari taken by one side", whyAllDenari: "all ten Denari taken by one side",
  description: "{game}, {n} players{teams}, to {target}", teams: " in teams", capture: "capture: {mode}",
  pointsBy: "+{n}", total: "{before} → {after}", leftoverTo: "The cards left on the table go to {name}.",
  catPonino: "Ponino (scope doubled)", catNapola: "Napola", catSevens: "Most sevens", catAllSevens: "All four sevens",
  catTrentino: "Trentino (A, 2, 3 of Denari)", catReBello: "Re bello", catHonours: "Aces and court cards",
  catPiccola: "Piccola", catGrande: "Grande", catDeclarations: "Declared hands",
  under10: "under ten", tris: "tris", error: "{message}",
  abandoned: "abandoned", finished: "Finished games", showGames: "Show the finished games", toFinished: "Go to the finished games",
  winnerLine: "{name} won", winnerTeamLine: "{name} won", noGames: "No finished games yet.", replay: "Replay", watchReplay: "Watch the game again", backToEnd: "Back to the result",
  replayOf: "Game #{id}", roundOf: "Round {n} of {of}", stepOf: "play {k} of {of}", back1: "◀ Back", next1: "Next ▶",
  prevRound: "Previous round", nextRound: "Next round", handOf: "{name}'s hand", dealt: "Just dealt",
};
type Words = typeof EN;

const IT: Words = {
  linkFull: "Questo tavolo è al completo", linkFullOf: "Nella partita a cui ti ha invitato {name} non c'è più posto: si gioca senza di te. Puoi guardarla, o cercare un altro tavolo.", linkFullAny: "A questo tavolo non c'è più posto: la partita si gioca senza di te. Puoi guardarla, o cercare un altro tavolo.", watchIt: "Guarda la partita", toTables: "Vai ai tavoli",
  linkOverNow: "Questa partita è già finita: scegli un nome per vedere com'è andata, e se vuoi rivederla.", seeResult: "Vedi com'è finita",
  linkGone: "Questo tavolo non c'è più", linkGoneSaid: "La sua partita può essere finita, il tavolo chiuso, o il link incompleto: non c'è niente da aspettare. Nella pagina dei tavoli trovi le partite in corso e quelle finite.",
  watchedOver: "La partita di {names} è finita: ecco com'è andata.", watchedOverTable: "Questa partita è finita: ecco com'è andata.",
  rematch: "Rivincita", rematchOffer: "{name} propone la rivincita", rematchJoin: "Gioca la rivincita", whyLeft: "{name} ha lasciato la partita",
  rematchWatch: "Guarda la rivincita", rematchWithBot: "Rivincita, con un bot al posto di {names}", rematchWaits: "rivincita offerta a {names}: in attesa", againstBotAgain: "Nuova partita contro il bot", againstBotsAgain: "Nuova partita contro i bot",
  watchingGame: "Stai guardando la partita di {names}: non stai giocando.", watchingTable: "Stai guardando questo tavolo: non stai giocando.", and: "e",
  standIn: "{name} non è al tavolo: un bot gioca al suo posto.", standInTitle: "Posti giocati da un bot",
  invited: "Hai un invito a un tavolo: scegli un nome e gioca.",
  invitedBy: "{name} ti invita a una partita di {game} a {n}, a {target} punti: scegli un nome e gioca.",
  invitedWith: "{name} ti invita a una partita di {game} a {n}, a {target} punti, con {rules}: scegli un nome e gioca.", tableSettings: "A questo tavolo: {rules}.",
  nameInUse: "Il nome {asked} è già in uso. Gioca come {given}, o scegli un altro nome.", otherName: "Scegli un altro nome",
  playNow: "Gioca subito", withPeople: "Gioca con altre persone", againstBotsSaid: "Si comincia subito: i bot giocano negli altri posti.",
  withPeopleSaid: "Aspetti altre persone che scelgono lo stesso gioco: si comincia quando siete abbastanza.",
  partnerSeat: "Il tuo compagno di squadra: posto {n}, di fronte a te (tu sei al posto 1).", partnerSeats: "I tuoi compagni di squadra: posti {seats} e {last} (tu sei al posto 1).",
  quickNeedOne: "Aspettiamo ancora 1 giocatore per una partita di {game}…", quickNeed: "Aspettiamo ancora {n} giocatori per una partita di {game}…", quickOthers: "({n} in attesa con te)", leaveQueue: "Smetti di aspettare",
  tournaments: "Tornei", showTournaments: "Mostra i tornei", noTournaments: "Nessun torneo aperto.",
  showFinished: "Mostra i tornei finiti", finishedTournaments: "Tornei finiti", noFinished: "Nessun torneo è ancora finito.",
  newTournament: "Crea un torneo", tournamentName: "Nome", format: "Formula", swiss: "Svizzera", round_robin: "Girone all'italiana",
  knockout: "Eliminazione diretta", rounds: "Turni (svizzera)", cap: "Al massimo", register: "Iscriviti", unregister: "Ritirati",
  start: "Inizia", standings: "Classifica", tournamentLine: "{name} · {format} · {game} · {phase}{round} · {n}/{cap}: {entrants}",
  roundNo: " · turno {n}", noRoundYet: "Classifica (nessun turno ancora giocato)",
  registering: "iscrizioni aperte", running: "in corso", over: "finito", standingsTitle: "Classifica dopo il turno {n}",
  finalStandings: "Classifica finale", buchholz: "Spareggio Buchholz", gamePoints: "Punti partita",
  outKnocked: "Sei fuori: ti ha battuto {by} al turno {n} di '{name}'. Posto finale: {place}.",
  outBye: "Riposi al turno {n} di '{name}': {points} punto/i senza giocare. Si aspetta il turno successivo.",
  outWon: "'{name}' è finito: l'hai vinto tu!", outOver: "'{name}' è finito. Posto finale: {place}.",
  nameRule: "Fino a 24 lettere (anche accentate), cifre e _ - . — senza spazi.",
  nameSpaces: "Un nome non può avere spazi.", nameBad: "Un nome può avere solo lettere, cifre e _ - . (fino a 24).",
  nameEmpty: "Prima scrivi un nome.", playAs: "Gioca come {name}",
  title: "Scopa", yourName: "Il tuo nome", play: "Gioca", you: "Sei", lobby: "Tavoli", noTables: "Nessun tavolo: creane uno.",
  againstBots: "Subito una partita contro i bot", create: "Crea un tavolo", game: "Gioco", players: "Giocatori", playersDefault: "come vuole il gioco ({n})", bots: "Bot ai posti vuoti",
  none: "nessuno (aspetta persone)", easy: "facile", medium: "medio", hard: "difficile", private: "Privato (solo con il link d'invito)",
  timer: "Tempo per mossa", serverDefault: "quello del server", noTimer: "nessuno (solo tavoli privati)", more: "Altre opzioni",
  firstMoveMore: "La prima mossa di ciascuno in ogni smazzata ha {n} s in più (per guardare le carte nuove).",
  people: "Persone al tavolo (tu compreso)", peopleAll: "{n}: tutti i posti", peopleBots: "{n} e {b} bot", peopleBotOne: "{n} e 1 bot",
  peopleYou: "solo tu e {b} bot", peopleYouOne: "solo tu e 1 bot", peopleHint: "I bot giocano gli altri posti; il link d'invito è per le persone.",
  noAnswer: "il server non risponde: riprovo…", playHeld: "giocata in attesa della connessione",
  optionUnset: "come vuole il gioco", yes: "sì", no: "no",
  join: "Siediti", watch: "Guarda", stopWatching: "Torna ai tavoli", leave: "Esci", leaveGame: "Esci dalla partita", linkFullNow: "Il tavolo è al completo: puoi guardare la partita.",
  inviteLocal: "Questo indirizzo funziona solo su questo computer: apri la pagina con l'indirizzo di rete del server (quello che «scopa serve» scrive dopo «Apri:», o «Open:» in inglese).", chat: "Chat", send: "Invia", chatWatching: "Chi guarda legge la chat ma non scrive.",
  thisGame: "A questo tavolo: {game}", rules: "Regole", close: "Chiudi", yourTurn: "Tocca a te", turnOf: "Tocca a {name}", waiting: "In attesa degli altri giocatori…",
  stock: "Mazzo", table: "In tavola", emptyTable: "Tavola vuota", hand: "Le tue carte", plays: "Giocate della smazzata", lastPlay: "Ultima giocata: {play}", score: "Punteggio", side: "Squadra",
  cards: "Carte", denari: "Denari", primiera: "Primiera", scope: "Scope", settebello: "Settebello",
  roundEnd: "Fine della smazzata {n}", lastRound: "Smazzata {n}, l'ultima", gameEnd: "Partita finita", winner: "Ha vinto {name}", youWon: "Hai vinto!", youWonTeam: "Avete vinto!", winnerTeam: "Ha vinto la squadra di {name}", youLostTeam: "Avete perso: ha vinto la squadra di {name}.", youWonLine: "hai vinto", botName: "Bot {n} ({level})", yourSideWonLine: "avete vinto", youLostLine: "hai perso", yourSideLostLine: "avete perso",
  botWonForYou: "hai lasciato: il bot al tuo posto ha vinto {score}", botLostForYou: "hai lasciato: il bot al tuo posto ha perso {score}",
  turnInBox: "Se il tempo finisce, il server gioca una carta al posto tuo e la partita va avanti.", draw: "Nessun vincitore", next: "Continua",
  roundBegun: "È iniziata la smazzata {n}.", youHaveLeft: "Hai ancora {n} s per la prossima mossa.", theyHaveLeft: "Restano {n} s per la mossa.",
  toLobby: "Torna ai tavoli", roundPoints: "Punti della smazzata", gameTotal: "Partita (a {n})", noSuit: "manca un seme",
  primieraRule: "Primiera: di ogni seme conta la carta migliore (7 = 21, 6 = 18, asso = 16, 5 = 15, 4 = 14, 3 = 13, 2 = 12, figure = 10); serve almeno una carta per seme.",
  primieraNone: "{name}: manca un seme ({suits}): niente primiera.", primieraNoneMany: "{name}: mancano {n} semi ({suits}): niente primiera.",
  primieraNoneSome: "{name}: manca un seme: niente primiera.",
  choose: "Quali carte prendi con {card}?", takeNothing: "non prendere nulla", declare: "Dichiara", invite: "Invita a giocare: manda questo link",
  copy: "Copia il link", copied: "Copiato", share: "Condividi",
  qr: "Oppure chi è qui inquadra questo con la fotocamera del telefono:", qrLabel: "Codice QR del link d'invito",
  connecting: "Connessione…", lost: "Connessione persa, riconnessione…", moveWaits: "La tua giocata ({card}) non è ancora arrivata al server: parte appena torna la connessione.", moveNotSent: "La giocata non è partita: rigioca.", elsewhere: "Questo posto è aperto in un'altra scheda o dispositivo.",
  playHere: "Gioca qui", deck: "Carte", italian: "italiane", french: "francesi", language: "Lingua", settings: "Impostazioni", points: "Punti",
  spectatorOne: "1 spettatore", spectatorsMany: "{n} spettatori", perMove: "{n} s a mossa", away: "{name} non è al tavolo: il posto resta suo ancora {left}, poi gioca un bot.", back: "{name} è di nuovo al tavolo.",
  botLeft: "{name} ha lasciato la partita: da ora un bot gioca al suo posto.",
  watcherCame: "Qualcuno ora guarda la partita.", watcherWent: "Qualcuno ha smesso di guardare la partita.",
  nothingTaken: "La carta {card} non prende nulla: toccala di nuovo per posarla sul tavolo.",
  tapNotYours: "Non è ancora il tuo turno: sta giocando {name}.", tapWait: "La tua giocata sta arrivando al server.",
  tapHandFirst: "Prima tocca una carta della tua mano, poi una carta in tavola che prende.", tapNotTaken: "La carta {card} non prende {other}.",
  partner: "in squadra con te", newChat: "{n} nuovi messaggi in chat", newChatOne: "1 nuovo messaggio in chat", scopaYou: "Hai fatto scopa!", scopaOf: "{name} ha fatto scopa!",
  youLeftEnd: "Nessun vincitore: hai lasciato la partita, quindi è finita.", diamonds: "Quadri",
  tapHint: "Tocca una carta: si illumina ciò che prende; toccala di nuovo (o una carta illuminata) per giocarla.",
  takesOne: "La carta {card} prende {cards}: toccala di nuovo (o una carta illuminata) per giocarla.", or: " oppure ",
  takesChoice: "La carta {card} può prendere {ways}: toccala di nuovo e scegli quali carte prendere.", takesChoosing: "La carta {card} può prendere {ways}: scegli qui sotto quali carte prendere.",
  keysHint: "Tasti: da 1 a {n} scegli la carta in quella posizione della mano, lo stesso tasto di nuovo la gioca; Esc la lascia; ? mostra le regole.",
  me: "tu", botSeat: "{name} (bot)", scopa: "Scopa!", seat: "Posto {n}", freeSeat: "libero", emptySeat: "posto libero", inHand: "{n} in mano", awaySeat: "non è al tavolo",
  moving: "Il tuo tavolo passa a un altro server; riprovo…",
  notEncrypted: "Connessione non cifrata",
  notPrivate: "Il collegamento a questa pagina non è cifrato: in una rete di casa va bene, ma in una rete condivisa (un bar, un albergo) altri potrebbero vedere ciò che invii.",
  notPrivateHost: "Chi ospita il gioco può attivare la cifratura (TLS) nel suo server: allora il collegamento è privato.",
  leaveQuestion: "Lasci la partita? Finisce subito per tutti a questo tavolo, senza vincitore.",
  leaveYes: "Esci: chiudi la partita", stay: "Continua a giocare",
  leaveToBot: "Lasci la partita? Da ora il tuo posto lo gioca un bot; non potrai riprenderlo.",
  leaveEnds: "Lasci la partita? Finisce per tutti, senza vincitori: questo tavolo è stato creato per finire quando qualcuno se ne va.",
  leaveYesBot: "Esci: continua un bot",
  leftToBot: "Hai lasciato la partita: da ora il tuo posto lo gioca un bot.",
  heldBack: "Eri via da troppo tempo, così un bot ha giocato al tuo posto; ora riprendi tu.",
  botPlayedForYou: "Mentre eri via il bot ha giocato per te: {cards}.",
  stateWaiting: "in attesa di giocatori", statePlaying: "in corso", statePeopleAway: "in attesa che tornino i giocatori", privateTable: "privato",
  timedOut: "tempo scaduto, l'ha giocata il server", timedOutOf: "Il tempo di {name} è scaduto: il server ha giocato {card} al suo posto.", timedOutYou: "Il tuo tempo è scaduto: il server ha giocato {card} per te.",
  timedOutAway: "Mentre eri via è scaduto il tempo: il server ha giocato {cards} per te.",
  secondsLeft: "ancora {n} s per la mossa", declared: "{name} dichiara {kind} (+{n})",
  ended: "La partita è finita: {why}.", whyAbandoned: "qualcuno ha lasciato la partita", whyTarget: "una squadra ha raggiunto i punti",
  whyTrentino: "asso, 2 e 3 di denari presi da una squadra", whyAllDenari: "tutti i dieci denari presi da una squadra",
  description: "{game}, {n} giocatori{teams}, a {target} punti", teams: " a squadre", capture: "presa: {mode}",
  pointsBy: "+{n}", total: "{before} → {after}", leftoverTo: "Le carte rimaste in tavola vanno a {name}.",
  catPonino: "Ponino (scope raddoppiate)", catNapola: "Napola", catSevens: "Più sette", catAllSevens: "Tutti e quattro i sette",
  catTrentino: "Trentino (asso, 2, 3 di denari)", catReBello: "Re bello", catHonours: "Assi e figure",
  catPiccola: "Piccola", catGrande: "Grande", catDeclarations: "Mani dichiarate",
  under10: "sotto il dieci", tris: "tris", error: "{message}",
  abandoned: "abbandonata", finished: "Partite finite", showGames: "Mostra le partite finite", toFinished: "Vai alle partite finite",
  winnerLine: "ha vinto {name}", winnerTeamLine: "ha vinto la squadra di {name}", noGames: "Nessuna partita finita per ora.", replay: "Rivedi", watchReplay: "Rivedi la partita", backToEnd: "Torna al risultato",
  replayOf: "Partita #{id}", roundOf: "Smazzata {n} di {of}", stepOf: "giocata {k} di {of}", back1: "◀ Indietro", next1: "Avanti ▶",
  prevRound: "Smazzata precedente", nextRound: "Smazzata successiva", handOf: "Le carte di {name}", dealt: "Appena distribuite",
};

/** The server's refusals in Italian, by code (its English message is shown as it is). */
const ERRORS_IT: Record<ErrorCode, string> = catalog.errors;

/** Options in Italian, by option name: what the form calls it and what it means
 * (English: the name itself and the server's meaning, options.json). */
const OPTIONS_IT: Record<string, [string, string]> = catalog.options as unknown as Record<string, [string, string]>;

const VALUES_IT: Record<string, string> = catalog.values;

const GAMES: Record<string, string> = {
  scopa: "Scopa", scopone: "Scopone", "scopone-scientifico": "Scopone scientifico", quindici: "Scopa a quindici",
  escoba: "Escoba", cirulla: "Cirulla", frac: "Scopa Frac", trentino: "Scopone de trente",
};

export interface Speech {
  lang: Lang;
  w: Words;
  /** The server's refusal as this language says it. */
  error(code: string, message: string): string;
  /** An option's name and meaning as the form shows them (English: the server's meaning). */
  option(name: string, english: string): [string, string];
  /** An option's value as shown. */
  value(v: string): string;
  /** A player's name as shown: the server's own bots' names ("greedy-bot-3") in words ("Bot 2 (medium)"),
   * counted among the bots of the table's seats ``among`` (in seat order: Bot 1, Bot 2 whatever their seats). */
  name(n: string, among?: readonly (string | null | undefined)[]): string;
}

const SERVER_BOT = /^([a-z]+)-bot-(\d+)$/; // its number is the bot's seat (from 0), not what people count

/** The server's bot strategies as the create form names them (its "Bots" choice), and
 * the levels a terminal's create form asks for by name. */
const BOT_LEVELS: Record<string, "easy" | "medium" | "hard"> = {
  random: "easy", greedy: "medium", expert: "hard", easy: "easy", medium: "medium", hard: "hard" };

/** The words for cards of ``deck``: French cards say Quadri (Diamonds) where Italian ones say Denari. */
function forDeck(w: Words, deck: string): Words {
  if (deck !== "french") return w;
  const d = w.diamonds;
  return Object.fromEntries(Object.entries(w).map(([k, v]) => [k, v.replace(/Denari/g, d).replace(/denari/g, d.toLowerCase())])) as Words;
}

export function speech(lang: Lang, deck = "italian"): Speech {
  const w = forDeck(lang === "it" ? IT : EN, deck);
  return {
    lang, w,
    error: (code, message) => (lang !== "it" ? message : code === "bad_rules" && message ? `${ERRORS_IT.bad_rules}: ${rulesProblem(message)}`
      : refusal(message) ?? ERRORS_IT[code as ErrorCode] ?? message),
    option: (name, english) => (lang === "it" && OPTIONS_IT[name] ? OPTIONS_IT[name] : [name.replace(/_/g, " "), english]),
    value: (v) => (lang === "it" ? VALUES_IT[v] ?? v : v),
    name: (n, among) => {
      const bot = SERVER_BOT.exec(n); // a name only the server gives (server/core/text.py)
      if (!bot) return n;
      const level = BOT_LEVELS[bot[1]];
      const at = among?.indexOf(n) ?? -1;
      const count = at < 0 ? bot[2] : among!.slice(0, at + 1).filter((x) => x && SERVER_BOT.test(x)).length;
      return fill(w.botName, { n: count, level: level ? w[level] : bot[1] });
    },
  };
}

/** ``text`` with each {name} replaced by its value ("a {name}" becomes "ad {name}" before a vowel: "vanno ad Ada"). */
export function fill(text: string, values: Record<string, string | number>): string {
  return text
    .replace(/(^|[^\w'])a \{(\w+)\}/g, (m, before: string, k: string) =>
      k in values && /^[aeiouàèéìòù]/i.test(String(values[k]).trim()) ? `${before}ad {${k}}` : m)
    .replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m));
}

/** Why a table's rules do not work (the server's reasons, ``; ``-joined) in Italian; a reason the catalog does not know as it came. */
function rulesProblem(message: string): string {
  return refusal(message, catalog.rules) ?? message.split("; ").map((part) => refusal(part, catalog.rules) ?? part).join("; ");
}

/** The engine's reason for refusing a move (English, from one of the catalog's templates) in Italian. */
function refusal(message: string, templates: Record<string, string> = catalog.refusals): string | undefined {
  for (const [english, italian] of Object.entries(templates)) {
    const names: string[] = [];
    const source = english.split(/(\{\{|\}\}|\{\w+\})/).map((part) => {
      if (part === "{{" || part === "}}") return "\\" + part[0];
      const field = /^\{(\w+)\}$/.exec(part);
      if (field) { names.push(field[1]); return "(.*?)"; }
      return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    }).join("");
    const found = new RegExp(`^${source}$`, "s").exec(message);
    if (found) return names.reduce((text, k, i) => text.replace(`{${k}}`, found[i + 1]), italian.replace(/\{\{/g, "{").replace(/\}\}/g, "}"));
  }
  return undefined;
}

/** ``text`` as a sentence: its first letter a capital, a full stop at its end. */
export function sentence(text: string): string {
  const s = text.trim();
  return s ? `${s[0].toUpperCase()}${s.slice(1)}${/[.!?…]$/.test(s) ? "" : "."}` : s;
}

/** A place in a tournament as this language writes it: 1st, 2nd, 5th; 1º, 5º. */
export function ordinal(lang: Lang, n: number): string {
  if (lang === "it") return `${n}º`;
  const suffix = n % 100 >= 10 && n % 100 <= 20 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" } as Record<number, string>)[n % 10] ?? "th";
  return `${n}${suffix}`;
}

/** In Italian the Trentino's scopone is called as the Italian rule book calls it. */
const GAMES_IT: Record<string, string> = { ...GAMES, trentino: "Scopone trentino" };

/** A classic game's name as players say it, in ``lang``. */
export function gameName(preset: string | null | undefined, lang: Lang): string {
  return preset ? (lang === "it" ? GAMES_IT : GAMES)[preset] ?? preset : "Scopa";
}

export function defaultLang(): Lang {
  const saved = localStorage.getItem("scopa.lang");
  if (saved === "it" || saved === "en") return saved;
  return (navigator.language || "en").toLowerCase().startsWith("it") ? "it" : "en";
}

/** Every text in both languages (for the tests that look for English on an Italian page). */
export const ALL = { en: EN, it: IT, errors: ERRORS_IT, options: OPTIONS_IT };
