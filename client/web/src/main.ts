// The Scopa browser client: the protocol (docs/PROTOCOL.md) over the server's WebSocket,
// one binary message per command.
import { decode, encode } from "@msgpack/msgpack";
import { cardName, cardSvg } from "./cards";
import { animate, measure, settle } from "./anim";
import { button, dialog, h } from "./dom";
import { fill, gameName, sentence } from "./i18n";
import { showRules } from "./rules";
import type { ChatMessage, GameEnd, RoundEnd, TableInfo, TournamentInfo, TournamentNoTable, TournamentStandings } from "./protocol";
import {
  type Body, type Seat, NEXT_STEPS, app, botPlays, deck, heldTokens, keepMarks, leaverOf, marksOf, keepToken, lang, live, restoreMarks, saveSeat, savedSeat, seatCount, takenBack, takeoversOf,
  seatName, sp, st, t,
} from "./state";
import { formRefused, formSent, lobbyScreen, setServerTimeout } from "./lobby";
import { chatOutOfView, play, seatGone, tableScreen } from "./board";
import { landed, lateRefused, lostWords, playAgain } from "./pending";
import { takeIn } from "./score";
import { replayScreen } from "./replayview";
import { askAboutName, nameScreen, naming } from "./name";
import { rematchOffered } from "./rematch";
import { inviteLink, joinFromLink, linkRefused, tableGone } from "./links";
import { reopenRound } from "./roundbox";
import { chatBack, chatLine, forcedMeanwhile, heldBackWords } from "./comeback";
import { sayNotPrivate } from "./notprivate";
import { onlookersNews } from "./tablelines";

interface Frame { v: number; seq: number; sender: string; recipient: string; re: number | null; name: string; body: Body }
interface Asked { name: string; body: Body; recipient: string }
// A page just (re)loaded knows nothing of its table: its first resume asks for a snapshot
// (an event number above any the server gave), later ones for what they missed.
let fresh = true;
let asking = ""; // the name the person asked for, while the server finds it taken
let handSize = 3; // cards a deal gives each hand (counted at the round's start)
const EVERYTHING = Number.MAX_SAFE_INTEGER;
// The commands that tell whose turn it is, each with that turn's clock (turn_left_ms).
const TURN_TELLERS = new Set(["your_turn", "round_start", "played", "declared", "seat_back", "snapshot"]); // 2**53 - 1, still an integer on the wire

// ------------------------------------------------------------------ the connection
let ws: WebSocket | null = null;
let seq = 0;
let retry = 0;
let retryTimer = 0;
// In a cluster the table may play on another server: its `redirect` answers one of these
// commands (by seq), and the page's server carries the next connection there (/ws?ticket=).
const REDIRECTED = new Set(["hello", "join_table", "watch_table"]);
let asked = new Map<number, Asked>();
// A tournament's table on another server: a `redirect` answering nothing (re null) follows
// its `tournament_table`; there the server seats us on arrival, so nothing is sent again.
let handOn: { ticket: string; again: Asked | null } | null = null; // the connection a redirect asks for
let again: Asked | null = null; // the command to send again once welcomed there

// What the person asked of the lobby before the server welcomed this connection (the lobby
// shows while the connection still opens, or opens again): sent once it has, in order, the
// last of each command only. The page's own commands of a connection's start are not kept.
let kept: Asked[] = [];
const OWN = new Set(["hello", "ping", "pong", "bye", "watch_lobby"]);

/** Send a command; whether it was sent, or kept until the server welcomes the connection
 * (a command to the lobby); not a table's while the connection is down. */
export function send(name: string, body: Body, recipient = "lobby", re: number | null = null): boolean {
  if (NEXT_STEPS.has(name) && st.status === t.leftToBot) st.status = "";
  const welcomed = ws?.readyState === WebSocket.OPEN && !!st.you;
  if (!welcomed && recipient === "lobby" && !OWN.has(name) && !st.replaced) {
    kept = [...kept.filter((k) => k.name !== name), { name, body, recipient }];
    return true;
  }
  if (!ws || ws.readyState !== WebSocket.OPEN) return false;
  seq += 1;
  if (body === formSent.body) formSent.seq = seq; // the create form's ask: its refusal is said beside its button
  if (REDIRECTED.has(name)) asked.set(seq, { name, body, recipient });
  ws.send(encode({ v: 2, seq, sender: st.you || "guest", recipient, re, name, body }));
  return true;
}

