// The table: the seats, the cards on the table and in hand, the turn and its clock, the
// score, the round's box and the game's end; tapping cards to play.
import { cardName, cardSvg } from "./cards";
import { landing } from "./anim";
import { button, dialog, h } from "./dom";
import { fill } from "./i18n";
import { qrSvg } from "./qr";
import type { GameEnd, LegalMove, RoundEnd } from "./protocol";
import { gameEndLine, gameEndTotals, scorePanel } from "./score";
import { app, deck, heldTokens, mySide, seatCount, seatName, sideName, sideNames, sp, st, t } from "./state";
import { header, render, send, settings, statusLine } from "./main";
import { chatBox } from "./chatbox";
import { showRules } from "./rules";
import { noTableNote, standingsTable } from "./lobby";
import { newsLine, onlookers, tickAway, watchingLine } from "./tablelines";
import { inviteLocalOnly } from "./links";
import { freeSeatWords, rematchPart } from "./rematch";
import { roundClosed, roundToShow } from "./roundbox";
import { roundParts as breakdown } from "./roundparts";
import { keysLine, tapWords } from "./hints";
import { laidCard, lastPlayLine, livePlay } from "./playline";
import { heldCard, lostWords, playing } from "./pending";

// ------------------------------------------------------------------ playing
function movesWith(card: string): LegalMove[] { return st.legal.filter((m) => m.card === card); }

export function play(m: LegalMove, byClock = false): void {
  playing(m, byClock);
  if (!send("play", { card: m.card, capture: m.capture, turn: st.turnEvent }, `table:${st.tableId}`)) st.status = lostWords(); // kept: it goes once the seat is back
  st.picked = null; st.choices = null;
  st.legal = [];
  render();
}

/** Play the one way there is, or lay the ways out in the sheet at the screen's foot
 * (choiceSheet): the table stays in view above it, each way's cards lit there. */
function choose(moves: LegalMove[]): void {
  if (moves.length === 1) { play(moves[0]); return; }
  st.choices = moves;
  render();
  document.getElementById("choice-0")?.focus({ preventScroll: true }); // its cards marked on the table
  showTable();
}

/** What one chooses from in view above the sheet: the table's cards and the hand with the
 * picked card (scrolled to; the page's foot made room for the sheet so that it can be). */
function showTable(): void {
  const area = document.querySelector<HTMLElement>("[data-area=table]");
  const sheet = document.getElementById("choose");
  if (!area || !sheet) return;
  app.style.paddingBottom = `${sheet.getBoundingClientRect().height}px`;
  const last = document.querySelector<HTMLElement>("[data-area=hand] .card.picked") ?? area;
  const top = area.getBoundingClientRect().top - 48; // the table's heading too
  const room = sheet.getBoundingClientRect().top - last.getBoundingClientRect().bottom - 8;
  if (top < 0 || room < 0) window.scrollBy(0, room < 0 && top > 0 ? Math.min(top, -room) : top);
}

let tapNote = ""; // why the last tap did nothing: said under the hand until the play moves on (or another tap)
let noteAt = ""; // the play it was said at
function playAt(): string { return `${st.view?.round ?? 0}:${st.view?.round_plays?.length ?? 0}:${st.legal.length}`; }
function noted(words: string): void { tapNote = words; noteAt = playAt(); render(); }
/** What the last tap that did nothing has to say, while the play stands where it was. */
function tapSaid(): string { return tapNote && noteAt === playAt() ? tapNote : ""; }

/** A tap (or its key) on a card in hand: the first picks it, the second plays it (a double
 * tap too, whose second tap is the same second tap); a card with more than one way to take
 * lays its ways out to choose from. A tap when it is not the person's turn says so. */
function tapHand(card: string, byKey = false): void {
  tapNote = "";
  if (!st.legal.length) {
    if (!byKey && st.view && !st.gameEnd && !st.watching && !st.replaced) noted(st.view.turn === st.seat ? t.tapWait : fill(t.tapNotYours, { name: seatName(st.view.turn) }));
    return;
  }
  if (st.picked === card) {
    choose(movesWith(card));
    return;
  }
  st.picked = card; st.choices = null;
  lastCall();
  render();
}

