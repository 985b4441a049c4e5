// The page's state: what the server has said, the person's choices (language, cards), the
// seat kept across reloads, and the names of seats and sides as the page shows them.
import { courtsIn, type Deck } from "./cards";
import { defaultLang, fill, type Lang, speech } from "./i18n";
import type {
  DeclarationOption, GameEnd, GameSummary, LegalMove, PublicView, Record as GameRecord, RoundEnd, SeatInfo, SeatView, TableInfo,
  TournamentInfo, TournamentNoTable, TournamentStandings,
} from "./protocol";

export type Body = Record<string, any>;
export interface Seat { token: string; table: string; lastEvent: number }

export const PRESETS = ["scopa", "scopone", "scopone-scientifico", "quindici", "escoba", "cirulla", "frac", "trentino"];
export const FOUR = new Set(["scopone", "scopone-scientifico"]);
export const LEVELS: Record<string, string> = { easy: "random", medium: "greedy", hard: "expert" };

export const app = document.getElementById("app") as HTMLElement;
export let lang: Lang = defaultLang();
courtsIn(lang);
export let deck: Deck = (localStorage.getItem("scopa.deck") as Deck) || "italian";
export let sp = speech(lang, deck);
export let t = sp.w;

/** The page speaks ``next`` from now on (kept for the next visit). */
export function setLang(next: Lang): void {
  lang = next; sp = speech(lang, deck); t = sp.w; courtsIn(lang);
  localStorage.setItem("scopa.lang", lang); document.documentElement.lang = lang;
}

/** The cards look like ``next`` from now on (kept for the next visit). */
export function setDeck(next: Deck): void {
  deck = next; localStorage.setItem("scopa.deck", deck); sp = speech(lang, deck); t = sp.w; // its suits' words too
}

// ------------------------------------------------------------------ state
export const st = {
  name: localStorage.getItem("scopa.name") || "",
  you: "", connected: false, replaced: false, status: "",
  tables: new Map<string, TableInfo>(), lobbyChat: [] as string[], tableChat: [] as string[],
  tableId: null as string | null, seat: null as number | null, watching: false, info: null as TableInfo | null,
  seats: [] as SeatInfo[], view: null as (Partial<SeatView> & PublicView) | null,
  legal: [] as LegalMove[], declarations: [] as DeclarationOption[], turnEvent: null as number | null,
  picked: null as string | null,
  choices: null as LegalMove[] | null, // the picked card's ways to take, while the person chooses one (board.ts)
  roundEnd: null as RoundEnd | null, gameEnd: null as GameEnd | null,
  lanHosts: [] as string[], // where other machines reach the server (welcome's lan_hosts): a loopback page's invites name the first
  invite: "" as string, flash: "", scopas: new Set<string>(), // the cards that made a scopa this round (seen live)
  forced: new Set<string>(), // the cards the server played for someone whose time ran out, this round
  bots: new Set<string>(), // the cards a bot played for a person (away, or gone), this round
  timedOut: "", // the server played for this person when their time ran out: said until they play again
  takeovers: new Map<number, { round: number; plays: number; until?: { round: number; plays: number }; why?: "away" | "left" }>(), // seats a bot took over here: from which round's play (until its person took it back)
  away: new Map<number, number>(), // the seats the server said are away, and when each hold runs out (Date.now() scale; a bot then plays it)
  leaving: false, // the person asked to leave this game (its end, if that ends it, says so to them)
  unread: 0, // chat messages that came while the chat was out of view
  deadline: 0, // when the turn's time runs out (Date.now() scale; 0: no clock)
  totalsBefore: [] as number[], // the game's totals when the round began
  games: null as GameSummary[] | null, // the server's finished games, once asked for
  replay: null as { record: GameRecord; round: number; step: number; leaver?: number | null } | null, // a finished game shown again (leaver: the seat whose person left an abandoned one, as its end or the list of games said)
  quick: null as { preset: string; others: number } | null, // waiting for a quick game (PROTOCOL.md §16)
  tournaments: null as Map<string, TournamentInfo> | null, // the server's tournaments, once asked for
  standings: new Map<string, TournamentStandings>(), // each tournament's last standings seen
  finished: null as TournamentInfo[] | null, // the finished tournaments, once asked for
  lastFinal: null as TournamentStandings | null, // the final standings the server last pushed (a tournament of ours is over)
  noTable: null as TournamentNoTable | null, // the server's last word on a round that gave us no table (out, a bye, over)
  watchInvite: "", // the invite the watched table was watched with (a private one's): it is watched again with it
  rematch: null as TableInfo | null, // a rematch of the game just over, offered by another of its players (rematch.ts)
  listAsks: [] as boolean[], // the tournament_list asks not yet answered: whether each was for the finished ones
};

