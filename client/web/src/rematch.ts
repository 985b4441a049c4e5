// A rematch from the game's end: a new table with the finished one's settings, made by
// one of its players; the others are offered it on their own game-over screen, and its
// seats say whom they wait for. A seat a bot played for a person who is gone gets a bot in
// the rematch. With no other person left at the table (only the server's bots play there),
// a new game against the bots instead.
import { button, h } from "./dom";
import { fill } from "./i18n";
import type { TableInfo } from "./protocol";
import { LEVELS, sp, st, t } from "./state";
import { render, send } from "./main";

const BOT = /^([a-z]+)-bot-\d+$/; // a server's bot's name ("greedy-bot-1": greedy)

/** The server's own bots seated at the finished table, by strategy. */
function botsOf(info: TableInfo): string[] {
  return info.seats.flatMap((n) => BOT.exec(n ?? "")?.[1] ?? []);
}

/** The other seats of the finished table as bots' strategies, when no other person plays
 * there any more (the server's bots; a bot playing on for a person who left plays as a
 * medium one); null while another person plays there. */
function botsOnly(info: TableInfo): string[] | null {
  const others = info.seats.flatMap((n, i) => (i === st.seat ? [] : [BOT.exec(n ?? "")?.[1] ?? (info.bots?.includes(i) ? LEVELS.medium : null)]));
  return others.length && others.every((x) => x) ? others as string[] : null;
}

/** The other people's seats of the finished table that a bot played at its end (their person gone), by name. */
function standIns(info: TableInfo): string[] {
  return info.seats.flatMap((n, i) => (i !== st.seat && n && !BOT.test(n) && info.bots?.includes(i) ? [n] : []));
}

/** The finished game whose rematch this page may sit at, and the other people it waits for there. */
let lastGame: { table: string; people: string[] } | null = null;

/** Make the rematch: the same rules, privacy, turn clock, takeover and bots, this person
 * seated, a bot in the seat of each person a bot played for at the end; against the
 * server's bots only, a new game with a bot in every other seat (it starts at once). */
function askRematch(): void {
  const info = st.info;
  if (!info || !st.tableId) return;
  const clock = info.turn_timeout ?? null;
  const bots = botsOnly(info);
  const rematch = !bots || standIns(info).length > 0; // the people's game again, a bot for whoever is gone
  send("create_table", {
    rules: info.rules, fill_with_bots: bots ?? [...botsOf(info), ...standIns(info).map(() => LEVELS.medium)], private: !!info.private,
    bot_takeover: info.bot_takeover ?? true, turn_timeout: clock, no_turn_timer: !!info.private && clock === null,
    ...(rematch ? { rematch_of: st.tableId } : {}),
  });
}

/** A free seat of the table, as its seats' row says it: at the rematch of the game just
 * played, the people it was offered to (not yet seated) are waited for; else it is free. */
export function freeSeatWords(): string {
  const info = st.info;
  if (!info?.rematch_of || lastGame?.table !== info.rematch_of) return t.freeSeat;
  const waited = lastGame.people.filter((n) => !info.seats.includes(n)).map((n) => sp.name(n));
  if (!waited.length) return t.freeSeat;
  const names = waited.length === 1 ? waited[0] : `${waited.slice(0, -1).join(", ")} ${t.and} ${waited[waited.length - 1]}`;
  return fill(t.rematchWaits, { names });
}

/** A table the server says is a rematch of the game this page shows ended: offered here. */
export function rematchOffered(info: TableInfo): void {
  if (info.rematch_of && info.rematch_of === st.tableId && st.gameEnd && info.state === "waiting") st.rematch = info;
}

/** Who proposes the offered rematch (the one seated at it). */
function proposer(info: TableInfo): string {
  const name = info.seats.find((n) => n && n !== st.name && !BOT.test(n));
  return name ? sp.name(name) : "";
}

/** Watch the rematch ``offer`` (a spectator of the game it follows). */
function watchRematch(offer: TableInfo): void {
  st.tableId = offer.id; st.watching = true; st.gameEnd = null; st.seats = []; st.watchInvite = "";
  send("watch_table", { table: offer.id });
  render();
}

/** The game-over screen's rematch: the offer another player made (and a button to join
 * it, or for a spectator to watch it), or the button that makes one (a new game against
 * the bots, when only bots are left with this person); none for a spectator until a player makes one. */
export function rematchPart(): HTMLElement | string {
  const offer = st.rematch;
  if (st.info && st.tableId) lastGame = { table: st.tableId, people: st.info.seats.flatMap((n, i) => (n && n !== st.name && !BOT.test(n) && !st.info?.bots?.includes(i) ? [n] : [])) };
  if (offer) {
    return h("p", { class: "bar rematch", id: "rematch" }, h("span", { class: "grow" }, fill(t.rematchOffer, { name: proposer(offer) })),
      st.watching ? button(t.rematchWatch, () => watchRematch(offer)) : button(t.rematchJoin, () => send("join_table", { table: offer.id })));
  }
  if (st.watching) return "";
  const bots = st.info ? botsOnly(st.info) : null;
  const gone = st.info ? standIns(st.info).map((n) => sp.name(n)) : [];
  const label = gone.length ? fill(t.rematchWithBot, { names: gone.join(", ") }) : !bots ? t.rematch : bots.length === 1 ? t.againstBotAgain : t.againstBotsAgain;
  return h("p", { class: "bar rematch", id: "rematch" }, button(label, askRematch));
}
