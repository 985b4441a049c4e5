// The Scopa browser client: the protocol (docs/PROTOCOL.md) over the server's WebSocket,
// one binary message per command.
import { decode, encode } from "@msgpack/msgpack";
import { cardName, cardSvg, type Deck } from "./cards";
import { animate, landing, measure } from "./anim";
import { button, dialog, h } from "./dom";
import { defaultLang, fill, gameName, type Lang, speech } from "./i18n";
import { renderMarkdown } from "./markdown";
import { qrSvg } from "./qr";
import type {
  DeclarationOption, GameEnd, GameSummary, LegalMove, PublicView, Record as GameRecord, RoundEnd, SeatInfo, SeatView, TableInfo,
  TournamentInfo, TournamentStandings,
} from "./protocol";
import { boardAt, roundEndAt } from "./replay";
import { describe, gameEndLine, gameEndTotals, roundTable, scorePanel } from "./score";

type Body = Record<string, any>;
interface Frame { v: number; seq: number; sender: string; recipient: string; re: number | null; name: string; body: Body }
interface Seat { token: string; table: string; lastEvent: number }
interface Asked { name: string; body: Body; recipient: string }

const PRESETS = ["scopa", "scopone", "scopone-scientifico", "quindici", "escoba", "cirulla", "frac", "trentino"];
const FOUR = new Set(["scopone", "scopone-scientifico"]);
const LEVELS: Record<string, string> = { easy: "random", medium: "greedy", hard: "expert" };

const app = document.getElementById("app") as HTMLElement;
let lang: Lang = defaultLang();
let sp = speech(lang);
let t = sp.w;
let deck: Deck = (localStorage.getItem("scopa.deck") as Deck) || "italian";

// ------------------------------------------------------------------ state
const st = {
  name: localStorage.getItem("scopa.name") || "",
  you: "", connected: false, replaced: false, status: "",
  tables: new Map<string, TableInfo>(), lobbyChat: [] as string[], tableChat: [] as string[],
  tableId: null as string | null, seat: null as number | null, watching: false, info: null as TableInfo | null,
  seats: [] as SeatInfo[], view: null as (Partial<SeatView> & PublicView) | null,
  legal: [] as LegalMove[], declarations: [] as DeclarationOption[], turnEvent: null as number | null,
  picked: null as string | null, roundEnd: null as RoundEnd | null, gameEnd: null as GameEnd | null,
  invite: "" as string, flash: "", scopas: new Set<string>(), // the cards that made a scopa this round (seen live)
  forced: new Set<string>(), // the cards the server played for someone whose time ran out, this round
  notice: "", // what the person should know about their name
  deadline: 0, // when the turn's time runs out (Date.now() scale; 0: no clock)
  totalsBefore: [] as number[], // the game's totals when the round began
  games: null as GameSummary[] | null, // the server's finished games, once asked for
  replay: null as { record: GameRecord; round: number; step: number } | null, // a finished game shown again
  quick: null as { preset: string; others: number } | null, // waiting for a quick game (PROTOCOL.md §16)
  tournaments: null as Map<string, TournamentInfo> | null, // the server's tournaments, once asked for
  standings: new Map<string, TournamentStandings>(), // each tournament's last standings seen
};
// A page just (re)loaded knows nothing of its table: its first resume asks for a snapshot
// (an event number above any the server gave), later ones for what they missed.
let fresh = true;
let asking = ""; // the name the person asked for, while the server finds it taken
let handSize = 3; // cards a deal gives each hand (counted at the round's start)
const EVERYTHING = Number.MAX_SAFE_INTEGER;
// The commands that tell whose turn it is, each with that turn's clock (turn_left_ms).
const TURN_TELLERS = new Set(["your_turn", "round_start", "played", "declared", "seat_back", "snapshot"]); // 2**53 - 1, still an integer on the wire

/** The seat tokens of the last tables one sat at, by table: a private table's finished
 * game is listed and shown again to whoever held one (list_games, get_record). */
function heldTokens(): Record<string, string> {
  try { return JSON.parse(localStorage.getItem("scopa.tokens") || "{}") as Record<string, string>; } catch { return {}; }
}
function keepToken(table: string, token: string): void {
  const kept = Object.entries(heldTokens()).filter(([t]) => t !== table).slice(-15);
  localStorage.setItem("scopa.tokens", JSON.stringify(Object.fromEntries([...kept, [table, token]])));
}

function savedSeat(): Seat | null {
  try { return JSON.parse(localStorage.getItem("scopa.seat") || "null") as Seat | null; } catch { return null; }
}
function saveSeat(seat: Seat | null): void {
  if (seat) localStorage.setItem("scopa.seat", JSON.stringify(seat)); else localStorage.removeItem("scopa.seat");
}

// ------------------------------------------------------------------ the connection
let ws: WebSocket | null = null;
let seq = 0;
let retry = 0;
let retryTimer = 0;
// In a cluster the table may play on another server: its `redirect` answers one of these
// commands (by seq), and the page's server carries the next connection there (/ws?ticket=).
const REDIRECTED = new Set(["hello", "join_table", "watch_table"]);
let asked = new Map<number, Asked>();
let handOn: { ticket: string; again: Asked } | null = null; // the connection a redirect asks for
let again: Asked | null = null; // the command to send again once welcomed there

function send(name: string, body: Body, recipient = "lobby", re: number | null = null): void {
  if (!ws || ws.readyState !== WebSocket.OPEN) return;
  seq += 1;
  if (REDIRECTED.has(name)) asked.set(seq, { name, body, recipient });
  ws.send(encode({ v: 2, seq, sender: st.you || "guest", recipient, re, name, body }));
}

