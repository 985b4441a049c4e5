// Why each side has the primiera it has, under the round's table: each side's best card
// of every suit and their sum, or the suits it lacks (then it has no primiera at all).
import { cardName, type Deck, suitName } from "./cards";
import { h } from "./dom";
import { fill, type Speech } from "./i18n";
import type { RoundEnd } from "./protocol";
import { PRIMIERA } from "./score";
import { st } from "./state";

const SUITS = ["d", "c", "s", "b"];

/** Each suit's best card in ``cards`` (by primiera value), in the order of SUITS. */
function bestOf(cards: string[]): Map<string, string> {
  const best = new Map<string, string>();
  for (const suit of SUITS) {
    for (const c of cards.filter((x) => x[1] === suit)) {
      const now = best.get(suit);
      if (!now || (PRIMIERA[c[0]] ?? 0) > (PRIMIERA[now[0]] ?? 0)) best.set(suit, c);
    }
  }
  return best;
}

/** One line per side (``names``): its primiera and the cards it is made of, or the suits it
 * lacks. ``piles``: each side's cards taken in the round, when the page saw them (a page
 * reloaded after the round knows only the sums); a pile that does not add up to the
 * server's sum is not used. */
export function primieraLines(sp: Speech, deck: Deck, names: string[], r: RoundEnd, piles: string[][] | null): HTMLElement {
  const w = sp.w;
  const lines = names.map((name, i) => {
    const sum = r.tallies?.[i]?.primiera ?? 0;
    const best = piles?.[i] ? bestOf(piles[i]) : null;
    const adds = best && [...best.values()].reduce((a, c) => a + (PRIMIERA[c[0]] ?? 0), 0);
    const known = best && (sum ? best.size === 4 && adds === sum : best.size < 4);
    if (sum) {
      if (!known) return `${name}: ${sum}.`;
      const cards = [...best.values()].map((c) => `${cardName(c, deck)} ${PRIMIERA[c[0]]}`).join(", ");
      return `${name}: ${sum} (${cards}).`;
    }
    if (!known) return fill(w.primieraNoneSome, { name });
    const missing = SUITS.filter((s) => !best.has(s)).map((s) => suitName(s, deck));
    return fill(missing.length === 1 ? w.primieraNone : w.primieraNoneMany, { name, n: missing.length, suits: missing.join(", ") });
  });
  return h("div", { class: "hint", id: "primiera-why" }, h("p", {}, w.primieraRule), h("ul", {}, ...lines.map((l) => h("li", {}, l))));
}

/** Each side's cards taken in round ``r``, the cards left on the table with their taker's,
 * while the page still holds that round (not once the next one is dealt, nor after a reload then). */
export function roundPiles(r: RoundEnd): string[][] | null {
  const v = st.view;
  if (!v || v.round !== r.round || !v.captured?.length) return null;
  return r.totals.map((_, i) => [...(v.captured[i] ?? []), ...(i === r.leftover_to ? r.leftover ?? [] : [])]);
}