export function connect(): void {
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
    if (going?.again?.name === "hello") hello = { ...going.again.body };
    else if (going) again = going.again;
    else if (seat) hello = resumeHello(seat);
    if (going) hello.ticket = going.ticket;
    send("hello", hello);
  };
  socket.onmessage = (e) => {
    if (socket.readyState !== WebSocket.OPEN || ws !== socket) return; // closing: handed on, or going
    heard = Date.now(); pinged = false;
    const frame = decode(new Uint8Array(e.data as ArrayBuffer)) as Frame;
    if (frame && typeof frame === "object") handle(frame);
  };
  socket.onclose = () => closed(socket);
  heard = Date.now(); pinged = false;
}

/** ``socket`` is gone (closed, or given up as lost): said at once, and tried again (when
 * the browser is online; its coming back online tries at once). A turn's legal moves stay:
 * a play made meanwhile waits for the seat to be back (pending.ts). */
function closed(socket: WebSocket): void {
  if (ws !== socket) return; // a connection the page has already let go
  ws = null;
  st.connected = false;
  st.listAsks = []; // their answers will not come on this connection
  if (handOn) { connect(); return; }
  if (!st.replaced) {
    st.flash = ""; st.timedOut = ""; // the notices of before (who came back, a scopa): old news under the lost connection's band
    st.status = lostWords();
    retry = Math.min(retry + 1, 5);
    clearTimeout(retryTimer);
    if (navigator.onLine) retryTimer = window.setTimeout(connect, 300 * retry);
  }
  render();
}

/** The connection given up: the browser went offline, or nothing came on it for too long. */
function lose(): void {
  const socket = ws;
  if (!socket) return;
  closed(socket);
  socket.close();
}