function connect(): void {
  if (ws || st.replaced || !st.name) return;
  clearTimeout(retryTimer);
  const going = handOn;
  handOn = null;
  const query = going ? `?ticket=${encodeURIComponent(going.ticket)}` : "";
  const socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws${query}`);
  socket.binaryType = "arraybuffer";
  ws = socket;
  seq = 0;
  asked = new Map();
  again = null;
  st.you = "";
  socket.onopen = () => {
    retry = 0;
    st.connected = true;
    const seat = savedSeat();
    let hello: Body = { name: st.name, client: "scopa-web" };
    if (going?.again.name === "hello") hello = { ...going.again.body };
    else if (going) again = going.again;
    else if (seat) hello = resumeHello(seat);
    if (going) hello.ticket = going.ticket;
    send("hello", hello);
  };
  socket.onmessage = (e) => {
    if (socket.readyState !== WebSocket.OPEN) return; // closing: handed on, or going
    const frame = decode(new Uint8Array(e.data as ArrayBuffer)) as Frame;
    if (frame && typeof frame === "object") handle(frame);
  };
  socket.onclose = () => {
    if (ws !== socket) return; // a connection the page has already let go
    ws = null;
    st.connected = false;
    st.legal = [];
    if (handOn) { connect(); return; }
    if (!st.replaced) {
      st.status = t.lost;
      retry = Math.min(retry + 1, 5);
      retryTimer = window.setTimeout(connect, 300 * retry);
    }
    render();
  };
}

function resumeHello(seat: Seat): Body {
  return { name: st.name, client: "scopa-web", resume: { token: seat.token, last_event: fresh ? EVERYTHING : seat.lastEvent, table: seat.table } };
}

function resumeAgain(): void {
  const seat = savedSeat();
  if (seat && !st.you) send("hello", resumeHello(seat));
}

document.addEventListener("visibilitychange", () => { if (!document.hidden) connect(); });
window.addEventListener("online", () => connect());

// ------------------------------------------------------------------ commands from the server
function handle(f: Frame): void {
  const b = f.body ?? {};
  if (typeof b.event === "number") {
    const seat = savedSeat();
    if (seat && seat.lastEvent < b.event && st.seat !== null && !fresh) saveSeat({ ...seat, lastEvent: b.event });
  }
  if (TURN_TELLERS.has(f.name) && (f.name !== "snapshot" || b.public)) {
    st.deadline = typeof b.turn_left_ms === "number" ? Date.now() + b.turn_left_ms : 0; // none: no clock runs
  }
  switch (f.name) {
    case "ping": send("pong", { nonce: b.nonce ?? 0 }, f.sender, f.seq); return;
    case "welcome": {
      st.you = b.you;
      if (serverTimeout !== (b.turn_timeout ?? null)) { serverTimeout = b.turn_timeout ?? null; form = null; }
      const given = String(b.you).replace(/^player:/, "");
      if (given !== st.name) { st.name = given; localStorage.setItem("scopa.name", given); }
      st.status = "";
      if (asking && asking !== given) st.notice = fill(t.nameTaken, { asked: asking, given });
      asking = "";
      if (!savedSeat()) send("watch_lobby", {});
      if (again) { send(again.name, again.body, again.recipient); again = null; } else if (!savedSeat()) joinFromLink();
      break;
    }
    case "error":
      if (b.code === "unavailable" && !st.you && savedSeat()) {
        // The seat's table is between two servers of a cluster: ask for it again shortly.
        st.status = t.moving;
        clearTimeout(retryTimer);
        retry = Math.min(retry + 1, 5);
        retryTimer = window.setTimeout(resumeAgain, 300 * retry);
        break;
      }
      if (b.code === "bad_token") { saveSeat(null); st.seat = null; st.tableId = null; send("hello", { name: st.name, client: "scopa-web" }); return; }
      if (b.code === "name_taken" && !st.you) {
        asking = asking || st.name;
        st.name = `${asking.slice(0, 20)}${Math.floor(Math.random() * 90 + 10)}`;
        send("hello", { name: st.name, client: "scopa-web" });
        return;
      }
      if (["already_at_table", "already_waiting", "not_waiting"].includes(String(b.code))) st.quick = null;
      st.status = sp.error(String(b.code), String(b.message ?? ""));
      break;
    case "redirect": {
      const answered = asked.get(f.re ?? -1);
      if (!answered || !ws) break;
      handOn = { ticket: String(b.ticket), again: answered };
      send("bye", { reason: "handed on" });
      ws.close();
      return;
    }
    case "bye":
      if (/another connection/.test(b.reason ?? "")) { st.replaced = true; st.status = t.elsewhere; }
      break;
    case "games": st.games = b.games; break;
    case "record": st.replay = { record: b.record, round: 0, step: 0 }; window.scrollTo(0, 0); break;
    case "tables": st.tables = new Map((b.tables as TableInfo[]).filter(live).map((x) => [x.id, x])); break;
    case "table_update": {
      const info = b.table as TableInfo;
      if (live(info)) st.tables.set(info.id, info); else st.tables.delete(info.id);
      if (info.id === st.tableId) st.info = info;
      break;
    }
    case "table_created":
      st.info = b.table;
      if (b.invite) st.invite = `${location.origin}/?invite=${encodeURIComponent(`${b.table.id}.${b.invite}`)}`;
      break;
    case "quick_waiting": if (st.quick) st.quick.others = b.others; break;
    case "tournaments": st.tournaments = new Map((b.tournaments as TournamentInfo[]).map((x) => [x.id, x])); break;
    case "tournament_update": (st.tournaments ??= new Map()).set(b.tournament.id, b.tournament); break;
    case "tournament_standings": st.standings.set(b.tournament, b as TournamentStandings); break;
    case "joined":
      st.quick = null;
      st.tableId = b.table; st.seat = b.seat; st.watching = false; st.gameEnd = null; st.roundEnd = null;
      saveSeat({ token: b.token, table: b.table, lastEvent: savedSeat()?.lastEvent ?? 0 });
      keepToken(b.table, b.token);
      if (!b.resumed) fresh = false; // a seat just taken: every event of its table comes from now on
      st.info = st.tables.get(b.table) ?? st.info;
      break;
    case "game_start": st.seats = b.seats; st.gameEnd = null; if (st.info) st.info = { ...st.info, state: "playing" }; break;
    case "snapshot":
      fresh = false;
      st.info = b.table; st.tableId = b.table.id;
      if (b.seats?.length) st.seats = b.seats;
      st.view = (b.you ?? b.public) as typeof st.view;
      if (b.you) st.seat = b.you.seat;
      st.totalsBefore = [...(st.view?.totals ?? [])];
      st.legal = [];
      break;
    case "round_start": roundStart(b); break;
    case "deal":
      if (st.view) { st.view.hand = b.hand; st.view.stock = b.stock; st.view.hand_sizes = st.view.hand_sizes.map(() => b.hand.length); }
      break;
    case "your_turn":
      st.view = b.view; st.legal = b.legal; st.declarations = b.declarations ?? []; st.turnEvent = b.event;
      st.picked = null;
      break;
    case "played": {
      const before = measure(app);
      played(b);
      render();
      animate(before, { seat: b.seat, card: b.card, captured: b.captured ?? [], scopa: !!b.scopa }, app, (c) => cardSvg(c, deck), t.scopa);
      return;
    }
    case "declared": st.flash = fill(t.declared, { name: seatName(b.seat), kind: t[b.kind as "tris"] ?? b.kind, n: b.points }); break;
    case "round_end": st.roundEnd = b as RoundEnd; st.deadline = 0; if (st.view) st.view.totals = b.totals; break;
    case "game_end":
      st.gameEnd = b as GameEnd; st.legal = []; st.deadline = 0; saveSeat(null);
      // the last round's box, if open, says who won too
      document.querySelector("dialog[open]#round-end > div")?.prepend(h("p", { class: "winner" }, gameEndLine(sp, st.gameEnd, sideName, mySide())));
      window.scrollTo(0, 0);
      break;
    case "left":
      saveSeat(null);
      if (st.gameEnd) break; // the game's end stays on screen until "Back to the tables"
      st.tableId = null; st.seat = null; st.view = null; st.legal = []; st.watching = false;
      send("watch_lobby", {});
      break;
    case "chat_message": {
      const line = `${String(b.author).replace(/^player:/, "")}: ${b.text}`;
      (f.sender.startsWith("table:") ? st.tableChat : st.lobbyChat).push(line);
      break;
    }
    case "seat_away": if (b.seat !== st.seat) st.flash = fill(t.away, { name: b.name }); break;
    case "seat_back": if (b.seat !== st.seat) st.flash = fill(t.back, { name: b.name }); break;
    case "seat_replaced": st.flash = fill(t.bot, { name: b.name }); break;
    default: return;
  }
  render();
}

function played(b: Body): void {
  const v = st.view;
  if (!v) return;
  v.table = b.table;
  if (b.seat === st.seat && v.hand) v.hand = v.hand.filter((c) => c !== b.card);
  if (v.hand_sizes) v.hand_sizes[b.seat] = Math.max(0, (v.hand_sizes[b.seat] ?? 1) - 1);
  v.round_plays = [...(v.round_plays ?? []), { seat: b.seat, card: b.card, captured: b.captured }];
  if (b.scopa) st.scopas.add(b.card);
  if (b.forced === "timeout") st.forced.add(b.card);
  const players = st.info?.rules?.players ?? st.seats.length ?? 2;
  v.turn = (b.seat + 1) % Math.max(players, 1);
  if (b.seat === st.seat) st.legal = [];
  st.picked = null;
  if (b.forced === "timeout") {
    const card = cardName(b.card, deck);
    st.flash = b.seat === st.seat ? fill(t.timedOutYou, { card }) : fill(t.timedOut, { card, name: seatName(b.seat) });
  } else if (b.scopa) st.flash = `${seatName(b.seat)}: ${t.scopa}`; // a player's news stays up until they play
  else if (b.seat === st.seat || st.seat === null) st.flash = "";
  if (v.hand_sizes?.every((n) => n === 0) && v.stock > 0 && !v.hand) redeal(v); // a spectator's count
}

/** A lobby lists the tables one may still join or watch. */
function live(x: TableInfo): boolean { return x.state === "waiting" || x.state === "playing"; }

function seatCount(): number { return st.info?.rules?.players ?? (st.seats.length || 2); }

/** A round begins: its table, whose turn it is (the dealer's next seat), how many cards
 * each hand holds (the deck's 40 less the table and the stock, shared out), the game's
 * totals so far and empty piles. */
function roundStart(b: Body): void {
  const n = seatCount();
  const before = st.view;
  const each = Math.max(0, Math.floor((40 - b.table.length - b.stock) / n));
  handSize = each || handSize;
  st.roundEnd = null; st.scopas.clear(); st.forced.clear();
  st.totalsBefore = [...(before?.totals ?? [])];
  st.view = {
    ...(before ?? {}), round: b.round, table: b.table, stock: b.stock, round_plays: [], dealer: b.dealer,
    turn: (b.dealer + 1) % n, hand_sizes: Array(n).fill(each), totals: before?.totals ?? [], piles: [], hand: before?.hand ? [] : undefined,
  } as typeof st.view;
}

/** Every hand is empty and the stock is not: a spectator counts the next deal itself. */
function redeal(v: NonNullable<typeof st.view>): void {
  const n = v.hand_sizes.length;
  const size = Math.min(handSize, Math.floor(v.stock / n));
  v.hand_sizes = v.hand_sizes.map(() => size);
  v.stock -= size * n;
}

function joinFromLink(): void {
  // ?invite=TABLE.CODE (the invite as one string), or ?table=ID for a public table
  const q = new URLSearchParams(location.search);
  const one = q.get("invite") ?? "";
  const dot = one.indexOf(".");
  const table = dot > 0 ? one.slice(0, dot) : q.get("table");
  const invite = dot > 0 ? one.slice(dot + 1) : q.get("invite");
  if (table && !st.tableId) send("join_table", { table, invite: invite || null });
}

// ------------------------------------------------------------------ playing
function movesWith(card: string): LegalMove[] { return st.legal.filter((m) => m.card === card); }

function play(m: LegalMove): void {
  send("play", { card: m.card, capture: m.capture, turn: st.turnEvent }, `table:${st.tableId}`);
  st.picked = null;
  st.legal = [];
  render();
}

function choose(moves: LegalMove[]): void {
  if (moves.length === 1) { play(moves[0]); return; }
  const d = dialog(t.choose, t.close, "choose");
  for (const m of moves) {
    const label = m.capture.length ? m.capture.map((c) => cardName(c, deck)).join(" + ") : t.takeNothing;
    d.body.append(button(label, () => { d.close(); play(m); }));
  }
}

function tapHand(card: string): void {
  if (!st.legal.length) return;
  if (st.picked === card) choose(movesWith(card));
  else st.picked = card;
  render();
}

function tapTable(card: string): void {
  if (!st.picked) return;
  const moves = movesWith(st.picked).filter((m) => m.capture.includes(card));
  if (moves.length) choose(moves);
}

document.addEventListener("keydown", (e) => {
  if ((e.target as HTMLElement).tagName === "INPUT" || document.querySelector("dialog[open]")) return;
  const hand = st.view?.hand ?? [];
  const n = Number.parseInt(e.key, 10);
  if (n >= 1 && n <= hand.length) { tapHand(hand[n - 1]); e.preventDefault(); }
  else if (e.key === "Escape") { st.picked = null; render(); }
  else if (e.key === "?") showRules();
});

// ------------------------------------------------------------------ drawing helpers
function seatName(i: number): string {
  const named = st.seats[i]?.name ?? st.info?.seats?.[i];
  return named ? sp.name(named) : fill(t.seat, { n: Number.isInteger(i) ? i + 1 : "?" });
}

function showRules(): void {
  const d = dialog(t.rules, t.close, "rules");
  fetch(`rules.${lang}.md`).then((r) => r.text()).then((text) => d.body.append(h("div", { class: "rules", lang }, renderMarkdown(text, 3))));
}

/** A card shown, not played (a replay's). */
function cardFace(card: string): HTMLElement {
  const f = h("span", { class: "card", role: "img", "aria-label": cardName(card, deck), "data-card": card });
  f.append(cardSvg(card, deck));
  return f;
}

function cardButton(card: string, cls: string, onclick: () => void): HTMLButtonElement {
  const b = h("button", { class: `card ${cls}${landing.has(card) ? " landing" : ""}`, type: "button", "aria-label": cardName(card, deck), "data-card": card, onclick });
  b.append(cardSvg(card, deck));
  return b;
}

// ------------------------------------------------------------------ screens
function render(): void {
  sayNotPrivate();
  if (!st.name) return nameScreen();
  if (st.tableId) return tableScreen();
  if (st.replay) return replayScreen();
  return lobbyScreen();
}

function setLang(next: Lang): void {
  lang = next; sp = speech(lang); t = sp.w;
  localStorage.setItem("scopa.lang", lang); document.documentElement.lang = lang;
  form = null; // drawn again in this language
  sayNotPrivate();
  render();
}

/** The server's notice on a page served without TLS, in the page's language: whole on
 * the name screen, one line once the person is in (the phone's screen is the game's). */
function sayNotPrivate(): void {
  const notice = document.getElementById("not-private");
  const said = st.name ? t.notPrivateShort : t.notPrivate;
  if (notice && notice.textContent !== said) notice.textContent = said;
}

function choice(id: string, label: string, options: [string, string][], value: string, onchange: (v: string) => void): HTMLElement {
  const select = h("select", { id, onchange: () => onchange(select.value) },
    ...options.map(([v, text]) => h("option", { value: v, selected: v === value }, text)));
  return h("label", { for: id, class: "inline" }, label, select);
}

function header(): HTMLElement {
  return h("header", { class: "bar" }, h("h1", { class: "grow" }, `${t.title} · ${st.name}`), button(t.rules, showRules, "quiet"));
}

/** The page's settings, at its foot: the cards' look and the language. */
function settings(): HTMLElement {
  return h("footer", { class: "bar panel", "aria-label": t.settings },
    choice("deck", t.deck, [["italian", t.italian], ["french", t.french]], deck, (v) => {
      deck = v as Deck; localStorage.setItem("scopa.deck", deck); render();
    }),
    languageChoice());
}

function languageChoice(): HTMLElement {
  return choice("lang", t.language, [["it", "italiano"], ["en", "English"]], lang, (v) => setLang(v as Lang));
}

function statusLine(): HTMLElement | string {
  const text = st.connected ? st.status : (st.status || t.connecting);
  if (!text && !st.replaced && !st.notice) return "";
  const s = h("p", { class: "status", role: "status" }, text);
  if (st.replaced) s.append(" ", button(t.playHere, () => { st.replaced = false; st.status = ""; connect(); }));
  if (st.notice) {
    s.append(text ? " " : "", st.notice, " ", button(t.changeName, () => {
      st.notice = ""; st.name = ""; st.you = ""; st.connected = false; localStorage.removeItem("scopa.name");
      const old = ws;
      ws = null;
      old?.close();
      render();
    }, "quiet"), " ", button(t.close, () => { st.notice = ""; render(); }, "quiet"));
  }
  return s;
}

function nameScreen(): void {
  const input = h("input", { id: "name", maxlength: 24, pattern: "[A-Za-z0-9_.\\-\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u024F]{1,24}", autocomplete: "nickname", required: true });
  const form = h("form", { class: "panel" }, h("label", { for: "name" }, t.yourName), input, h("p", {}, h("button", { type: "submit" }, t.play)));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const name = input.value.trim().normalize("NFC").replace(/[^A-Za-z0-9_.\-\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u024F]/g, "").slice(0, 24);
    if (!name) return;
    st.name = name; localStorage.setItem("scopa.name", name); connect(); render();
  });
  const q = new URLSearchParams(location.search);
  const invited = q.has("invite") || q.has("table") ? h("p", { class: "status", id: "invited" }, t.invited) : "";
  app.replaceChildren(h("header", { class: "bar" }, h("h1", { class: "grow" }, t.title), languageChoice()), invited, form);
  input.focus();
}

function chatBox(lines: string[], recipient: () => string, id: string): HTMLElement {
  const log = h("ul", { class: "chat", "aria-label": t.chat, tabindex: 0 }, ...lines.slice(-50).map((l) => h("li", {}, l)));
  const keep = document.getElementById(id) as HTMLInputElement | null;
  const input = keep ?? h("input", { id, "aria-label": t.chat, maxlength: 300, class: "grow" });
  const form = h("form", { class: "bar" }, input, h("button", { type: "submit" }, t.send));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    if (input.value.trim()) send("chat", { text: input.value.trim() }, recipient());
    input.value = "";
  });
  setTimeout(() => log.scrollTo(0, log.scrollHeight));
  return h("section", { class: "panel", "aria-label": t.chat }, h("h2", {}, t.chat), log, form);
}

function lobbyScreen(): void {
  app.removeAttribute("data-mine");
  const list = [...st.tables.values()].filter(live);
  const tables = h("ul", { class: "tables" }, ...list.map((x) => h("li", {},
    h("span", { class: "grow" }, `#${x.id} ${describe(sp, x.rules)} · ${x.state === "waiting" ? t.stateWaiting : t.statePlaying}${x.private ? ` · ${t.privateTable}` : ""} · ${x.seats.map((s) => (s ? sp.name(s) : t.emptySeat)).join(", ")}${x.spectators ? ` · ${x.spectators} ${t.spectators}` : ""}`),
    x.state === "waiting" && x.seats.includes(null) ? button(t.join, () => send("join_table", { table: x.id })) : "",
    button(t.watch, () => { st.watching = true; st.tableId = x.id; st.seats = []; send("watch_table", { table: x.id }); render(); }, "quiet"))));
  if (!list.length) tables.append(h("li", {}, t.noTables));
  const focused = document.activeElement?.id;
  app.replaceChildren(header(), statusLine(), h("div", { class: "split" },
    h("div", {}, playNow(), tournamentsPanel(), h("section", { class: "panel", "aria-labelledby": "lobby-title" }, h("h2", { id: "lobby-title" }, t.lobby), tables), createForm(), finishedGames()),
    chatBox(st.lobbyChat, () => "lobby", "lobby-chat")), settings());
  if (focused) document.getElementById(focused)?.focus();
}

