// Cards drawn as SVG: the Italian suits (default) or the French ones.
const NS = "http://www.w3.org/2000/svg";
export type Deck = "italian" | "french";

const ITALIAN_NAMES: Record<string, string> = { d: "Denari", c: "Coppe", s: "Spade", b: "Bastoni" };
const FRENCH: Record<string, [string, string]> = { d: ["♦", "#c62828"], c: ["♥", "#c62828"], s: ["♠", "#111"], b: ["♣", "#111"] };
// The French court cards' letters in the page's language: Jack, Queen, King; Fante, Donna, Re.
const COURTS: Record<string, Record<string, string>> = { en: { F: "J", C: "Q", R: "K" }, it: { F: "F", C: "D", R: "R" } };
let FRENCH_RANK = COURTS.en;
let OF = " "; // between an Italian card's rank and its suit: "Re di Bastoni" in Italian, "Re Bastoni" in English
const RANK_NAME: Record<string, string> = { A: "Asso", F: "Fante", C: "Cavallo", R: "Re" };

function el(tag: string, attrs: Record<string, string | number>, text?: string): SVGElement {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

function italianSuit(suit: string, x: number, y: number, r: number): SVGElement {
  const g = el("g", { transform: `translate(${x} ${y})` });
  if (suit === "d") {
    g.append(el("circle", { r, fill: "#f2b705", stroke: "#8a6100", "stroke-width": 2 }), el("circle", { r: r / 2.5, fill: "#c62828" }));
  } else if (suit === "c") {
    g.append(el("path", { d: `M${-r} ${-r}h${2 * r}c0 ${r} ${-r / 2} ${r * 1.2} ${-r / 1.6} ${r * 1.3}v${r / 2}h${r / 2}v${r / 3}h${-r * 1.75}v${-r / 3}h${r / 2}v${-r / 2}C${-r / 2} ${r * 0.2} ${-r} 0 ${-r} ${-r}z`, fill: "#c62828", stroke: "#7f1010", "stroke-width": 1.5 }));
  } else if (suit === "s") {
    g.append(el("path", { d: `M0 ${-r * 1.5}L${r / 3.5} ${r * 0.6}H${-r / 3.5}Z`, fill: "#4a78b5", stroke: "#1c3d66", "stroke-width": 1.5 }),
      el("rect", { x: -r * 0.8, y: r * 0.6, width: r * 1.6, height: r / 4, fill: "#1c3d66" }),
      el("rect", { x: -r / 8, y: r * 0.85, width: r / 4, height: r * 0.6, fill: "#6b3e1e" }));
  } else {
    g.append(el("path", { d: `M${-r / 4} ${r * 1.4}L${-r / 2.2} ${-r * 1.2}Q0 ${-r * 1.7} ${r / 2.2} ${-r * 1.2}L${r / 4} ${r * 1.4}Z`, fill: "#2e7d32", stroke: "#1b4d1e", "stroke-width": 1.5 }));
  }
  return g;
}

/** The cards' names from now on in ``lang``: the French court letters (it: F, D, R; en:
 * J, Q, K), and an Italian card's "di" ("7 di Denari") on an Italian page. */
export function courtsIn(lang: string): void {
  FRENCH_RANK = COURTS[lang] ?? COURTS.en;
  OF = lang === "it" ? " di " : " ";
}

/** A card's accessible name, e.g. "7 di Denari" (an Italian page), "7 Denari" or "7♦". */
export function cardName(card: string, deck: Deck): string {
  const [rank, suit] = [card[0], card[1]];
  if (deck === "french") {
    const suits: Record<string, string> = { d: "♦", c: "♥", s: "♠", b: "♣" };
    return `${FRENCH_RANK[rank] ?? rank}${suits[suit]}`;
  }
  return `${RANK_NAME[rank] ?? rank}${OF}${ITALIAN_NAMES[suit]}`;
}

/** A suit's name as the cards show it ("Denari", or "♦" on French cards). */
export function suitName(suit: string, deck: Deck): string {
  return deck === "french" ? FRENCH[suit][0] : ITALIAN_NAMES[suit];
}

export function cardSvg(card: string, deck: Deck): SVGElement {
  const [rank, suit] = [card[0], card[1]];
  const svg = el("svg", { viewBox: "0 0 60 92", "aria-hidden": "true" });
  svg.append(el("rect", { x: 1, y: 1, width: 58, height: 90, rx: 6, fill: "#fffdf6", stroke: "#555", "stroke-width": 1.5 }));
  if (deck === "french") {
    const [glyph, colour] = FRENCH[suit];
    const shown = FRENCH_RANK[rank] ?? rank;
    svg.append(el("text", { x: 6, y: 22, "font-size": 20, "font-weight": "bold", fill: colour }, shown),
      el("text", { x: 30, y: 64, "font-size": 34, "text-anchor": "middle", fill: colour }, glyph));
  } else {
    const colour = { d: "#8a6100", c: "#b71c1c", s: "#1c3d66", b: "#1b5e20" }[suit] ?? "#111";
    svg.append(el("text", { x: 6, y: 22, "font-size": 20, "font-weight": "bold", fill: colour }, rank),
      italianSuit(suit, 32, 58, 13));
  }
  return svg;
}