// Liveness: the page pings a connection silent for QUIET ms (the server answers at once,
// PROTOCOL.md §8 "Any time"); one silent for SILENT ms is lost.
const QUIET = 5000;
const SILENT = 12000;
let heard = 0; // when the connection last brought a frame (the page's clock)
let pinged = false;
let nonce = 0;
setInterval(() => {
  if (!ws || ws.readyState !== WebSocket.OPEN) return;
  const quiet = Date.now() - heard;
  if (quiet > SILENT) lose();
  else if (quiet > QUIET && !pinged) { pinged = true; nonce += 1; send("ping", { nonce }); }
}, 1000);
window.addEventListener("offline", lose);

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
    if (st.watching && f.sender === `table:${st.tableId}`) watched = { table: st.tableId, event: Math.max(watched.table === st.tableId ? watched.event : 0, b.event) };
    const seat = savedSeat();
    if (seat && seat.lastEvent < b.event && st.seat !== null && !fresh) saveSeat({ ...seat, lastEvent: b.event });
  }
  if (TURN_TELLERS.has(f.name) && (f.name !== "snapshot" || b.public)) {
    st.deadline = typeof b.turn_left_ms === "number" ? Date.now() + b.turn_left_ms : 0; // none: no clock runs
  }
  switch (f.name) {
    case "ping": send("pong", { nonce: b.nonce ?? 0 }, f.sender, f.seq); return;
    case "welcome": {
      st.you = b.you; st.lanHosts = b.lan_hosts ?? [];
      setServerTimeout(b.turn_timeout ?? null, b.reading_time ?? null);
      const given = String(b.you).replace(/^player:/, "");
      if (given !== st.name) st.name = given;
      localStorage.setItem("scopa.name", given); // a reload plays on under it, asking nothing
      st.status = "";
      asking = "";
      if (!savedSeat() && st.watching && st.tableId && !st.gameEnd) send("watch_table", { table: st.tableId, invite: st.watchInvite || null, last_event: watched.table === st.tableId ? watched.event : 0 }); // what it missed
      else if (!savedSeat()) send("watch_lobby", {});
      if (again) { send(again.name, again.body, again.recipient); again = null; } else if (!savedSeat()) joinFromLink();
      for (const k of kept.splice(0)) send(k.name, k.body, k.recipient); // what the person asked while the connection opened
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
        const given = `${asking.slice(0, 20)}${Math.floor(Math.random() * 90 + 10)}`;
        askAboutName(asking, given); // asked on the name screen: play as ``given``, or pick another
        render();
        return;
      }
      if (["already_at_table", "already_waiting", "not_waiting"].includes(String(b.code))) st.quick = null;
      if (linkRefused(String(b.code))) break; // the link's table is full, or gone: its own box says so (links.ts)
      if (b.code === "no_such_table" && st.watching && st.tableId && !st.view && !st.gameEnd) { tableGone(); break; } // nothing there to wait for
      if (lateRefused(String(b.code))) break; // the play that went as the time ran out came after the server's own: its played says so
      if (f.re !== null && f.re === formSent.seq && formRefused(sentence(sp.error(String(b.code), String(b.message ?? ""))))) break;
      st.status = refusal = sentence(sp.error(String(b.code), String(b.message ?? ""))); refusalOn = "";
      break;
    case "redirect": {
      const answered = f.re === null ? null : asked.get(f.re);
      if (answered === undefined || !ws) break;
      handOn = { ticket: String(b.ticket), again: answered };
      send("bye", { reason: "handed on" });
      ws.close();
      return;
    }
    case "bye":
      if (/another connection/.test(b.reason ?? "")) { st.replaced = true; st.status = t.elsewhere; seatGone(); }
      break;
    case "games": st.games = b.games; break;
    case "record": st.replay = { record: b.record, round: 0, step: 0, leaver: leaverOf(b.game) }; window.scrollTo(0, 0); break;
    case "tables": st.tables = new Map((b.tables as TableInfo[]).filter(live).map((x) => [x.id, x])); break;
    case "table_update": {
      const info = b.table as TableInfo;
      if (live(info)) st.tables.set(info.id, info); else st.tables.delete(info.id);
      if (info.id === st.tableId) { onlookersNews(st.info, info); st.info = info; } // someone came to watch (or went): news to the players
      rematchOffered(info);
      const tokens = heldTokens(); // a game of ours ended (played on by a bot, or at this table): the finished games again
      if (info.state === "finished" && tokens[info.id] && st.games !== null) send("list_games", { limit: 20, tokens: Object.values(tokens) });
      break;
    }
    case "table_created":
      newTable(b.table.id);
      st.info = b.table;
      // the way in for the people the table waits for: a private table's invite, a public one's own link
      if (b.invite) st.invite = inviteLink(`invite=${encodeURIComponent(`${b.table.id}.${b.invite}`)}`, b.table);
      else if ((b.table as TableInfo).seats.includes(null)) st.invite = inviteLink(`table=${encodeURIComponent(b.table.id)}`, b.table);
      break;
    case "quick_waiting": if (st.quick) st.quick.others = b.others; break;
    case "tournaments":
      if (st.listAsks.shift()) st.finished = b.tournaments as TournamentInfo[];
      else st.tournaments = new Map((b.tournaments as TournamentInfo[]).map((x) => [x.id, x]));
      break;
    case "tournament_update":
      (st.tournaments ??= new Map()).set(b.tournament.id, b.tournament);
      if (st.finished && b.tournament.phase === "finished" && !st.finished.some((x) => x.id === b.tournament.id)) st.finished.push(b.tournament);
      break;
    case "tournament_standings":
      st.standings.set(b.tournament, b as TournamentStandings);
      if (b.final && f.re === null) st.lastFinal = b as TournamentStandings; // pushed: a tournament of ours is over
      break;
    case "tournament_no_table": st.noTable = b as TournamentNoTable; break;
    case "joined":
      newTable(b.table);
      st.quick = null; st.noTable = null;
      st.tableId = b.table; st.seat = b.seat; st.watching = false; st.gameEnd = null; st.roundEnd = null; st.replay = null;
      saveSeat({ token: b.token, table: b.table, lastEvent: savedSeat()?.lastEvent ?? 0 });
      keepToken(b.table, b.token);
      if (!b.resumed) fresh = false; // a seat just taken: every event of its table comes from now on
      catchingUp = !!b.resumed; awayPlays = []; // what comes next, up to the seat's turn, happened while the page was away
      if (b.resumed || b.chat) chatBack(b.chat); // what was said at the table meanwhile; a rematch's: the last game's
      st.info = st.tables.get(b.table) ?? st.info;
      break;
    case "game_start": st.seats = b.seats; st.gameEnd = null; st.flash = ""; st.timedOut = ""; if (st.info) st.info = { ...st.info, state: "playing" }; break;
    case "snapshot":
      fresh = false;
      if (newTable(b.table.id) && b.public) st.deadline = typeof b.turn_left_ms === "number" ? Date.now() + b.turn_left_ms : 0; // its turn's clock
      st.info = b.table; st.tableId = b.table.id; st.replay = null;
      if (b.seats?.length) st.seats = b.seats;
      if (!b.you && b.chat) chatBack(b.chat); // a spectator's: what was said before it came (a rematch's: the last game's too)
      takeoversOf(st.seats);
      st.view = (b.you ?? b.public) as typeof st.view;
      if (b.you) st.seat = b.you.seat;
      st.totalsBefore = [...(st.view?.totals ?? [])];
      st.legal = []; st.choices = null;
      if (!b.you && st.status === t.leftToBot) st.status = ""; // watching the table one left: that news is old
      st.scopas.clear(); st.forced.clear(); st.bots.clear();
      marksOf(st.view?.round_plays ?? []); // the round's plays as a page that never left marked them
      restoreMarks(); reopenRound(b.last_round, !b.you); // a reload over the round's box shows it again
      { const said = b.you ? forcedMeanwhile(st.view?.round_plays ?? []) : ""; if (said) { st.timedOut = said; timedOutNote = ""; } } // said until the person plays
      break;
    case "round_start": roundStart(b); break;
    case "deal":
      if (st.view) { st.view.hand = b.hand; st.view.stock = b.stock; st.view.hand_sizes = st.view.hand_sizes.map(() => b.hand.length); }
      break;
    case "your_turn":
      st.view = b.view; st.legal = b.legal; st.declarations = b.declarations ?? []; st.turnEvent = b.event;
      st.picked = null; st.choices = null;
      if (st.timedOut === timedOutNote) st.timedOut = ""; // a turn of one's own again: the last one's time-out is old news
      catchingUp = false; // (one the server played while the page was away stays said until the person plays)
      { const m = playAgain(b.legal); if (m) play(m); } // a play made while the connection was lost
      break;
    case "played": {
      const before = measure(app);
      played(b);
      render();
      animate(before, { seat: b.seat, card: b.card, captured: b.captured ?? [], scopa: !!b.scopa }, app, (c) => cardSvg(c, deck), t.scopa);
      return;
    }
    case "declared":
      if (st.view) st.view.declared = [...(st.view.declared ?? []), { seat: b.seat, hand: b.hand }]; // the score panel counts it
      st.flash = fill(t.declared, { name: seatName(b.seat), kind: t[b.kind as "tris"] ?? b.kind, n: b.points }); break;
    case "round_end": st.roundEnd = b as RoundEnd; st.deadline = 0; if (st.view) st.view.totals = b.totals; break;
    case "game_end":
      oldNews(); // a refusal said during the game is not the end's news
      st.gameEnd = b as GameEnd; st.legal = []; st.deadline = 0; saveSeat(null);
      settle(); // the last play's cards land now: the result is not drawn under them
      window.scrollTo(0, 0); // the result, with the last round's breakdown, at the top (board.ts)
      break;
    case "left":
      saveSeat(null);
      if (st.gameEnd) break; // the game's end stays on screen until "Back to the tables"
      // left mid-game and the game goes on (no game_end came): a bot plays the seat now, as the question said
      if ((b.reason ?? "left") === "left" && st.view && !st.watching) st.status = t.leftToBot;
      newTable(""); // its notices, board and chat go with it (watching it again starts afresh)
      st.tableId = null; st.seat = null; st.view = null; st.legal = []; st.watching = false;
      send("watch_lobby", {});
      break;
    case "chat_message": {
      const line = chatLine(b as ChatMessage);
      (f.sender.startsWith("table:") ? st.tableChat : st.lobbyChat).push(line);
      if (f.sender.startsWith("table:") && chatOutOfView() && b.author !== st.you) st.unread += 1; // one's own was seen as written
      break;
    }
    case "seat_away": st.away.set(b.seat, Date.now() + b.grace_seconds * 1000); break; // said, counting down, in its lasting line (tablelines.ts)
    case "seat_back":
      st.away.delete(b.seat);
      if (b.bot_played) takenBack(b.seat); // from a bot that played it since the person's grace period ran out
      if (b.bot_played && b.seat === st.seat) st.timedOut = heldBackWords();
      else if (b.seat !== st.seat) st.flash = fill(t.back, { name: b.name });
      break;
    case "seat_replaced": {
      const seat = st.seats.find((s) => s.seat === b.seat);
      if (seat) seat.bot = true; // named as a bot's seat from now on (seats, score, plays)
      // the plays before: the person's; why (away too long, or left) is said once, in the seat's lasting line (tablelines.ts)
      if (st.view) st.takeovers.set(b.seat, { round: st.view.round, plays: st.view.round_plays?.length ?? 0, why: st.away.has(b.seat) ? "away" : "left" });
      st.away.delete(b.seat);
      break;
    }
    default: return;
  }
  render();
}