// A card picked, not yet played, as the turn's time runs out: the page plays it (when it has
// one way to go) a little before the deadline, so that the person's choice counts, not the
// server's. Should the server have played the turn already, it refuses quietly (pending.ts).
const LAST_CALL = 1000; // ms before the deadline, on the page's clock
let callTimer = 0;
function lastCall(): void {
  clearTimeout(callTimer);
  const [card, turn] = [st.picked, st.turnEvent];
  if (!card || !st.deadline) return;
  callTimer = window.setTimeout(() => {
    if (st.picked !== card || st.turnEvent !== turn || st.choices || !heard()) return;
    if (st.deadline - Date.now() > LAST_CALL) { lastCall(); return; } // the deadline moved on (told again)
    const moves = movesWith(card);
    if (moves.length === 1) play(moves[0], true);
  }, Math.max(0, st.deadline - Date.now() - LAST_CALL));
}

/** The seat is another tab's now: nothing picked or offered here (the status line says where it is played, and offers it back). */
export function seatGone(): void {
  st.picked = null; st.choices = null; st.legal = []; st.declarations = [];
}

/** A tap on a table card: with a card picked that takes it, that play (or its ways); else
 * what to do instead is said. */
function tapTable(card: string): void {
  tapNote = "";
  if (!st.legal.length || !st.view || st.watching) return;
  if (!st.picked) { noted(t.tapHandFirst); return; }
  const moves = movesWith(st.picked).filter((m) => m.capture.includes(card));
  if (moves.length) choose(moves);
  else noted(fill(t.tapNotTaken, { card: cardName(st.picked, deck), other: cardName(card, deck) }));
}

function closeChoices(): void { st.choices = null; render(); }

document.addEventListener("keydown", (e) => {
  if ((e.target as HTMLElement).tagName === "INPUT" || document.querySelector("dialog[open]:not(.sheet)")) return;
  const n = Number.parseInt(e.key, 10);
  if (st.choices) { // the sheet's ways by number, Escape to pick again
    if (n >= 1 && n <= st.choices.length) { play(st.choices[n - 1]); e.preventDefault(); }
    else if (e.key === "Escape") closeChoices();
    return;
  }
  const hand = st.view?.hand ?? [];
  if (n >= 1 && n <= hand.length) { tapHand(hand[n - 1], true); e.preventDefault(); }
  else if (e.key === "Escape") { st.picked = null; render(); }
  else if (e.key === "?") showRules();
});

/** The cards ``m`` takes marked on the table (the way tapped, hovered or focused in the sheet). */
let shownWay: LegalMove | null = null; // the way in focus (or under the pointer) in the sheet: only its cards are marked
function markWay(m: LegalMove): void {
  shownWay = m;
  for (const c of document.querySelectorAll<HTMLElement>("[data-area=table] .card")) {
    c.classList.toggle("takes", m.capture.includes(c.dataset.card ?? ""));
  }
  for (const w of document.querySelectorAll<HTMLElement>("#choose .way")) w.classList.toggle("shown", w.dataset.takes === m.capture.join(" "));
}

/** The picked card's ways to take, at the screen's foot, each with the cards it takes
 * drawn small: the table above stays in sight (a modal box would cover it). */
function choiceSheet(): HTMLElement | string {
  const moves = st.choices;
  if (!moves || !st.picked || !st.legal.length) return "";
  const ways = moves.map((m, i) => {
    const label = m.capture.length ? m.capture.map((c) => cardName(c, deck)).join(" + ") : t.takeNothing;
    const way = h("button", { type: "button", class: "way", id: `choice-${i}`, "data-takes": m.capture.join(" "), onclick: () => play(m) },
      h("span", { class: "minis", "aria-hidden": "true" }, ...m.capture.map((c) => cardSvg(c, deck))), h("span", {}, label));
    for (const shown of ["focus", "pointerenter"]) way.addEventListener(shown, () => markWay(m));
    return way;
  });
  return h("dialog", { open: true, class: "sheet", id: "choose", "aria-labelledby": "choose-title" },
    h("h2", { id: "choose-title" }, fill(t.choose, { card: cardName(st.picked, deck) })), h("div", { class: "ways" }, ...ways),
    h("p", { class: "bar" }, button(t.close, closeChoices, "quiet")));
}