/** The first choice: a quick game of the chosen game with whoever else asks for it. */
function playNow(): HTMLElement {
  const title = h("h2", { id: "quick-title" }, t.playNow);
  if (st.quick) {
    const quick = st.quick;
    return h("section", { class: "panel", "aria-labelledby": "quick-title" }, title,
      h("p", { role: "status" }, fill(t.quickWaiting, { game: gameName(quick.preset), n: quick.others })),
      button(t.leaveQueue, () => { st.quick = null; send("quick_leave", {}); render(); }, "quiet"));
  }
  const preset = h("select", { id: "quick-preset" }, ...PRESETS.map((p) => h("option", { value: p }, gameName(p))));
  return h("section", { class: "panel", "aria-labelledby": "quick-title" }, title,
    h("label", { for: "quick-preset" }, t.game, preset),
    button(t.playNow, () => { st.quick = { preset: preset.value, others: 0 }; send("quick_play", { preset: preset.value }); render(); }));
}

/** The server's tournaments: register, unregister, start one's own, the standings; and a new one. */
function tournamentsPanel(): HTMLElement {
  const title = h("h2", { id: "tournaments-title" }, t.tournaments);
  if (st.tournaments === null) {
    return h("section", { class: "panel", "aria-labelledby": "tournaments-title" }, title,
      h("p", {}, button(t.showTournaments, () => send("tournament_list", {}), "quiet")));
  }
  const items = [...st.tournaments.values()].map((x) => {
    const mine = x.entrants.includes(st.name);
    const line = fill(t.tournamentLine, { name: x.name, format: t[x.format], game: gameName(x.preset), phase: t[x.phase === "finished" ? "over" : x.phase],
      round: x.round, n: x.entrants.length, cap: x.cap, entrants: x.entrants.join(", ") || "—" });
    const standing = st.standings.get(x.id);
    return h("li", {}, h("span", { class: "grow" }, `#${x.id} ${line}`),
      x.phase === "registering" ? button(mine ? t.unregister : t.register, () => send(mine ? "tournament_leave" : "tournament_join", { tournament: x.id })) : "",
      x.phase === "registering" && x.creator === st.name ? button(t.start, () => send("tournament_start", { tournament: x.id })) : "",
      button(t.standings, () => send("get_standings", { tournament: x.id }), "quiet"),
      standing ? standingsTable(standing) : "");
  });
  const list = h("ul", { class: "tables", id: "tournaments" }, ...(items.length ? items : [h("li", {}, t.noTournaments)]));
  return h("section", { class: "panel", "aria-labelledby": "tournaments-title" }, title, list, tournamentForm());
}