let timedOutNote = ""; // the time-out the person's notice tells of
let catchingUp = false; // the seat is back (resumed): the events it missed come, up to its turn
let awayPlays: string[] = []; // the cards the server played for the person meanwhile, their time run out
let flashOf: number | null = null; // the seat whose play the flash tells of
let flashAt = 0; // when it was first said (the page's clock)
// A spectator's notice of a play (a scopa, a time-out) goes as the game moves on: at the first play that comes once it
// has been up this long, so that a bot answering at once does not take it away before it could be read.
const NOTICE_SHOWN = 4000;
function played(b: Body): void {
  const v = st.view;
  if (!v) return;
  v.table = b.table;
  if (b.seat === st.seat && v.hand) v.hand = v.hand.filter((c) => c !== b.card);
  if (v.hand_sizes) v.hand_sizes[b.seat] = Math.max(0, (v.hand_sizes[b.seat] ?? 1) - 1);
  v.round_plays = [...(v.round_plays ?? []), { seat: b.seat, card: b.card, captured: b.captured }];
  takeIn(v, st.seats.find((s) => s.seat === b.seat)?.side ?? b.seat % Math.max(v.totals?.length || 2, 1), { card: b.card, captured: b.captured, scopa: b.scopa }); // the score panel at once
  if (botPlays(b.seat)) st.bots.add(b.card);
  if (b.scopa) st.scopas.add(b.card);
  if (b.forced === "timeout") st.forced.add(b.card);
  if (b.scopa || b.forced === "timeout") keepMarks();
  const players = st.info?.rules?.players ?? st.seats.length ?? 2;
  v.turn = (b.seat + 1) % Math.max(players, 1);
  if (b.seat === st.seat) { st.legal = []; st.timedOut = ""; landed(); } // a move of theirs is news of its own
  st.picked = null; st.choices = null;
  if (b.forced === "timeout") { // the person's own stays up beside what the others do next (a scopa, a bot taking over)
    const card = cardName(b.card, deck);
    if (b.seat === st.seat && catchingUp) { awayPlays.push(card); st.timedOut = fill(t.timedOutAway, { cards: awayPlays.join(", ") }); timedOutNote = ""; } // not old news at the turn that follows
    else if (b.seat === st.seat) st.timedOut = timedOutNote = fill(t.timedOutYou, { card });
    else { st.flash = fill(t.timedOutOf, { card, name: seatName(b.seat) }); flashOf = b.seat; flashAt = Date.now(); }
  } else if (b.scopa) { st.flash = b.seat === st.seat ? t.scopaYou : fill(t.scopaOf, { name: seatName(b.seat) }); flashOf = b.seat; flashAt = Date.now(); } // a player's news stays up until they play
  else if (b.seat === st.seat || (st.seat === null && (flashOf === null || Date.now() - flashAt >= NOTICE_SHOWN))) { st.flash = ""; flashOf = null; }
  if (v.hand_sizes?.every((n) => n === 0) && v.stock > 0 && !v.hand) redeal(v); // a spectator's count
}

