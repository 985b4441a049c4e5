// The round's breakdown as its box shows it, at the table and in a game shown again: every
// category's numbers and points, why each side has its primiera, and who takes the cards
// left on the table.
import type { Deck } from "./cards";
import { h } from "./dom";
import { fill, type Speech } from "./i18n";
import { primieraLines } from "./primiera";
import type { RoundEnd, WireRules } from "./protocol";
import { roundTable } from "./score";

/** The round ``r``'s breakdown for the sides ``names`` (the game's totals ``before`` it). */
export function roundParts(sp: Speech, deck: Deck, names: string[], r: RoundEnd, before: number[], rules: WireRules | null | undefined): HTMLElement[] {
  const parts = [roundTable(sp, names, r, before, rules?.target, !!rules?.frac)];
  if (!rules?.frac && r.tallies?.length) parts.push(primieraLines(sp, deck, names, r)); // why each side's primiera
  if (r.leftover?.length && r.leftover_to !== null && r.leftover_to !== undefined) {
    parts.push(h("p", { id: "leftover-to" }, fill(sp.w.leftoverTo, { name: spoken(sp, names[r.leftover_to] ?? "") })));
  }
  return parts;
}

/** A side's name ("ana + bea", as its column says it) in a sentence: "ana e bea". */
function spoken(sp: Speech, side: string): string {
  const each = side.split(" + ");
  return each.length < 2 ? side : `${each.slice(0, -1).join(", ")} ${sp.w.and} ${each[each.length - 1]}`;
}
