// A rematch from the game's end: a new table with the finished one's settings, made by
// one of its players; the others are offered it on their own game-over screen.
import { button, h } from "./dom";
import { fill } from "./i18n";
import type { TableInfo } from "./protocol";
import { sp, st, t } from "./state";
import { send } from "./main";

/** The server's own bots seated at the finished table, by strategy ("greedy-bot-1": greedy). */
function botsOf(info: TableInfo): string[] {
  return info.seats.flatMap((n) => /^([a-z]+)-bot-\d+$/.exec(n ?? "")?.[1] ?? []);
}

/** Make the rematch: the same rules, privacy, turn clock, takeover and bots, this person seated. */
function askRematch(): void {
  const info = st.info;
  if (!info || !st.tableId) return;
  const clock = info.turn_timeout ?? null;
  send("create_table", {
    rules: info.rules, fill_with_bots: botsOf(info), private: !!info.private, bot_takeover: info.bot_takeover ?? true,
    turn_timeout: clock, no_turn_timer: !!info.private && clock === null, rematch_of: st.tableId,
  });
}

/** A table the server says is a rematch of the game this page shows ended: offered here. */
export function rematchOffered(info: TableInfo): void {
  if (info.rematch_of && info.rematch_of === st.tableId && st.gameEnd && info.state === "waiting") st.rematch = info;
}

/** Who proposes the offered rematch (the one seated at it). */
function proposer(info: TableInfo): string {
  const name = info.seats.find((n) => n && n !== st.name && !/^[a-z]+-bot-\d+$/.test(n));
  return name ? sp.name(name) : "";
}

/** The game-over screen's rematch: the offer another player made (and a button to join
 * it), or the button that makes one; none for a spectator. */
export function rematchPart(): HTMLElement | string {
  if (st.watching) return "";
  const offer = st.rematch;
  if (offer) {
    return h("p", { class: "bar rematch", id: "rematch" }, h("span", { class: "grow" }, fill(t.rematchOffer, { name: proposer(offer) })),
      button(t.rematchJoin, () => send("join_table", { table: offer.id })));
  }
  return h("p", { class: "bar rematch", id: "rematch" }, button(t.rematch, askRematch));
}