/** A round begins: its table, whose turn it is (the dealer's next seat), how many cards
 * each hand holds (the deck's 40 less the table and the stock, shared out), the game's
 * totals so far and empty piles. */
function roundStart(b: Body): void {
  const n = seatCount();
  const before = st.view;
  const each = Math.max(0, Math.floor((40 - b.table.length - b.stock) / n));
  handSize = each || handSize;
  st.roundEnd = null; st.scopas.clear(); st.forced.clear(); st.bots.clear();
  st.totalsBefore = [...(before?.totals ?? [])];
  st.view = {
    ...(before ?? {}), round: b.round, table: b.table, stock: b.stock, round_plays: [], dealer: b.dealer,
    turn: (b.dealer + 1) % n, hand_sizes: Array(n).fill(each), totals: before?.totals ?? [], piles: [], captured: [], scope: [], declared: [],
    hand: before?.hand ? [] : undefined,
  } as typeof st.view;
}

let refusal = ""; // the server's last refusal, as the status line says it

/** The screen changes (the game ends, another table): the status line's refusal is old news. */
function oldNews(): void {
  if (refusal && st.status === refusal) st.status = "";
  refusal = "";
}

let held = ""; // the table whose state the page holds
let watched = { table: "" as string | null, event: 0 }; // the last event of the watched table the page has seen (to watch again)
/** The page sits at (or watches) ``table``: what it held of another table (its seats,
 * board, plays, notices and chat) is gone. */