function standingsTable(s: TournamentStandings): HTMLElement {
  const cells = (tag: "th" | "td", values: (string | number)[]) => h("tr", {}, ...values.map((v) => h(tag, {}, String(v))));
  return h("table", { class: "standings" }, h("caption", {}, s.final ? t.finalStandings : fill(t.standingsTitle, { n: s.round })),
    cells("th", ["#", t.players, t.points, t.buchholz, t.gamePoints]),
    ...s.rows.map((r) => cells("td", [r.rank, r.entrant, r.match_points, r.buchholz, r.game_points])));
}

let tournamentForm_: HTMLFormElement | null = null;
function tournamentForm(): HTMLElement {
  if (tournamentForm_) return tournamentForm_;
  const name = h("input", { id: "t-name", maxlength: "64", required: "" });
  const preset = h("select", { id: "t-preset" }, ...PRESETS.map((p) => h("option", { value: p }, gameName(p))));
  const format = h("select", { id: "t-format" }, ...(["swiss", "round_robin", "knockout"] as const).map((f) => h("option", { value: f }, t[f])));
  const rounds = h("input", { id: "t-rounds", inputmode: "numeric", value: "3" });
  const cap = h("input", { id: "t-cap", inputmode: "numeric", value: "8" });
  const field = (id: string, label: string, el: HTMLElement) => h("label", { for: id }, label, el);
  const made = h("form", { "aria-labelledby": "t-title" }, h("h3", { id: "t-title" }, t.newTournament), field("t-name", t.tournamentName, name),
    field("t-preset", t.game, preset), field("t-format", t.format, format), field("t-rounds", t.rounds, rounds), field("t-cap", t.cap, cap),
    h("button", { type: "submit" }, t.newTournament));
  made.addEventListener("submit", (e) => {
    e.preventDefault();
    send("tournament_create", { name: name.value.trim(), preset: preset.value, format: format.value,
      rounds: format.value === "swiss" ? Number(rounds.value) || 0 : 0, cap: Number(cap.value) || 2 });
  });
  tournamentForm_ = made;
  return made;
}