function cardButton(card: string, cls: string, onclick: () => void): HTMLButtonElement {
  const b = h("button", { class: `card ${cls}${landing.has(card) ? " landing" : ""}`, type: "button", "aria-label": cardName(card, deck), "data-card": card, onclick });
  b.append(cardSvg(card, deck));
  return b;
}


let timerEl: HTMLElement | null = null;
let shownOnTable = new Set<string>(); // the table's cards last drawn: a new one arrives animated
/** The seconds the turn has left, as the server last said (none: no clock runs, or none is shown). */
function counted(): number | null {
  if (st.gameEnd || !st.view || st.roundEnd || st.replaced) return null; // a seat another tab plays: its clock is there
  return st.deadline ? Math.max(0, Math.ceil((st.deadline - Date.now()) / 1000)) : null;
}
/** Whether the server is heard now: with the connection lost (a server restarting, a phone
 * out of reach) nobody knows how the turn's clock stands, until the server tells it again. */
function heard(): boolean { return st.connected && !!st.you; }
/** The turn's seconds left, while the server is heard. */
function secondsLeft(): number | null { return heard() ? counted() : null; }
function turnWords(): string {
  const v = st.view;
  if (v && !st.gameEnd && heldCard()) return `${t.yourTurn} · ${t.playHeld}`; // played, not yet sent: the seat's turn still
  // a spectator's table not known yet (or over: its end comes) is not said to wait for players
  const waits = !st.watching || st.info?.state === "waiting";
  return st.gameEnd ? t.gameEnd : !v ? (waits ? t.waiting : "") : st.legal.length ? t.yourTurn : fill(t.turnOf, { name: seatName(v.turn) });
}

export function showClock(): void {
  tickAway();
  const left = secondsLeft();
  const line = document.getElementById("round-end-turn"); // the next round's turn, under the last round's box
  if (line) {
    // the next round's first turn runs while the box is open: whose it is and the seconds left, in sentences;
    // the player's own, calmly and apart, what happens when they run out
    const v = st.view;
    const mine = st.legal.length > 0 && left !== null;
    const clock = left === null ? "" : ` ${fill(mine ? t.youHaveLeft : t.theyHaveLeft, { n: left })}`;
    line.textContent = st.roundEnd || !v || st.gameEnd ? "" : `${fill(t.roundBegun, { n: v.round })} ${turnWords()}.${clock}`;
    const calm = document.getElementById("round-end-calm");
    if (calm) calm.textContent = mine && !st.roundEnd ? t.turnInBox : "";
  }
  const reading = document.getElementById("rules-clock"); // the rules open over the board: whose turn, and its seconds
  if (reading) {
    reading.textContent = left === null ? "" : `${turnWords()} · ${fill(t.secondsLeft, { n: left })}`;
    reading.classList.toggle("short", left !== null && left <= 10 && st.legal.length > 0);
  }
  if (!timerEl) return;
  const unheard = !heard() && counted() !== null; // a turn's clock, and no server to tell how it stands
  timerEl.textContent = unheard ? ` · ${t.noAnswer}` : left === null ? "" : ` · ${fill(t.secondsLeft, { n: left })}`;
  timerEl.classList.toggle("short", left !== null && left <= 10);
}
setInterval(showClock, 1000);

function toLobby(): HTMLButtonElement {
  return button(t.toLobby, () => { st.tableId = null; st.seat = null; st.view = null; st.gameEnd = null; st.invite = ""; send("watch_lobby", {}); render(); });
}

export function leaveButton(): HTMLButtonElement {
  if (st.watching) {
    return button(t.stopWatching, () => {
      if (!st.gameEnd) send("unwatch_table", { table: st.tableId }); // a finished table has no spectators left to let go
      st.tableId = null; st.watching = false; st.view = null; send("watch_lobby", {}); render(); }, "quiet");
  }
  const leave = () => { st.leaving = true; send("leave_table", { table: st.tableId }, "lobby"); };
  const b = button(t.leave, () => {
    if (st.info?.state !== "playing" && !st.view) { leave(); return; } // a waiting table: the seat is freed, nothing ends
    const [question, yes] = leaveWords();
    const d = dialog(t.leave, t.stay, "leave-question");
    d.body.append(h("p", {}, question));
    d.actions.prepend(button(yes, () => { d.close(); leave(); }, "danger"));
  }, "quiet");
  b.id = "leave";
  return b;
}

