// The Scopa browser client: the protocol (docs/PROTOCOL.md) over the server's WebSocket,
// one binary message per command.
import { decode, encode } from "@msgpack/msgpack";
import { cardName, cardSvg, type Deck } from "./cards";
import { animate, landing, measure } from "./anim";
import { defaultLang, type Lang, words } from "./i18n";
import { renderMarkdown } from "./markdown";
import type {
  DeclarationOption, GameEnd, LegalMove, PublicView, RoundEnd, SeatInfo, SeatView, TableInfo,
} from "./protocol";

type Body = Record<string, any>;
interface Frame { v: number; seq: number; sender: string; recipient: string; re: number | null; name: string; body: Body }
interface Seat { token: string; table: string; lastEvent: number }
interface Asked { name: string; body: Body; recipient: string }

const PRESETS = ["scopa", "scopone", "scopone-scientifico", "quindici", "escoba", "cirulla", "frac", "trentino"];
const FOUR = new Set(["scopone", "scopone-scientifico"]);
const LEVELS: Record<string, string> = { easy: "random", medium: "greedy", hard: "expert" };

const app = document.getElementById("app") as HTMLElement;
let lang: Lang = defaultLang();
let t = words(lang);
let deck: Deck = (localStorage.getItem("scopa.deck") as Deck) || "italian";

// ------------------------------------------------------------------ state
const st = {
  name: localStorage.getItem("scopa.name") || "",
  you: "", connected: false, replaced: false, status: "",
  tables: new Map<string, TableInfo>(), lobbyChat: [] as string[], tableChat: [] as string[],
  tableId: null as string | null, seat: null as number | null, watching: false, info: null as TableInfo | null,
  seats: [] as SeatInfo[], view: null as (Partial<SeatView> & PublicView) | null,
  legal: [] as LegalMove[], declarations: [] as DeclarationOption[], turnEvent: null as number | null,
  turnStarted: 0, picked: null as string | null, roundEnd: null as RoundEnd | null, gameEnd: null as GameEnd | null,
  invite: "" as string, flash: "", scopas: new Set<string>(), // the cards that made a scopa this round (seen live)
};

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
  return { name: st.name, client: "scopa-web", resume: { token: seat.token, last_event: seat.lastEvent, table: seat.table } };
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
    if (seat && seat.lastEvent < b.event && st.seat !== null) saveSeat({ ...seat, lastEvent: b.event });
  }
  switch (f.name) {
    case "ping": send("pong", { nonce: b.nonce ?? 0 }, f.sender, f.seq); return;
    case "welcome": {
      st.you = b.you;
      const given = String(b.you).replace(/^player:/, "");
      if (given !== st.name) { st.name = given; localStorage.setItem("scopa.name", given); }
      st.status = "";
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
        st.name = `${st.name.slice(0, 20)}${Math.floor(Math.random() * 90 + 10)}`;
        st.status = t.nameTaken;
        send("hello", { name: st.name, client: "scopa-web" });
        return;
      }
      st.status = b.message;
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
    case "tables": st.tables = new Map((b.tables as TableInfo[]).map((x) => [x.id, x])); break;
    case "table_update": {
      const info = b.table as TableInfo;
      if (info.state === "closed" || info.state === "finished") st.tables.delete(info.id); else st.tables.set(info.id, info);
      if (info.id === st.tableId) st.info = info;
      break;
    }
    case "table_created":
      st.info = b.table;
      if (b.invite) st.invite = `${location.origin}/?table=${encodeURIComponent(b.table.id)}&invite=${encodeURIComponent(b.invite)}`;
      break;
    case "joined":
      st.tableId = b.table; st.seat = b.seat; st.watching = false; st.gameEnd = null; st.roundEnd = null;
      saveSeat({ token: b.token, table: b.table, lastEvent: savedSeat()?.lastEvent ?? 0 });
      st.info = st.tables.get(b.table) ?? st.info;
      break;
    case "game_start": st.seats = b.seats; st.gameEnd = null; break;
    case "snapshot":
      st.info = b.table; st.tableId = b.table.id;
      if (b.seats?.length) st.seats = b.seats;
      st.view = (b.you ?? b.public) as typeof st.view;
      if (b.you) st.seat = b.you.seat;
      st.legal = [];
      break;
    case "round_start":
      st.roundEnd = null; st.scopas.clear();
      st.view = { ...(st.view ?? {}), table: b.table, stock: b.stock, round_plays: [], dealer: b.dealer } as typeof st.view;
      break;
    case "deal": if (st.view) { st.view.hand = b.hand; st.view.stock = b.stock; } break;
    case "your_turn":
      st.view = b.view; st.legal = b.legal; st.declarations = b.declarations ?? []; st.turnEvent = b.event;
      st.turnStarted = Date.now(); st.picked = null;
      break;
    case "played": {
      const before = measure(app);
      played(b);
      render();
      animate(before, { seat: b.seat, card: b.card, captured: b.captured ?? [], scopa: !!b.scopa }, app, (c) => cardSvg(c, deck), t.scopa);
      return;
    }
    case "declared": st.flash = `${seatName(b.seat)}: ${b.kind} +${b.points}`; break;
    case "round_end": st.roundEnd = b as RoundEnd; if (st.view) st.view.totals = b.totals; break;
    case "game_end":
      st.gameEnd = b as GameEnd; st.legal = []; saveSeat(null);
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
    case "seat_away": st.flash = `${b.name} ${t.away}`; break;
    case "seat_back": st.flash = `${b.name} ${t.back}`; break;
    case "seat_replaced": st.flash = `${b.name} → ${t.bot}`; break;
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
  const players = st.info?.rules?.players ?? st.seats.length ?? 2;
  v.turn = (b.seat + 1) % Math.max(players, 1);
  if (b.seat === st.seat) st.legal = [];
  st.turnStarted = Date.now();
  st.picked = null;
  if (b.scopa) st.flash = `${seatName(b.seat)}: ${t.scopa}`; // a player's news stays up until they play
  else if (b.seat === st.seat || st.seat === null) st.flash = "";
}