/** Who won a finished game, as the lobby lists it: "you won" when the page's player did. */
function wonBy(g: GameSummary): string {
  const won = g.players.filter((_, i) => i % g.totals.length === g.winner);
  const team = won.length > 1;
  if (won.includes(st.name)) return team ? t.yourSideWonLine : t.youWonLine;
  return fill(team ? t.winnerTeam : t.winner, { name: won.map(sp.name).join(" + ") });
}

function finishedGames(): HTMLElement {
  const list = st.games === null
    ? h("p", {}, button(t.showGames, () => send("list_games", { limit: 20, tokens: Object.values(heldTokens()) }), "quiet"))
    : h("ul", { class: "tables", id: "games" }, ...(st.games.length ? st.games.map((g) => h("li", {},
      h("span", { class: "grow" }, `#${g.id} ${gameName(g.preset)} · ${g.players.map(sp.name).join(", ")} · ${g.totals.join(" – ")}${g.winner === null ? "" : ` · ${wonBy(g)}`}`),
      button(t.replay, () => send("get_record", { game: g.id, token: heldTokens()[g.id] ?? null }), "quiet"))) : [h("li", {}, t.noGames)]));
  return h("section", { class: "panel", "aria-labelledby": "games-title" }, h("h2", { id: "games-title" }, t.finished), list);
}

