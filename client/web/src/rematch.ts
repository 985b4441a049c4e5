// A rematch from the game's end: a new table with the finished one's settings, made by
// one of its players; the others are offered it on their own game-over screen. With no
// other person left at the table (only bots play there), a new game against the bots instead.
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

/** Make the rematch: the same rules, privacy, turn clock, takeover and bots, this person
 * seated; against bots only, a new game with a bot in every other seat (it starts at once). */
function askRematch(): void {
  const info = st.info;
  if (!info || !st.tableId) return;
  const clock = info.turn_timeout ?? null;
  const bots = botsOnly(info);
  send("create_table", {
    rules: info.rules, fill_with_bots: bots ?? botsOf(info), private: !!info.private, bot_takeover: info.bot_takeover ?? true,
    turn_timeout: clock, no_turn_timer: !!info.private && clock === null, ...(bots ? {} : { rematch_of: st.tableId }),
  });
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
  if (offer) {
    return h("p", { class: "bar rematch", id: "rematch" }, h("span", { class: "grow" }, fill(t.rematchOffer, { name: proposer(offer) })),
      st.watching ? button(t.rematchWatch, () => watchRematch(offer)) : button(t.rematchJoin, () => send("join_table", { table: offer.id })));
  }
  if (st.watching) return "";
  const bots = st.info ? botsOnly(st.info) : null;
  const label = !bots ? t.rematch : bots.length === 1 ? t.againstBotAgain : t.againstBotsAgain;
  return h("p", { class: "bar rematch", id: "rematch" }, button(label, askRematch));
}