/** The seat tokens of the last tables one sat at, by table: a private table's finished
 * game is listed and shown again to whoever held one (list_games, get_record). */
export function heldTokens(): Record<string, string> {
  try { return JSON.parse(localStorage.getItem("scopa.tokens") || "{}") as Record<string, string>; } catch { return {}; }
}
export function keepToken(table: string, token: string): void {
  const kept = Object.entries(heldTokens()).filter(([t]) => t !== table).slice(-15);
  localStorage.setItem("scopa.tokens", JSON.stringify(Object.fromEntries([...kept, [table, token]])));
}

export function savedSeat(): Seat | null {
  try { return JSON.parse(localStorage.getItem("scopa.seat") || "null") as Seat | null; } catch { return null; }
}
export function saveSeat(seat: Seat | null): void {
  if (seat) localStorage.setItem("scopa.seat", JSON.stringify(seat)); else localStorage.removeItem("scopa.seat");
}

/** The marks of this round's plays (a scopa, a card the server played when time ran
 * out), kept for a reload: the server's snapshot lists the plays without them. */
export function keepMarks(): void {
  const marks = { table: st.tableId, round: st.view?.round ?? 0, scopas: [...st.scopas], forced: [...st.forced] };
  localStorage.setItem("scopa.marks", JSON.stringify(marks));
}
export function restoreMarks(): void {
  try {
    const kept = JSON.parse(localStorage.getItem("scopa.marks") || "null") as { table: string; round: number; scopas: string[]; forced: string[] } | null;
    if (!kept || kept.table !== st.tableId || kept.round !== st.view?.round) return;
    for (const c of kept.scopas) st.scopas.add(c);
    for (const c of kept.forced) st.forced.add(c);
  } catch { /* none kept */ }
}

/** A lobby lists the tables one may still join or watch. */
export function live(x: TableInfo): boolean { return x.state === "waiting" || x.state === "playing"; }

export function seatCount(): number { return st.info?.rules?.players ?? (st.seats.length || 2); }

/** The names of the table's seats, in seat order (the server's bots among them are counted from 1 as shown). */
function tableNames(): (string | null | undefined)[] {
  if (!st.seats.length) return st.info?.seats ?? [];
  const names: (string | null)[] = Array(Math.max(...st.seats.map((s) => s.seat)) + 1).fill(null);
  for (const s of st.seats) names[s.seat] = s.name;
  return names;
}

/** A name at this table as shown (a server's bot's by its number among the table's bots). */
export function nameOf(n: string): string { return sp.name(n, tableNames()); }

/** A seated player's name as shown: a person's seat that a bot plays now (its person
 * left, or did not come back) says so ("bruno (bot)"); the server's own bots are named as bots already. */
export function shownName(s: SeatInfo, among: readonly (string | null | undefined)[] = tableNames()): string {
  const name = sp.name(s.name, among);
  return s.bot && name === s.name ? fill(t.botSeat, { name }) : name;
}

/** A listed table's seat ``i``, held by ``name``: a seat the table's map says a bot plays
 * reads as a bot's ("nipote (bot)" for a person's seat a bot plays on). */
