// One play in words, the same wherever it is said (the round's plays, the last play over the
// table, a replay's step): "Nonno: Fante Denari → Fante Coppe · Scopa!".
import { cardName } from "./cards";
import { h } from "./dom";
import { fill } from "./i18n";
import { deck, playerName, st, t } from "./state";

/** ``who`` played ``card``, taking ``captured`` (a scopa; the server's play when their time ran out). */
export function playWords(who: string, card: string, captured: string[], scopa: boolean, timedOut: boolean): string {
  const took = captured.length ? ` → ${captured.map((c) => cardName(c, deck)).join(", ")}` : "";
  return `${who}: ${cardName(card, deck)}${took}${scopa ? ` · ${t.scopa}` : ""}${timedOut ? ` · ${t.timedOut}` : ""}`;
}

/** A live play of the round, in words. */
export function livePlay(p: { seat: number; card: string; captured: string[] }): string {
  return playWords(playerName(p.seat, p.card), p.card, p.captured, st.scopas.has(p.card), st.forced.has(p.card));
}

/** The round's last play, over the table where the eyes are (none before the round's first). */
export function lastPlayLine(): HTMLElement | string {
  const plays = st.view?.round_plays ?? [];
  const last = plays[plays.length - 1];
  if (!last || st.gameEnd) return "";
  return h("p", { class: "status", id: "last-play" }, fill(t.lastPlay, { play: livePlay(last) }));
}

/** The card the last play laid on the table (it took nothing), to be marked there. */
export function laidCard(): string | null {
  const plays = st.view?.round_plays ?? [];
  const last = plays[plays.length - 1];
  return last && !last.captured.length ? last.card : null;
}
