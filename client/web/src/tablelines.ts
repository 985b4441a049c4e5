// Lines that stay on the table's page while they hold: that the page only watches (and
// whose game), how many watch, and whose seat a bot plays because its person is not at the
// table; and the one notice above the board, the newest.
import { button, h } from "./dom";
import { fill } from "./i18n";
import type { TableInfo } from "./protocol";
import { nameOf, st, t } from "./state";
import { send } from "./main";

const EYE = '<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false"><path fill="none" stroke="currentColor" stroke-width="2" d="M1 12s4-7 11-7 11 7 11 7-4 7-11 7S1 12 1 12z"/><circle cx="12" cy="12" r="3" fill="currentColor"/></svg>';

/** How many watch the table, beside its heading: an eye and the count (in words for a
 * screen reader, and on hover); nothing while nobody watches. */
export function onlookers(): HTMLElement | string {
  const n = st.info?.spectators ?? 0;
  if (!n) return "";
  const words = fill(n === 1 ? t.spectatorOne : t.spectatorsMany, { n });
  const e = h("span", { class: "onlookers", id: "onlookers", title: words });
  e.innerHTML = EYE;
  e.append(h("span", { "aria-hidden": "true" }, String(n)), h("span", { class: "sr" }, words));
  return e;
}

/** A table's update ``after`` the page held ``before``: to a player, someone who came to
 * watch the game (or stopped) is news, said once above the board. */
export function onlookersNews(before: TableInfo | null, after: TableInfo): void {
  if (st.watching || st.seat === null || st.gameEnd || !before || before.id !== after.id || after.state === "finished") return;
  const [was, now] = [before.spectators ?? 0, after.spectators ?? 0];
  if (now !== was) st.flash = now > was ? t.watcherCame : t.watcherWent;
}

/** The people at the table, named as the page shows them ("nonna e nipote"). */
function players(): string {
  const names = st.seats.length ? st.seats.map((s) => nameOf(s.name)) : (st.info?.seats ?? []).filter((n): n is string => !!n).map(nameOf);
  if (names.length < 2) return names.join("");
  return `${names.slice(0, -1).join(", ")} ${t.and} ${names[names.length - 1]}`;
}

/** A spectator's page says it watches, and whose game: no hand, no turn of its own. */
export function watchingLine(): HTMLElement | string {
  if (!st.watching) return "";
  const who = players();
  if (st.gameEnd) return h("p", { class: "status watching", id: "watching" }, who ? fill(t.watchedOver, { names: who }) : t.watchedOverTable); // nothing left to watch
  const line = h("p", { class: "status watching", id: "watching" }, who ? fill(t.watchingGame, { names: who }) : t.watchingTable);
  // a table still waiting for players, with a seat free: the spectator may take it (with the invite it came by)
  if (st.info?.state === "waiting" && st.info.seats.includes(null) && !st.view && !st.gameEnd) {
    line.append(" ", button(t.join, () => send("join_table", { table: st.tableId, invite: st.watchInvite || null })));
  }
  return line;
}

/** The minutes and seconds until a seat's hold runs out ("1:52"). */
function heldFor(until: number): string {
  const left = Math.max(0, Math.ceil((until - Date.now()) / 1000));
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
}
function awayWords(seat: number, until: number): string {
  const s = st.seats.find((x) => x.seat === seat);
  return fill(t.away, { name: s ? nameOf(s.name) : "", left: heldFor(until) });
}

/** The other seats whose person is away (or only seat ``only``), each held for them a while
 * longer: one line each, counting down, until the person is back or a bot takes the seat. */
export function awayLines(only?: number): HTMLElement | string {
  if (st.gameEnd) return "";
  const seats = [...st.away].filter(([seat]) => seat !== st.seat && (only === undefined || seat === only));
  if (!seats.length) return "";
  return h("ul", { class: "scopa away", id: "away", role: "status" },
    ...seats.map(([seat, until]) => h("li", { "data-seat": seat }, awayWords(seat, until))));
}
/** The away lines' countdowns, told again (each second). */
export function tickAway(): void {
  for (const li of document.querySelectorAll<HTMLElement>("#away li[data-seat]")) {
    const seat = Number(li.dataset.seat);
    const until = st.away.get(seat);
    if (until !== undefined) li.textContent = awayWords(seat, until);
  }
}

/** The seats a bot plays while their person is not at the table (away too long, or
 * left), or only seat ``only``: one line each, until the person takes the seat back or the game ends. */
export function standInLines(only?: number): HTMLElement | string {
  if (st.gameEnd) return "";
  const seats = [...st.takeovers].filter(([i, from]) => !from.until && (only === undefined || i === only)).map(([i, from]) => ({ s: st.seats.find((s) => s.seat === i), why: from.why }))
    .filter(({ s }) => s !== undefined && s.bot);
  if (!seats.length) return "";
  return h("ul", { class: "status stand-in", id: "stand-in", "aria-label": t.standInTitle },
    ...seats.map(({ s, why }) => h("li", { "data-seat": s!.seat }, fill(why === "left" ? t.botLeft : t.standIn, { name: nameOf(s!.name) }))));
}

/** The keys and lines of what the table has to say above the board now, oldest kinds
 * first: the seats held for their away person, the seats a bot plays, the person's own
 * news (the server played for them), the latest play's news (a scopa, a time-out). */
function news(): [string, () => HTMLElement | string][] {
  const said: [string, () => HTMLElement | string][] = [];
  if (st.gameEnd) return said; // the game's end: its result is the news, not a play of before or who is away
  for (const [seat] of st.away) if (seat !== st.seat) said.push([`away:${seat}`, () => awayLines(seat)]);
  for (const [seat, from] of st.takeovers) if (!from.until) said.push([`bot:${seat}:${from.why ?? ""}`, () => standInLines(seat)]);
  if (st.timedOut) said.push([`mine:${st.timedOut}`, () => h("p", { class: "scopa", role: "alert" }, st.timedOut)]);
  if (st.flash) said.push([`flash:${st.flash}`, () => h("p", { class: "scopa", role: "alert" }, st.flash)]);
  return said;
}

let heard = new Map<string, number>(); // each notice on the table, and when it was first said (in order)
let said = 0;
/** One notice above the board, the newest: the older ones give way (the seats row says who
 * is away or played by a bot, the round's plays which card the server played for whom). */
export function newsLine(): HTMLElement | string {
  const now = new Map<string, number>();
  let newest: HTMLElement | string = "";
  let at = -1;
  for (const [key, line] of news()) {
    const when = heard.get(key) ?? ++said;
    now.set(key, when);
    const shown = line();
    if (shown && when > at) { at = when; newest = shown; }
  }
  heard = now;
  return newest;
}