/** What leaving the game now does, as the server does it (PROTOCOL.md §7): a bot plays
 * the seat when another person plays on and the table lets a bot take over (its
 * ``bot_takeover``: the listing says it only when false); otherwise the game ends for
 * everyone. The question names only the case that applies, and its button. */
function leaveWords(): [string, string] {
  const others = st.seats.filter((s) => s.seat !== st.seat && !s.bot);
  const takeover = (st.info as { bot_takeover?: boolean } | null)?.bot_takeover ?? true; // the listing leaves it out when true
  if (!others.length) return [t.leaveQuestion, t.leaveYes];
  return takeover ? [t.leaveToBot, t.leaveYesBot] : [t.leaveEnds, t.leaveYes];
}

function inviteBox(): HTMLElement | string {
  if (!st.invite || st.gameEnd || st.view) return ""; // only while the table waits for the friend
  const link = st.invite;
  const copy = button(t.copy, () => { navigator.clipboard?.writeText(link).then(() => { copy.textContent = t.copied; }, () => undefined); }, "quiet");
  const shareIt = "share" in navigator ? button(t.share, () => { navigator.share({ url: link, title: t.title }).catch(() => undefined); }) : "";
  return h("section", { class: "panel", id: "invite", "aria-labelledby": "invite-title" },
    h("h2", { id: "invite-title" }, t.invite), h("p", { class: "link" }, h("a", { href: link }, link)),
    inviteLocalOnly() ? h("p", { class: "scopa", id: "invite-local", role: "note" }, t.inviteLocal) : "", h("p", { class: "bar" }, shareIt, copy),
    h("p", {}, t.qr), qrSvg(link, t.qrLabel));
}

/** Each side's points from the hands declared this round (Cirulla, V13: a tris 10, under ten 3;
 * the 7 of Coppe stands in for any value). */
function declaredPoints(sides: number): number[] {
  const points = Array<number>(sides).fill(0);
  for (const d of st.view?.declared ?? []) {
    const side = st.seats.find((s) => s.seat === d.seat)?.side ?? d.seat % Math.max(sides, 1);
    const ranks = d.hand.filter((c) => c !== "7c").map((c) => c[0]);
    points[side] = (points[side] ?? 0) + (new Set(ranks).size <= 1 ? 10 : 3);
  }
  return points;
}