function joinFromLink(): void {
  const q = new URLSearchParams(location.search);
  const table = q.get("table");
  if (table && !st.tableId) send("join_table", { table, invite: q.get("invite") || null });
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
  const d = dialog(t.choose);
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
function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Record<string, any> = {}, ...kids: (Node | string)[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v as EventListener);
    else if (k === "class") e.className = v;
    else if (v !== false && v !== null && v !== undefined) e.setAttribute(k, v === true ? "" : String(v));
  }
  e.append(...kids);
  return e;
}
function button(label: string, onclick: () => void, cls = ""): HTMLButtonElement { return h("button", { onclick, class: cls, type: "button" }, label); }
function seatName(i: number): string { return st.seats[i]?.name ?? st.info?.seats?.[i] ?? `${t.seat} ${i + 1}`; }

function dialog(title: string, closeLabel = t.close): { body: HTMLElement; close: () => void } {
  const d = h("dialog", { "aria-label": title });
  const body = h("div");
  const close = () => { d.close(); d.remove(); };
  d.append(h("h2", {}, title), body, h("p", {}, button(closeLabel, close, "quiet")));
  document.body.append(d);
  d.showModal();
  return { body, close };
}

function showRules(): void {
  const d = dialog(t.rules);
  fetch("rules.md").then((r) => r.text()).then((text) => d.body.append(h("div", { class: "rules" }, renderMarkdown(text, 3))));
}

function cardButton(card: string, cls: string, onclick: () => void): HTMLButtonElement {
  const b = h("button", { class: `card ${cls}${landing.has(card) ? " landing" : ""}`, type: "button", "aria-label": cardName(card, deck), "data-card": card, onclick });
  b.append(cardSvg(card, deck));
  return b;
}

// ------------------------------------------------------------------ screens
function render(): void {
  if (!st.name) return nameScreen();
  if (st.tableId) return tableScreen();
  return lobbyScreen();
}

