// A seat coming back to its table: what was said there meanwhile (the chat lines that come
// with ``joined``), and what the bot that played the seat while its person was away played for them.
import { cardName } from "./cards";
import { fill } from "./i18n";
import type { ChatMessage } from "./protocol";
import { deck, st, t } from "./state";

/** A chat message as the page lists it: "author: text". */
export function chatLine(m: ChatMessage): string {
  return `${String(m.author).replace(/^player:/, "")}: ${m.text}`;
}

/** The table's last chat messages, which a seat coming back gets: in place of the chat the page had. */
export function chatBack(chat: ChatMessage[] | undefined): void {
  st.tableChat = (chat ?? []).map(chatLine);
}

/** What a seat's page coming back to the round's plays (a snapshot) says of the cards the
 * server played for the person after their own last play, their time run out while they
 * were away ("" when none). */
export function forcedMeanwhile(plays: { seat: number; card: string; forced?: string | null }[]): string {
  const mine = plays.filter((p) => p.seat === st.seat);
  const own = mine.map((p) => p.forced === "timeout").lastIndexOf(false); // the person's own last play
  const forced = mine.slice(own + 1);
  return forced.length ? fill(t.timedOutAway, { cards: forced.map((p) => cardName(p.card, deck)).join(", ") }) : "";
}

/** What the person reads on taking the seat back from the bot that played it: that it did,
 * and the cards it played for them this round (the plays the page marked as the bot's). */
export function heldBackWords(): string {
  const cards = (st.view?.round_plays ?? []).filter((p) => p.seat === st.seat && st.bots.has(p.card)).map((p) => cardName(p.card, deck));
  return cards.length ? `${t.heldBack} ${fill(t.botPlayedForYou, { cards: cards.join(", ") })}` : t.heldBack;
}