let drawn: HTMLElement | null = null; // the table's seats last drawn: still on the page unless another screen came between
export function tableScreen(): void {
  const v = st.view;
  const mine = st.legal.length > 0 && st.connected; // lost: not said to be one's turn (a play made meanwhile waits, pending.ts)
  // a picked card lights what it may take; while its ways are laid out, only the way in focus is marked (a card in two
  // ways would say nothing if every way's cards were lit)
  const lit = new Set(st.choices ? [] : (st.picked ? movesWith(st.picked) : []).flatMap((m) => m.capture));
  const way = st.choices && shownWay && st.choices.includes(shownWay) ? new Set(shownWay.capture) : new Set<string>();
  const players = seatCount();
  const seats = h("div", { class: "seats" }, ...Array.from({ length: players }, (_, i) => h("div", {
    class: `seat${v && v.turn === i && !st.gameEnd ? " turn" : ""}`, "data-seat": i,
  }, `${marked(seatName(i), i === st.seat ? t.me : partner(i) ? t.partner : "")}${st.away.has(i) && i !== st.seat ? ` · ${t.awaySeat}` : ""}${v ? ` · ${fill(t.inHand, { n: v.hand_sizes?.[i] ?? 0 })}`
    : i === st.seat || st.seats.some((s) => s.seat === i) || st.info?.seats?.[i] ? "" : ` · ${freeSeatWords()}`}`)));
  timerEl = h("span", { class: "clock" });
  showClock();
  const turnText = turnWords();
  const laid = laidCard(); // the card the last play laid down: marked on the table
  const table = h("div", { class: `cards${st.choices ? " choosing" : ""}`, "aria-label": t.table, "data-area": "table" }, ...(v?.table ?? []).map((c) => cardButton(c,
    `${lit.has(c) ? "lit" : ""}${way.has(c) ? " takes" : ""}${shownOnTable.has(c) ? "" : " arrived"}${c === laid ? " laid" : ""}`, () => tapTable(c))),
    v && !v.table?.length ? h("span", { class: "empty-table" }, t.emptyTable) : ""); // swept clean (a scopa): said, not a blank
  shownOnTable = new Set(v?.table ?? []);
  const held = heldCard(); // played with the connection lost: marked in the hand until it goes
  const hand = h("div", { class: "cards", "aria-label": t.hand, "data-area": "hand" }, ...(v?.hand ?? []).map((c) => {
    const b = cardButton(c, c === held ? "held" : c === st.picked ? "picked" : "", () => tapHand(c));
    if (c === held) b.setAttribute("aria-label", `${cardName(c, deck)} · ${t.playHeld}`);
    return b;
  }));
  const decl = h("div", { class: "bar" }, ...st.declarations.map((d) => button(`${t.declare} ${t[d.kind as "tris"] ?? d.kind} (+${d.points})`, () => {
    send("declare", { kind: d.kind, wild: d.wild ?? null, turn: st.turnEvent }, `table:${st.tableId}`); st.declarations = []; render();
  })));
  const names = sideNames();
  // the round just over: what its box says (the cards left on the table counted to their taker)
  // (a spectator's score keeps up with the play: the next round's piles as soon as it is dealt)
  const over = st.roundEnd ?? (!st.watching && document.querySelector("dialog#round-end[open]") ? boxed : null);
  const piles = scorePanel(sp, names, v?.totals ?? [], over?.tallies ?? v?.piles ?? [], st.info?.rules?.target,
    { rules: st.info?.rules, captured: v?.captured, declared: declaredPoints(names.length) });
  const plays = h("ul", { class: "chat", "aria-label": t.plays, tabindex: 0, "data-area": "plays" }, ...(v?.round_plays ?? []).map((p) => h("li", { class: st.scopas.has(p.card) ? "scopa" : "" }, livePlay(p))));
  const old = document.querySelector("[data-area=plays]");
  const readingBack = !!old && old.scrollTop + old.clientHeight < old.scrollHeight - 4; // scrolled up to read: left there
  const readAt = old?.scrollTop ?? 0;
  const focused = document.activeElement?.id;
  const arriving = !drawn || !app.contains(drawn); // from the lobby (or a replay): not its scroll, the table's top
  app.toggleAttribute("data-mine", mine);
  if (!st.choices) app.style.paddingBottom = ""; // the room made for the sheet: gone with it
  const top = header(st.gameEnd || st.replaced ? "" : leaveButton(), button(t.chat, toChat, "quiet chat-go")); // the chat, far down a phone's page, one tap away
  app.replaceChildren(top, st.unread ? unreadBadge() : "", statusLine(), watchingLine(), // the count over the page, at the screen's foot: it moves nothing
    st.gameEnd ? gameEndBox(st.gameEnd) : st.replaced ? "" : h("p", { class: "status", id: "turn" }, turnText, timerEl), // another tab's seat: the status line alone says so
    inviteBox(), newsLine(), // one notice, the newest: the older give way
    seats, h("div", { class: "split" }, v && !st.gameEnd ? h("div", {}, // no board until the game is dealt (only the seats to fill), none once it is over
      lastPlayLine(), h("h2", {}, `${t.table} · ${t.stock} ${v.stock ?? 0}`, onlookers()), table,
      ...(v.hand && !st.watching ? [h("h2", {}, t.hand), hand] : []), decl, // a spectator has no hand
      h("p", { id: "tap-said", role: "status" }, tapSaid() || tapWords(sp, deck, mine, st.picked, st.picked ? movesWith(st.picked) : [], !!st.choices)),
      st.watching ? "" : keysLine(sp, v.hand?.length ?? 0)) : "",
    h("div", {}, v && !st.gameEnd ? piles : "", v ? h("section", { class: "panel", "aria-label": t.plays }, h("h2", {}, t.plays), plays) : "",
      chatBox(st.tableChat, () => `table:${st.tableId}`, "table-chat", st.watching ? t.chatWatching : ""))),
    settings(), choiceSheet(), mine ? turnBar() : "");
  plays.scrollTop = readingBack ? readAt : plays.scrollHeight; // the newest play in view
  if (focused) document.getElementById(focused)?.focus();
  drawn = seats;
  if (arriving) window.scrollTo(0, 0);
  if (st.gameEnd) closeRoundEnd(); // the last round's breakdown is in the game's end, not over it
  else if (roundToShow()) roundEndDialog(roundToShow() as RoundEnd); // the one a reload brings back too
  else if (st.watching && underway()) closeRoundEnd(); // a spectator's box goes by itself once the next round's play is under way
  showClock();
  placeBars();
}