function header(): HTMLElement {
  return h("div", { class: "bar" },
    h("h1", { class: "grow" }, `${t.title} · ${t.you} ${st.name}`),
    button(t.rules, showRules, "quiet"),
    button(deck === "italian" ? `${t.deck}: ${t.french}` : `${t.deck}: ${t.italian}`, () => {
      deck = deck === "italian" ? "french" : "italian"; localStorage.setItem("scopa.deck", deck); render();
    }, "quiet"),
    button(t.language, () => { lang = lang === "it" ? "en" : "it"; localStorage.setItem("scopa.lang", lang); t = words(lang); document.documentElement.lang = lang; render(); }, "quiet"));
}

function statusLine(): HTMLElement {
  const s = h("p", { class: "status", role: "status" }, st.connected ? st.status : (st.status || t.connecting));
  if (st.replaced) s.append(" ", button(t.playHere, () => { st.replaced = false; st.status = ""; connect(); }));
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
  app.replaceChildren(h("h1", {}, t.title), form);
  input.focus();
}

function chatBox(lines: string[], recipient: () => string, id: string): HTMLElement {
  const log = h("ul", { class: "chat", "aria-label": t.chat }, ...lines.slice(-50).map((l) => h("li", {}, l)));
  const keep = document.getElementById(id) as HTMLInputElement | null;
  const input = keep ?? h("input", { id, "aria-label": t.chat, maxlength: 300, class: "grow" });
  const form = h("form", { class: "bar" }, input, h("button", { type: "submit" }, t.send));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    if (input.value.trim()) send("chat", { text: input.value.trim() }, recipient());
    input.value = "";
  });
  setTimeout(() => log.scrollTo(0, log.scrollHeight));
  return h("section", { class: "panel" }, h("h2", {}, t.chat), log, form);
}

function lobbyScreen(): void {
  app.removeAttribute("data-mine");
  const list = [...st.tables.values()];
  const tables = h("ul", { class: "tables" }, ...list.map((x) => h("li", {},
    h("span", { class: "grow" }, `#${x.id} ${x.description} · ${x.seats.map((s) => s ?? "—").join(", ")}${x.spectators ? ` · ${x.spectators} ${t.spectators}` : ""}`),
    x.state === "waiting" && x.seats.includes(null) ? button(t.join, () => send("join_table", { table: x.id })) : "",
    button(t.watch, () => { st.watching = true; st.tableId = x.id; st.seats = []; send("watch_table", { table: x.id }); render(); }, "quiet"))));
  if (!list.length) tables.append(h("li", {}, t.noTables));
  const focused = document.activeElement?.id;
  app.replaceChildren(header(), statusLine(), h("div", { class: "split" },
    h("div", {}, h("section", { class: "panel" }, h("h2", {}, t.lobby), tables), createForm()),
    chatBox(st.lobbyChat, () => "lobby", "lobby-chat")));
  if (focused) document.getElementById(focused)?.focus();
}