function newTable(table: string): boolean {
  if (table === held) return false;
  held = table;
  st.seats = []; st.view = null; st.legal = []; st.declarations = []; st.picked = null; st.choices = null;
  st.roundEnd = null; st.gameEnd = null; st.totalsBefore = []; st.deadline = 0;
  if (table && st.status === t.leftToBot) st.status = ""; // at another table: the news of the one left behind is old
  oldNews();
  st.flash = ""; st.timedOut = ""; st.invite = ""; st.away.clear(); st.leaving = false; st.unread = 0; st.tableChat = []; st.takeovers.clear(); st.scopas.clear(); st.forced.clear(); st.bots.clear(); st.rematch = null;
  return true;
}

/** Every hand is empty and the stock is not: a spectator counts the next deal itself. */
function redeal(v: NonNullable<typeof st.view>): void {
  const n = v.hand_sizes.length;
  const size = Math.min(handSize, Math.floor(v.stock / n));
  v.hand_sizes = v.hand_sizes.map(() => size);
  v.stock -= size * n;
}


// ------------------------------------------------------------------ screens
let refusalOn = ""; // the screen the server's last refusal was shown on
export function render(): void {
  const screen = naming() ? "name" : st.replay ? "replay" : st.tableId ? `table:${st.tableId}` : "lobby";
  if (refusal && st.status === refusal) { refusalOn ||= screen; if (refusalOn !== screen) oldNews(); } // left behind with its screen
  if (!refusal) refusalOn = "";
  sayNotPrivate();
  if (naming()) return nameScreen();
  if (st.replay) return replayScreen(); // a finished game shown again: from the lobby, or from the game's end
  if (st.tableId) return tableScreen();
  return lobbyScreen();
}

/** The title's row: the page's name and the player's, ``first`` (the table's Chat), the
 * rules, and ``more`` (the table's Leave) beside them. */
export function header(more: HTMLElement | string = "", first: HTMLElement | string = ""): HTMLElement {
  const rules = st.replay ? st.replay.record.rules : st.tableId ? st.info?.rules : null; // at a table: its game's name (Scopone…)
  return h("header", { class: "bar" }, h("h1", { class: "grow" }, `${rules ? gameName(rules.preset, lang) : t.title} · ${st.name}`),
    first, button(t.rules, showRules, "quiet"), more);
}

export { languageChoice, settings } from "./settings";

export function statusLine(): HTMLElement | string {
  const text = st.connected ? st.status : (st.status || t.connecting);
  if (!text && !st.replaced) return "";
  const s = h("p", { class: "status", role: "status" }, text);
  if (st.replaced) s.append(" ", button(t.playHere, playHere));
  return s;
}

/** Back to the name screen: the connection under the old name let go. */
export function changeName(): void {
  st.name = ""; st.you = ""; st.connected = false; asking = ""; localStorage.removeItem("scopa.name");
  const old = ws;
  ws = null;
  old?.close();
  render();
}

/** Play under ``name``, the one the page offered for a name in use. */
export function playAs(name: string): void {
  asking = ""; st.name = name;
  if (!send("hello", { name, client: "scopa-web" })) connect();
  render();
}

/** The seat back in this tab, from where the game stands (a snapshot: the tab that held
 * it meanwhile has moved the seat's last event on), even if the game ended meanwhile. */
function playHere(): void {
  st.replaced = false; st.status = "";
  fresh = true;
  const token = st.tableId ? heldTokens()[st.tableId] : undefined;
  if (!savedSeat() && st.tableId && token) saveSeat({ token, table: st.tableId, lastEvent: 0 });
  connect();
}


document.documentElement.lang = lang;
sayNotPrivate();
render();
connect();