let form: HTMLFormElement | null = null;
let serverTimeout: number | null = null; // the server's turn clock (welcome): no table may ask for more
let optionList: Promise<[string, string, string][]> | null = null;
function createForm(): HTMLElement {
  if (form) return form;
  const preset = h("select", { id: "preset" }, ...PRESETS.map((p) => h("option", { value: p }, gameName(p))));
  const players = h("select", { id: "players" });
  const fillPlayers = () => {
    const own = FOUR.has(preset.value) ? 4 : 2;
    players.replaceChildren(...["", "2", "3", "4", "6"].map((n) => h("option", { value: n }, n || fill(t.playersDefault, { n: own }))));
  };
  fillPlayers();
  preset.addEventListener("change", fillPlayers);
  const bots = h("select", { id: "bots" }, h("option", { value: "" }, t.none), ...Object.keys(LEVELS).map((l) => h("option", { value: l, selected: l === "medium" }, t[l as "easy"])));
  const priv = h("input", { id: "private", type: "checkbox" });
  const shorter = [30, 15].filter((n) => serverTimeout === null || n < serverTimeout);
  const timer = h("select", { id: "timer" }, h("option", { value: "" }, serverTimeout ? `${t.serverDefault} (${serverTimeout} s)` : t.serverDefault),
    ...shorter.map((n) => h("option", { value: String(n) }, `${n} s`)), h("option", { value: "off" }, t.noTimer));
  const more = h("details", { id: "more" }, h("summary", { class: "quiet" }, t.more));
  optionList ??= fetch("options.json").then((r) => r.json());
  optionList.then((list) => {
    for (const [name, values, meaning] of list) {
      if (name === "preset" || name === "players") continue;
      const id = `opt-${name}`;
      const choices = values.includes("|") ? values.split("|") : null;
      const input = choices
        ? h("select", { id, "data-option": name }, h("option", { value: "" }, t.optionUnset), ...choices.map((c) => h("option", { value: c }, sp.value(c))))
        : h("input", { id, "data-option": name, inputmode: /^\d+-\d+$/.test(values) ? "numeric" : "text", placeholder: values });
      const [label, said] = sp.option(name, meaning);
      more.append(h("label", { for: id }, label, h("small", {}, said), input));
    }
  });
  const field = (id: string, label: string, el: HTMLElement) => h("label", { for: id }, label, el);
  form = h("form", { class: "panel", "aria-labelledby": "create-title" }, h("h2", { id: "create-title" }, t.create), field("preset", t.game, preset), field("players", t.players, players),
    field("bots", t.bots, bots), h("label", { for: "private", class: "bar" }, priv, t.private), field("timer", t.timer, timer),
    more, h("button", { type: "submit" }, t.create));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const options: Record<string, unknown> = {};
    for (const input of more.querySelectorAll<HTMLInputElement | HTMLSelectElement>("[data-option]")) {
      const v = input.value.trim();
      if (v) options[input.dataset.option as string] = v === "true" ? true : v === "false" ? false : /^-?\d+$/.test(v) ? Number(v) : v;
    }
    if (players.value) options.players = Number(players.value);
    const count = Number(players.value) || (FOUR.has(preset.value) ? 4 : 2);
    const body: Body = { preset: preset.value, options, sit: true, private: priv.checked,
      fill_with_bots: bots.value ? Array(count - 1).fill(LEVELS[bots.value]) : [] };
    if (timer.value === "off") body.no_turn_timer = true; else if (timer.value) body.turn_timeout = Number(timer.value);
    send("create_table", body);
  });
  return form;
}

let timerEl: HTMLElement | null = null;
let shownOnTable = new Set<string>(); // the table's cards last drawn: a new one arrives animated
function secondsLeft(): number | null {
  if (st.gameEnd || !st.view || st.roundEnd) return null;
  return st.deadline ? Math.max(0, Math.ceil((st.deadline - Date.now()) / 1000)) : null;
}
function turnWords(): string {
  const v = st.view;
  return st.gameEnd ? t.gameEnd : !v ? t.waiting : st.legal.length ? t.yourTurn : fill(t.turnOf, { name: seatName(v.turn) });
}

function showClock(): void {
  const left = secondsLeft();
  const line = document.getElementById("round-end-turn"); // the next round's turn, under the last round's box
  if (line) {
    // the next round's first turn runs while the box is open: the player's own says so plainly
    const mine = st.legal.length > 0 && left !== null;
    line.textContent = st.roundEnd || !st.view || st.gameEnd ? "" : mine ? fill(t.turnInBox, { n: left })
      : `${turnWords()}${left === null ? "" : ` · ${fill(t.secondsLeft, { n: left })}`}`;
    line.classList.toggle("short", mine);
  }
  if (!timerEl) return;
  timerEl.textContent = left === null ? "" : ` · ${fill(t.secondsLeft, { n: left })}`;
  timerEl.classList.toggle("short", left !== null && left <= 10);
}
setInterval(showClock, 1000);