export function listedName(x: TableInfo, i: number, name: string): string {
  return shownName({ seat: i, name, side: 0, bot: x.bots?.includes(i) ?? false }, x.seats);
}

/** Who played ``card`` this round at seat ``i``: the bot, for a card a bot played for the
 * seat's person (``st.bots``), else the seat's player (a person's name, a server's bot's). */
export function playerName(i: number, card: string): string {
  const seated = st.seats.find((s) => s.seat === i);
  if (!seated || !st.takeovers.has(i)) return seatName(i);
  return st.bots.has(card) ? shownName({ ...seated, bot: true }) : nameOf(seated.name);
}

/** Whether the next play of seat ``i`` is a bot's for its person: a bot took the seat over and plays it now. */
export function botPlays(i: number): boolean {
  return st.takeovers.has(i) && !!st.seats.find((s) => s.seat === i)?.bot;
}

/** The marks of the round's plays a snapshot lists (a scopa, the server's play when time ran out, a bot's play for a person). */
export function marksOf(plays: { card: string; scopa?: boolean; forced?: string | null; bot?: boolean }[]): void {
  for (const p of plays) {
    if (p.scopa) st.scopas.add(p.card);
    if (p.forced === "timeout") st.forced.add(p.card);
    if (p.bot) st.bots.add(p.card);
  }
}

/** The seats a bot took over, as a snapshot tells them: from which play (and until which, once the person took it back). */
export function takeoversOf(seats: SeatInfo[]): void {
  for (const s of seats) {
    if (s.bot_from) st.takeovers.set(s.seat, { round: s.bot_from.round, plays: s.bot_from.play,
      until: s.bot_until ? { round: s.bot_until.round, plays: s.bot_until.play } : undefined });
  }
}

/** The person took seat ``i`` back from the bot that played it: a person's seat again, the bot's plays still the bot's. */
export function takenBack(i: number): void {
  const seat = st.seats.find((s) => s.seat === i);
  if (seat) seat.bot = false;
  const from = st.takeovers.get(i);
  if (from && st.view) from.until = { round: st.view.round, plays: st.view.round_plays?.length ?? 0 };
}

export function seatName(i: number): string {
  const seated = st.seats.find((s) => s.seat === i);
  if (seated) return shownName(seated);
  const named = st.info?.seats?.[i];
  return named ? nameOf(named) : fill(t.seat, { n: Number.isInteger(i) ? i + 1 : "?" });
}

/** Each side's name (its players' names), one per side of the game. */
export function sideNames(): string[] {
  const sides = Math.max(st.view?.totals?.length ?? 0, st.view?.piles?.length ?? 0, new Set(st.seats.map((s) => s.side)).size,
    st.roundEnd?.totals.length ?? 0) || seatCount();
  return Array.from({ length: sides }, (_, i) => sideName(i));
}

export function sideName(i: number): string {
  const names = st.seats.filter((s) => s.side === i).map((s) => shownName(s));
  const named = st.info?.seats?.[i];
  return names.length ? names.join(" + ") : named ? nameOf(named) : fill(t.seat, { n: i + 1 });
}

/** The side of the page's player (none when watching). */
export function mySide(): number | undefined {
  return st.watching ? undefined : st.seats.find((s) => s.seat === st.seat)?.side;
}

/** What a person does next in the lobby: the news of the game they left is old from then on. */
export const NEXT_STEPS = new Set(["quick_play", "create_table", "join_table", "watch_table", "tournament_join", "tournament_create", "list_games", "get_record"]);

/** Whose leaving ended the game ``game`` (a seat), as the page was told: its end, when the
 * page is at its table; else its line in the finished games. The record does not say it. */
export function leaverOf(game: string): number | null | undefined {
  return st.tableId && st.gameEnd ? st.gameEnd.leaver : st.games?.find((g) => g.id === game)?.leaver;
}