/** "Your turn" over the page once its turn line is scrolled away (a tap goes back up to it),
 * with the last play in a line of its own while the bar lies over it (placeBars). */
function turnBar(): HTMLButtonElement {
  const bar = button(t.yourTurn, () => document.getElementById("turn")?.scrollIntoView({ block: "start" }), "turn-bar");
  const last = document.createElement("span");
  last.className = "bar-last";
  last.hidden = true;
  bar.append(last);
  return bar;
}

/** The round is under way: a person has played in it (their box closed), or every seat has (bots alone at the table). */
function underway(): boolean {
  const plays = st.view?.round_plays ?? [];
  return plays.length >= seatCount() || plays.some((p) => !st.seats.find((s) => s.seat === p.seat)?.bot);
}

/** Down to the table's chat, its newest lines and the line to write in (seen: no message is new). */
function toChat(): void {
  st.unread = 0;
  const chat = document.getElementById("table-chat");
  chat?.closest("section")?.scrollIntoView({ block: "end" });
  render();
  document.getElementById("table-chat")?.closest("section")?.querySelector<HTMLElement>("ul.chat")?.focus({ preventScroll: true });
}

/** The chat's new messages, counted: a tap goes down to the chat (seen: no longer new). */
function unreadBadge(): HTMLButtonElement {
  return button(st.unread === 1 ? t.newChatOne : fill(t.newChat, { n: st.unread }), toChat, "chat-new");
}

/** Whether ``e`` is wholly out of the window's view. */
function outOfView(e: Element): boolean {
  const r = e.getBoundingClientRect();
  return r.bottom <= 0 || r.top >= window.innerHeight;
}

/** The table's chat is on the page, its newest line scrolled out of view (and the person not
 * writing in it): a message that comes is counted. */
export function chatOutOfView(): boolean {
  const log = document.getElementById("table-chat")?.closest("section")?.querySelector("ul.chat");
  if (!log || !st.tableId || document.activeElement?.id === "table-chat") return false;
  const r = log.getBoundingClientRect();
  const line = log.lastElementChild?.getBoundingClientRect().height ?? 24; // the newest line shows at the log's foot
  return r.bottom - line > window.innerHeight || r.bottom <= 0;
}

/** The bars over the page: "Your turn" while the turn's line is out of view (or the chat has the
 * focus), the chat's new messages while the chat is out of view (seen: no longer new). */
function placeBars(): void {
  const bar = document.querySelector<HTMLElement>(".turn-bar");
  const turn = document.getElementById("turn");
  if (bar) bar.hidden = !!turn && !outOfView(turn) && document.activeElement?.id !== "table-chat";
  const head = document.querySelector("header.bar"); // the bar sits below the page's header while it shows (its buttons stay tappable)
  if (bar) bar.style.top = `${Math.max(0, head?.getBoundingClientRect().bottom ?? 0)}px`;
  const under = bar?.querySelector<HTMLElement>(".bar-last");
  const last = document.getElementById("last-play");
  if (bar && under) { // the last play, when the bar lies over its line: said in the bar
    under.hidden = true;
    under.textContent = last?.textContent ?? "";
    const [line, over] = [last?.getBoundingClientRect(), bar.getBoundingClientRect()];
    under.hidden = bar.hidden || !line || line.top >= over.bottom || line.bottom <= over.top;
  }
  const badge = document.querySelector<HTMLElement>(".chat-new"); // at the screen's foot (style.css): never over the turn's line, its clock or a notice
  if (badge) badge.hidden = !!st.choices; // the ways to take sit at the foot while they are laid out
  if (st.unread && !chatOutOfView()) { st.unread = 0; document.querySelector(".chat-new")?.remove(); }
}
window.addEventListener("scroll", placeBars, { passive: true });
document.addEventListener("focusin", placeBars);
document.addEventListener("focusout", () => setTimeout(placeBars));

