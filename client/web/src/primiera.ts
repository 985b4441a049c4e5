// Why each side has the primiera it has, under the round's table: each side's best card
// of every suit and their sum, or the suits it lacks (then it has no primiera at all), as
// the server's round end tells them (its tallies' primiera_cards: the same after a reload).
import { cardName, type Deck, suitName } from "./cards";
import { h } from "./dom";
import { fill, type Speech } from "./i18n";
import type { RoundEnd, SideTally } from "./protocol";
import { PRIMIERA } from "./score";

const SUITS = ["d", "c", "s", "b"];

/** A side's best card of each suit it took, by suit (none for a side that took nothing);
 * null when the server did not say. */
function bestOf(tally: SideTally | undefined): Map<string, string> | null {
  if (!tally) return null;
  if (!tally.primiera_cards) return tally.cards === 0 ? new Map() : null;
  return new Map(SUITS.flatMap((s) => tally.primiera_cards?.filter((c) => c[1] === s).map((c): [string, string] => [s, c]) ?? []));
}

/** One line per side (``names``): its primiera and the cards it is made of, or the suits it
 * lacks; a side whose cards the server did not name, or that do not add up to its sum, by its sum only. */
export function primieraLines(sp: Speech, deck: Deck, names: string[], r: RoundEnd): HTMLElement {
  const w = sp.w;
  const lines = names.map((name, i) => {
    const sum = r.tallies?.[i]?.primiera ?? 0;
    const best = bestOf(r.tallies?.[i]);
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
