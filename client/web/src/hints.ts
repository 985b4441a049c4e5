// The lines under the hand: what tapping does now and, once a card is picked, what that
// card would do (the cards it takes, that it takes nothing and is laid down, or that one
// chooses among its ways); and, on a page with a keyboard and a mouse, the keys that play.
import { cardName, type Deck } from "./cards";
import { h } from "./dom";
import { fill, type Speech } from "./i18n";
import type { LegalMove } from "./protocol";

/** What tapping does now (``mine``: it is the person's turn); ``moves``: the picked card's ways
 * (``choosing``: laid out in the sheet below, to choose from). */
export function tapWords(sp: Speech, deck: Deck, mine: boolean, picked: string | null, moves: LegalMove[], choosing = false): string {
  const w = sp.w;
  if (!mine) return "";
  if (!picked) return w.tapHint;
  const card = cardName(picked, deck);
  const takes = moves.filter((m) => m.capture.length);
  if (!takes.length) return fill(w.nothingTaken, { card });
  const cards = (m: LegalMove) => m.capture.map((c) => cardName(c, deck)).join(" + ");
  if (takes.length === 1) return fill(w.takesOne, { card, cards: cards(takes[0]) });
  return fill(choosing ? w.takesChoosing : w.takesChoice, { card, ways: takes.map(cards).join(w.or) });
}

/** The keys that play a card, said only on a page with a fine pointer that hovers (a
 * computer's mouse, and so most likely its keyboard): a phone's touch screen has no keys. */
export function keysLine(sp: Speech, hand: number): HTMLElement | string {
  if (!hand || !window.matchMedia("(hover: hover) and (pointer: fine)").matches) return "";
  return h("p", { class: "hint", id: "keys-said" }, fill(sp.w.keysHint, { n: Math.min(hand, 9) }));
}