/** A seat's name with its mark (you, your partner), in the name's own bracket when it has one:
 * "Nonna_Pina (bot, in squadra con te)", not two brackets side by side. */
function marked(name: string, mark: string): string {
  if (!mark) return name;
  return name.endsWith(")") ? `${name.slice(0, -1)}, ${mark})` : `${name} (${mark})`;
}

/** A team game's seat on the person's side says so. */
function partner(i: number): boolean {
  const side = (seat: number | null) => st.seats.find((x) => x.seat === seat)?.side;
  return seatCount() > 2 && st.seat !== null && !st.watching && i !== st.seat && side(i) !== undefined && side(i) === side(st.seat);
}


let shownRound = -1;
let boxed: RoundEnd | null = null; // the round whose box was shown last
function roundEndDialog(r: RoundEnd): void {
  if (shownRound === r.event) return;
  shownRound = r.event;
  boxed = r;
  closeRoundEnd(); // a box left open (a spectator need not close one): the new round's takes its place, never on top of it
  const d = dialog(fill(t.roundEnd, { n: r.round }), t.next, "round-end", () => { roundClosed(r); render(); }); // the score panel behind it: the new round's
  d.body.append(...roundParts(r), h("p", { class: "status", id: "round-end-turn" }), h("p", { id: "round-end-calm" }));
  const next = d.actions.querySelector("button");
  next?.classList.replace("quiet", "primary"); // Continue: the box's one big button, at its foot
  if (!st.watching) { // the board's Leave is behind the box while it is open: here too, small and apart under Continue
    const leave = leaveButton();
    leave.removeAttribute("id");
    leave.textContent = t.leaveGame; // not the box's close: it leaves the game (and asks first)
    leave.classList.add("aside");
    const foot = h("footer", { class: "foot" }); // the box's foot, kept in sight: Continue, and under it Leave
    d.actions.replaceWith(foot);
    foot.append(d.actions, h("p", { class: "leave-aside" }, leave));
  }
  next?.focus(); // Enter never opens the question of leaving
}

/** The round's breakdown, and who takes the cards left on the table. */
function roundParts(r: RoundEnd): HTMLElement[] {
  const names = r.totals.map((_, i) => sideName(i));
  const before = r.totals.map((total, i) => st.totalsBefore[i] ?? total - (r.points[i] ?? 0));
  return breakdown(sp, deck, names, r, before, st.info?.rules);
}

/** The round boxes still open: the game's end shows the last round itself. */
function closeRoundEnd(): void {
  for (const open of document.querySelectorAll<HTMLDialogElement>("dialog#round-end")) { open.close(); open.remove(); }
}

/** The game's end: who won, the totals, the ways on, then the round that ended the game
 * (none when the game ended inside a round: it was left). */
function gameEndBox(g: GameEnd): HTMLElement {
  const r = st.roundEnd;
  return h("section", { class: "panel end", id: "game-end", role: "alert", "aria-labelledby": "game-end-title" },
    h("h2", { id: "game-end-title" }, t.gameEnd),
    h("p", { class: "winner" }, st.leaving && g.reason === "abandoned" ? t.youLeftEnd
      : gameEndLine(sp, g, sideName, mySide(), typeof g.leaver === "number" ? seatName(g.leaver) : undefined)),
    gameEndTotals(sp, g, sideName), st.watching ? "" : noTableNote(), st.watching || !st.lastFinal ? "" : standingsTable(st.lastFinal),
    h("p", { class: "bar" }, st.watching ? leaveButton() : toLobby(), replayButton()), rematchPart(),
    r ? h("section", { id: "last-round", "aria-labelledby": "last-round-title" },
      h("h3", { id: "last-round-title" }, fill(t.lastRound, { n: r.round })), ...roundParts(r)) : "");
}

/** The game just played, shown again in the replay viewer (the server's record of the table). */
function replayButton(): HTMLButtonElement {
  const table = st.tableId;
  // a spectator of a private table: the invite it came with shows the game too (PROTOCOL.md get_record)
  const invite = st.watching && st.watchInvite ? st.watchInvite : null;
  return button(t.watchReplay, () => send("get_record", { game: table, token: table ? heldTokens()[table] ?? null : null, invite }));
}

