// The page's words in Italian and English (by the browser's language; switchable).
export type Lang = "it" | "en";

const EN = {
  title: "Scopa", yourName: "Your name", play: "Play", you: "You are", lobby: "Tables", noTables: "No tables yet: create one.",
  create: "Create a table", game: "Game", players: "Players", bots: "Bots for the empty seats", none: "none (wait for people)",
  easy: "easy", medium: "medium", hard: "hard", private: "Private (only with the invite link)", timer: "Turn timer",
  serverDefault: "the server's", noTimer: "none (private tables only)", more: "More options",
  join: "Join", watch: "Watch", stopWatching: "Back to the tables", leave: "Leave", chat: "Chat", send: "Send",
  rules: "Rules", close: "Close", yourTurn: "Your turn", turnOf: "Turn of", waiting: "Waiting for the other seats…",
  stock: "Stock", table: "Table", hand: "Your hand", plays: "This round", score: "Score", side: "Side",
  cards: "cards", denari: "denari", primiera: "primiera", scope: "scope", settebello: "settebello",
  roundEnd: "Round over", gameEnd: "Game over", winner: "Winner", next: "Continue", toLobby: "Back to the tables",
  choose: "Which cards do you take?", takeNothing: "take nothing", declare: "Declare", invite: "Invite link",
  connecting: "Connecting…", lost: "Connection lost; coming back…", elsewhere: "This seat is open in another tab or device.",
  playHere: "Play here", deck: "Deck", italian: "Italian", french: "French", language: "Lingua: italiano",
  spectators: "spectators", away: "away", back: "is back", bot: "bot", tapHint: "Tap a card: what it takes lights up; tap it again (or a lit card) to play.",
  me: "you", scopa: "Scopa!", seat: "seat", nameTaken: "That name is taken; the server gave you another.", inHand: "in hand",
  moving: "Your table is moving to another server; coming back…",
};
type Words = typeof EN;
const IT: Words = {
  title: "Scopa", yourName: "Il tuo nome", play: "Gioca", you: "Sei", lobby: "Tavoli", noTables: "Nessun tavolo: creane uno.",
  create: "Crea un tavolo", game: "Gioco", players: "Giocatori", bots: "Bot ai posti vuoti", none: "nessuno (aspetta persone)",
  easy: "facile", medium: "medio", hard: "difficile", private: "Privato (solo con il link d'invito)", timer: "Tempo per mossa",
  serverDefault: "quello del server", noTimer: "nessuno (solo tavoli privati)", more: "Altre opzioni",
  join: "Siediti", watch: "Guarda", stopWatching: "Torna ai tavoli", leave: "Esci", chat: "Chat", send: "Invia",
  rules: "Regole", close: "Chiudi", yourTurn: "Tocca a te", turnOf: "Tocca a", waiting: "In attesa degli altri giocatori…",
  stock: "Mazzo", table: "Tavolo", hand: "La tua mano", plays: "Questa mano", score: "Punti", side: "Squadra",
  cards: "carte", denari: "denari", primiera: "primiera", scope: "scope", settebello: "settebello",
  roundEnd: "Fine smazzata", gameEnd: "Fine partita", winner: "Vince", next: "Continua", toLobby: "Torna ai tavoli",
  choose: "Quali carte prendi?", takeNothing: "non prendere", declare: "Dichiara", invite: "Link d'invito",
  connecting: "Connessione…", lost: "Connessione persa; riprovo…", elsewhere: "Questo posto è aperto in un'altra scheda o dispositivo.",
  playHere: "Gioca qui", deck: "Carte", italian: "italiane", french: "francesi", language: "Language: English",
  spectators: "spettatori", away: "assente", back: "è tornato", bot: "bot", tapHint: "Tocca una carta: si illumina ciò che prende; toccala di nuovo (o una carta illuminata) per giocarla.",
  me: "tu", scopa: "Scopa!", seat: "posto", nameTaken: "Quel nome è preso; il server te ne ha dato un altro.", inHand: "in mano",
  moving: "Il tuo tavolo passa a un altro server; riprovo…",
};

export function words(lang: Lang): Words {
  return lang === "it" ? IT : EN;
}

export function defaultLang(): Lang {
  const saved = localStorage.getItem("scopa.lang");
  if (saved === "it" || saved === "en") return saved;
  return (navigator.language || "en").toLowerCase().startsWith("it") ? "it" : "en";
}