function toLobby(): HTMLButtonElement {
  return button(t.toLobby, () => { st.tableId = null; st.seat = null; st.view = null; st.gameEnd = null; st.invite = ""; send("watch_lobby", {}); render(); });
}

function leaveButton(): HTMLButtonElement {
  if (st.watching) {
    return button(t.stopWatching, () => { send("unwatch_table", { table: st.tableId }); st.tableId = null; st.watching = false; st.view = null; send("watch_lobby", {}); render(); }, "quiet");
  }
  const leave = () => send("leave_table", { table: st.tableId }, "lobby");
  const b = button(t.leave, () => {
    if (st.info?.state !== "playing" && !st.view) { leave(); return; } // a waiting table: the seat is freed, nothing ends
    const d = dialog(t.leave, t.stay, "leave-question");
    d.body.append(h("p", {}, t.leaveQuestion));
    d.actions.prepend(button(t.leaveYes, () => { d.close(); leave(); }, "danger"));
  }, "quiet");
  b.id = "leave";
  return b;
}

function inviteBox(): HTMLElement | string {
  if (!st.invite || st.gameEnd || st.view) return ""; // only while the table waits for the friend
  const link = st.invite;
  const copy = button(t.copy, () => { navigator.clipboard?.writeText(link).then(() => { copy.textContent = t.copied; }, () => undefined); }, "quiet");
  const shareIt = "share" in navigator ? button(t.share, () => { navigator.share({ url: link, title: t.title }).catch(() => undefined); }) : "";
  return h("section", { class: "panel", id: "invite", "aria-labelledby": "invite-title" },
    h("h2", { id: "invite-title" }, t.invite), h("p", { class: "link" }, h("a", { href: link }, link)), h("p", { class: "bar" }, shareIt, copy),
    h("p", {}, t.qr), qrSvg(link, t.qrLabel));
}

function tableScreen(): void {
  const v = st.view;
  const mine = st.legal.length > 0;
  const lit = new Set(st.picked ? movesWith(st.picked).flatMap((m) => m.capture) : []);
  const players = seatCount();
  const seats = h("div", { class: "seats" }, ...Array.from({ length: players }, (_, i) => h("div", {
    class: `seat${v && v.turn === i && !st.gameEnd ? " turn" : ""}`, "data-seat": i,
  }, `${seatName(i)}${i === st.seat ? ` (${t.me})` : ""}${v ? ` · ${fill(t.inHand, { n: v.hand_sizes?.[i] ?? 0 })}`
    : i === st.seat || st.seats.some((s) => s.seat === i) || st.info?.seats?.[i] ? "" : ` · ${t.freeSeat}`}`)));
  timerEl = h("span", { class: "clock" });
  showClock();
  const turnText = turnWords();
  const table = h("div", { class: "cards", "aria-label": t.table, "data-area": "table" }, ...(v?.table ?? []).map((c) => cardButton(c,
    `${lit.has(c) ? "lit" : ""}${shownOnTable.has(c) ? "" : " arrived"}`, () => tapTable(c))));
  shownOnTable = new Set(v?.table ?? []);
  const hand = h("div", { class: "cards", "aria-label": t.hand, "data-area": "hand" }, ...(v?.hand ?? []).map((c) => cardButton(c, c === st.picked ? "picked" : "", () => tapHand(c))));
  const decl = h("div", { class: "bar" }, ...st.declarations.map((d) => button(`${t.declare} ${t[d.kind as "tris"] ?? d.kind} (+${d.points})`, () => {
    send("declare", { kind: d.kind, wild: d.wild ?? null, turn: st.turnEvent }, `table:${st.tableId}`); st.declarations = []; render();
  })));
  const names = sideNames();
  const piles = scorePanel(sp, names, v?.totals ?? [], v?.piles ?? []);
  const plays = h("ul", { class: "chat", "aria-label": t.plays, tabindex: 0, "data-area": "plays" }, ...(v?.round_plays ?? []).map((p) => h("li", { class: st.scopas.has(p.card) ? "scopa" : "" },
    `${seatName(p.seat)}: ${cardName(p.card, deck)}${p.captured.length ? ` → ${p.captured.map((c) => cardName(c, deck)).join(", ")}` : ""}${st.scopas.has(p.card) ? ` · ${t.scopa}` : ""}${st.forced.has(p.card) ? ` · ${fill(t.timedOut, { card: cardName(p.card, deck), name: seatName(p.seat) })}` : ""}`)));
  const focused = document.activeElement?.id;
  app.toggleAttribute("data-mine", mine);
  app.replaceChildren(header(), statusLine(),
    st.gameEnd ? gameEndBox(st.gameEnd) : h("div", { class: "bar" }, h("p", { class: "status grow", id: "turn" }, turnText, timerEl), leaveButton()),
    inviteBox(),
    st.flash ? h("p", { class: "scopa", role: "alert" }, st.flash) : "",
    seats, h("div", { class: "split" }, v && !st.gameEnd ? h("div", {}, // no board until the game is dealt (only the seats to fill), none once it is over
      h("h2", {}, `${t.table} · ${t.stock} ${v.stock ?? 0}`), table,
      h("h2", {}, t.hand), hand, decl, h("p", {}, mine ? t.tapHint : "")) : "",
    h("div", {}, v ? piles : "", v ? h("section", { class: "panel", "aria-label": t.plays }, h("h2", {}, t.plays), plays) : "",
      chatBox(st.tableChat, () => `table:${st.tableId}`, "table-chat"))),
    settings());
  if (focused) document.getElementById(focused)?.focus();
  if (st.roundEnd && !st.gameEnd) roundEndDialog(st.roundEnd);
  showClock();
}

/** Each side's name (its players' names), one per side of the game. */
function sideNames(): string[] {
  const sides = Math.max(st.view?.totals?.length ?? 0, st.view?.piles?.length ?? 0, new Set(st.seats.map((s) => s.side)).size,
    st.roundEnd?.totals.length ?? 0) || seatCount();
  return Array.from({ length: sides }, (_, i) => sideName(i));
}