let form: HTMLFormElement | null = null;
function createForm(): HTMLElement {
  if (form) return form;
  const preset = h("select", { id: "preset" }, ...PRESETS.map((p) => h("option", { value: p }, p)));
  const players = h("select", { id: "players" }, ...["", "2", "3", "4", "6"].map((n) => h("option", { value: n }, n || "—")));
  const bots = h("select", { id: "bots" }, h("option", { value: "" }, t.none), ...Object.keys(LEVELS).map((l) => h("option", { value: l, selected: l === "medium" }, t[l as "easy"])));
  const priv = h("input", { id: "private", type: "checkbox" });
  const timer = h("select", { id: "timer" }, h("option", { value: "" }, t.serverDefault), h("option", { value: "30" }, "30 s"), h("option", { value: "15" }, "15 s"), h("option", { value: "off" }, t.noTimer));
  const more = h("details", { id: "more" }, h("summary", { class: "quiet" }, t.more));
  fetch("options.json").then((r) => r.json()).then((list: [string, string, string][]) => {
    for (const [name, values, meaning] of list) {
      if (name === "preset" || name === "players") continue;
      const id = `opt-${name}`;
      const choices = values.includes("|") ? values.split("|") : null;
      const input = choices
        ? h("select", { id, "data-option": name }, h("option", { value: "" }, "—"), ...choices.map((c) => h("option", { value: c }, c)))
        : h("input", { id, "data-option": name, inputmode: /^\d+-\d+$/.test(values) ? "numeric" : "text" });
      more.append(h("label", { for: id }, `${name}${values ? ` (${values})` : ""}`, h("small", {}, meaning), input));
    }
  });
  const field = (id: string, label: string, el: HTMLElement) => h("label", { for: id }, label, el);
  form = h("form", { class: "panel" }, h("h2", {}, t.create), field("preset", t.game, preset), field("players", t.players, players),
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
setInterval(() => {
  const limit = st.info?.turn_timeout;
  if (timerEl && limit && !st.gameEnd) timerEl.textContent = ` · ${Math.max(0, Math.ceil(limit - (Date.now() - st.turnStarted) / 1000))} s`;
}, 1000);

function tableScreen(): void {
  const v = st.view;
  const mine = st.legal.length > 0;
  const lit = new Set(st.picked ? movesWith(st.picked).flatMap((m) => m.capture) : []);
  const players = st.info?.rules?.players ?? st.seats.length;
  const seats = h("div", { class: "seats" }, ...Array.from({ length: players }, (_, i) => h("div", {
    class: `seat${v && v.turn === i && !st.gameEnd ? " turn" : ""}`, "data-seat": i,
  }, `${seatName(i)}${i === st.seat ? ` (${t.me})` : ""} · ${v?.hand_sizes?.[i] ?? 0} ${t.inHand}`)));
  timerEl = h("span");
  const turnText = st.gameEnd ? t.gameEnd : !v ? t.waiting : mine ? t.yourTurn : `${t.turnOf} ${seatName(v.turn)}`;
  const table = h("div", { class: "cards", "aria-label": t.table, "data-area": "table" }, ...(v?.table ?? []).map((c) => cardButton(c,
    `${lit.has(c) ? "lit" : ""}${shownOnTable.has(c) ? "" : " arrived"}`, () => tapTable(c))));
  shownOnTable = new Set(v?.table ?? []);
  const hand = h("div", { class: "cards", "aria-label": t.hand }, ...(v?.hand ?? []).map((c) => cardButton(c, c === st.picked ? "picked" : "", () => tapHand(c))));
  const decl = h("div", { class: "bar" }, ...st.declarations.map((d) => button(`${t.declare} ${d.kind} (+${d.points})`, () => {
    send("declare", { kind: d.kind, wild: d.wild ?? null, turn: st.turnEvent }, `table:${st.tableId}`); st.declarations = []; render();
  })));
  const piles = pilesTable(v);
  const plays = h("ul", { class: "chat", "aria-label": t.plays }, ...(v?.round_plays ?? []).map((p) => h("li", { class: st.scopas.has(p.card) ? "scopa" : "" },
    `${seatName(p.seat)}: ${cardName(p.card, deck)}${p.captured.length ? ` → ${p.captured.map((c) => cardName(c, deck)).join(", ")}` : ""}${st.scopas.has(p.card) ? ` · ${t.scopa}` : ""}`)));
  const leave = st.watching
    ? button(t.stopWatching, () => { send("unwatch_table", { table: st.tableId }); st.tableId = null; st.watching = false; st.view = null; send("watch_lobby", {}); render(); }, "quiet")
    : button(st.gameEnd ? t.toLobby : t.leave, () => {
      if (st.gameEnd) { st.tableId = null; st.seat = null; st.view = null; st.gameEnd = null; send("watch_lobby", {}); render(); }
      else send("leave_table", { table: st.tableId }, "lobby");
    }, "quiet");
  const focused = document.activeElement?.id;
  app.toggleAttribute("data-mine", mine);
  app.replaceChildren(header(), statusLine(), h("div", { class: "bar" }, h("span", { class: "status grow", id: "turn" }, turnText, timerEl), leave),
    st.invite && !st.gameEnd ? h("p", {}, `${t.invite}: `, h("a", { href: st.invite }, st.invite)) : "",
    st.flash ? h("p", { class: "scopa", role: "alert" }, st.flash) : "",
    seats, h("div", { class: "split" }, h("div", {},
      h("h2", {}, `${t.table} · ${t.stock} ${v?.stock ?? 0}`), table,
      h("h2", {}, t.hand), hand, decl, h("p", {}, mine ? t.tapHint : "")),
    h("div", {}, piles, h("section", { class: "panel" }, h("h2", {}, t.plays), plays), chatBox(st.tableChat, () => `table:${st.tableId}`, "table-chat"))));
  if (focused) document.getElementById(focused)?.focus();
  if (st.roundEnd && !st.gameEnd) roundEndDialog(st.roundEnd);
  if (st.gameEnd) gameEndBox(st.gameEnd);
}

function pilesTable(v: typeof st.view): HTMLElement {
  const piles = v?.piles ?? [];
  const sides = Math.max(piles.length, v?.totals?.length ?? 0);
  const row = (label: string, f: (i: number) => string) => h("tr", {}, h("th", { scope: "row" }, label), ...Array.from({ length: sides }, (_, i) => h("td", {}, f(i))));
  return h("section", { class: "panel" }, h("h2", {}, t.score), h("table", { class: "piles" },
    h("tr", {}, h("th", {}, ""), ...Array.from({ length: sides }, (_, i) => h("th", { scope: "col" }, sideName(i)))),
    row(t.score, (i) => String(v?.totals?.[i] ?? 0)),
    row(t.cards, (i) => String(piles[i]?.cards ?? 0)), row(t.denari, (i) => String(piles[i]?.denari ?? 0)),
    row(t.primiera, (i) => String(piles[i]?.primiera ?? 0)), row(t.scope, (i) => String(piles[i]?.scope ?? 0)),
    row(t.settebello, (i) => (piles[i]?.settebello ? "✓" : ""))));
}

function sideName(i: number): string {
  const names = st.seats.filter((s) => s.side === i).map((s) => s.name);
  return names.length ? names.join(" + ") : `${t.side} ${i + 1}`;
}

let shownRound = -1;
function roundEndDialog(r: RoundEnd): void {
  if (shownRound === r.event) return;
  shownRound = r.event;
  const d = dialog(`${t.roundEnd} ${r.round}`, t.next);
  d.body.append(h("table", { class: "piles" },
    h("tr", {}, h("th", {}, ""), ...r.points.map((_, i) => h("th", { scope: "col" }, sideName(i)))),
    ...[...new Set(r.breakdown.flatMap((b) => Object.keys(b)))].map((k) => h("tr", {}, h("th", { scope: "row" }, k), ...r.breakdown.map((b) => h("td", {}, String((b as Record<string, number>)[k] ?? 0))))),
    h("tr", {}, h("th", { scope: "row" }, t.cards), ...r.cards.map((c) => h("td", {}, String(c)))),
    h("tr", {}, h("th", { scope: "row" }, "+"), ...r.points.map((p) => h("td", {}, String(p)))),
    h("tr", {}, h("th", { scope: "row" }, t.score), ...r.totals.map((p) => h("td", {}, String(p))))));
}

function gameEndBox(g: GameEnd): void {
  const box = h("section", { class: "panel", id: "game-end" }, h("h2", {}, t.gameEnd),
    h("p", {}, g.winner !== null && g.winner !== undefined ? `${t.winner}: ${sideName(g.winner)}` : g.reason),
    h("p", {}, `${t.score}: ${g.totals.join(" – ")}`));
  app.append(box);
}

document.documentElement.lang = lang;
render();
connect();