function sideName(i: number): string {
  const names = st.seats.filter((s) => s.side === i).map((s) => sp.name(s.name));
  const named = st.info?.seats?.[i];
  return names.length ? names.join(" + ") : named ? sp.name(named) : fill(t.seat, { n: i + 1 });
}

/** The side of the page's player (none when watching). */
function mySide(): number | undefined {
  return st.watching ? undefined : st.seats.find((s) => s.seat === st.seat)?.side;
}

let shownRound = -1;
function roundEndDialog(r: RoundEnd): void {
  if (shownRound === r.event) return;
  shownRound = r.event;
  const d = dialog(fill(t.roundEnd, { n: r.round }), t.next, "round-end");
  const names = r.totals.map((_, i) => sideName(i));
  const before = r.totals.map((total, i) => st.totalsBefore[i] ?? total - (r.points[i] ?? 0));
  d.body.append(roundTable(sp, names, r, before, st.info?.rules?.target, !!st.info?.rules?.frac));
  if (r.leftover?.length && r.leftover_to !== null && r.leftover_to !== undefined) {
    d.body.append(h("p", {}, fill(t.leftoverTo, { name: sideName(r.leftover_to) })));
  }
  d.body.append(h("p", { class: "status", id: "round-end-turn" }));
}

function gameEndBox(g: GameEnd): HTMLElement {
  return h("section", { class: "panel end", id: "game-end", role: "alert", "aria-labelledby": "game-end-title" },
    h("h2", { id: "game-end-title" }, t.gameEnd),
    h("p", { class: "winner" }, gameEndLine(sp, g, sideName, mySide())),
    gameEndTotals(sp, g, sideName), h("p", {}, st.watching ? leaveButton() : toLobby()));
}

document.documentElement.lang = lang;
sayNotPrivate();
render();
connect();

// ------------------------------------------------------------------ a finished game again
function replayScreen(): void {
  const rp = st.replay as NonNullable<typeof st.replay>;
  const { record } = rp;
  const rounds = record.rounds.length;
  const actions = record.rounds[rp.round]?.actions.length ?? 0;
  const b = boardAt(record, rp.round, rp.step);
  const player = (i: number) => record.players[i]?.name;
  const name = (i: number) => { const n = player(i); return n ? sp.name(n) : fill(t.seat, { n: i + 1 }); };
  const sideOf = (i: number) => record.players.filter((p) => p.side === i).map((p) => sp.name(p.name)).join(" + ");
  const sides = b.piles.map((_, i) => sideOf(i));
  const go = (round: number, step: number) => { rp.round = round; rp.step = step; render(); };
  const controls = h("div", { class: "bar", id: "replay-controls" },
    button(t.back1, () => go(rp.round, rp.step - 1)), button(t.next1, () => go(rp.round, rp.step + 1)),
    button(t.prevRound, () => go(rp.round - 1, 0), "quiet"), button(t.nextRound, () => go(rp.round + 1, 0), "quiet"));
  const [back, next, prevRound, nextRound] = [...controls.children] as HTMLButtonElement[];
  prevRound.disabled = rp.round === 0; back.disabled = rp.step === 0;
  next.disabled = rp.step >= actions; nextRound.disabled = rp.round >= rounds - 1;
  const ended = rp.step >= actions ? roundEndAt(record, rp.round) : null;
  const seats = h("div", { class: "seats" }, ...record.players.map((p) => h("div", {
    class: `seat${!ended && rp.step < actions && b.turn === p.seat ? " turn" : ""}`, "data-seat": p.seat,
  }, `${name(p.seat)} · ${fill(t.inHand, { n: b.hands[p.seat].length })}`)));
  const last = b.plays[b.plays.length - 1];
  const plays = h("ul", { class: "chat", "aria-label": t.plays, tabindex: 0, "data-area": "plays" }, ...b.plays.map((p) => h("li", { class: b.scopas.has(p.card) ? "scopa" : "" },
    `${name(p.seat)}: ${cardName(p.card, deck)}${p.captured.length ? ` → ${p.captured.map((c) => cardName(c, deck)).join(", ")}` : ""}${b.scopas.has(p.card) ? ` · ${t.scopa}` : ""}`)));
  const hands = record.players.map((p) => h("section", { class: "panel", "aria-label": fill(t.handOf, { name: name(p.seat) }) },
    h("h3", {}, fill(t.handOf, { name: name(p.seat) })),
    h("div", { class: "cards" }, ...b.hands[p.seat].map(cardFace))));
  const before = b.totals;
  app.removeAttribute("data-mine");
  app.replaceChildren(header(), statusLine(),
    h("section", { class: "panel", "aria-labelledby": "replay-title" },
      h("h2", { id: "replay-title" }, `${fill(t.replayOf, { id: record.game ?? "" })} · ${describe(sp, record.rules)}`),
      controls, // above the line that says where the game is: that line grows and shrinks, the buttons stay put
      h("p", { class: "status", id: "replay-where", role: "status" }, `${fill(t.roundOf, { n: rp.round + 1, of: rounds })} · ${rp.step ? fill(t.stepOf, { k: rp.step, of: actions }) : t.dealt}${last ? ` · ${name(last.seat)}: ${cardName(last.card, deck)}` : ""}`),
      h("p", {}, button(t.toLobby, () => { st.replay = null; render(); }, "quiet"))),
    ended ? h("section", { class: "panel end", "aria-label": fill(t.roundEnd, { n: ended.round }) }, h("h2", {}, fill(t.roundEnd, { n: ended.round })),
      roundTable(sp, sides, ended, before, record.rules.target, !!record.rules.frac)) : "",
    seats, h("div", { class: "split" }, h("div", {},
      h("h2", {}, `${t.table} · ${t.stock} ${b.stock}`), h("div", { class: "cards", "aria-label": t.table, "data-area": "table" }, ...b.table.map(cardFace)),
      ...hands),
    h("div", {}, scorePanel(sp, sides, before, b.piles), h("section", { class: "panel", "aria-label": t.plays }, h("h2", {}, t.plays), plays))),
    settings());
}
