// A finished game again, step by step, from its record (docs/RECORDS.md): each round's
// deck dealt as the engine deals it (hands first, from the seat after the dealer, then
// the table; the stock drawn from the top), then its plays one at a time. Every hand is
// shown: the game is over.
import type { PileInfo, Record as GameRecord, RecordPlay, RoundEnd, SideTally } from "./protocol";

export interface Board {
  round: number; // index into record.rounds
  step: number; // plays applied (0: just dealt; actions.length: the round's end)
  dealer: number;
  hands: string[][];
  table: string[];
  stock: number;
  plays: { seat: number; card: string; captured: string[]; timedOut: boolean; bot: boolean }[]; // timedOut: the server played it when the seat's time ran out; bot: a bot played it for the seat's person
  scopas: Set<string>;
  piles: PileInfo[];
  totals: number[]; // the game's totals before this round
  turn: number;
}

const PRIMIERA: Record<string, number> = { "7": 21, "6": 18, A: 16, "5": 15, "4": 14, "3": 13, "2": 12, F: 10, C: 10, R: 10 };

function primiera(pile: string[]): number {
  const best: Record<string, number> = {};
  for (const c of pile) best[c[1]] = Math.max(best[c[1]] ?? 0, PRIMIERA[c[0]] ?? 0);
  return Object.keys(best).length === 4 ? Object.values(best).reduce((a, b) => a + b, 0) : 0;
}

function isPlay(a: unknown): a is RecordPlay { return typeof (a as RecordPlay).card === "string"; }

const RANKS = "A234567FCR";
const SUITS = "dcsb";
/** Cards in the order the live page shows them (the server's: by rank, then Denari, Coppe, Spade, Bastoni). */
export function inOrder(cards: string[]): string[] {
  const at = (c: string) => RANKS.indexOf(c[0]) * 4 + SUITS.indexOf(c[1]);
  return [...cards].sort((a, b) => at(a) - at(b));
}

/** The board of ``record`` after ``step`` plays of round ``round``. */
export function boardAt(record: GameRecord, round: number, step: number): Board {
  const r = record.rounds[round];
  const rules = record.rules;
  const n = record.players.length;
  const side = record.players.map((p) => p.side);
  const sides = Math.max(...side) + 1;
  const size = rules.hand_size ?? 3;
  const deck = [...r.deck];
  const hands: string[][] = Array.from({ length: n }, () => []);
  let seat = r.dealer;
  for (let i = 0; i < n; i++) { seat = (seat + 1) % n; hands[seat] = deck.splice(0, size); }
  let table = deck.splice(0, rules.table_cards ?? 4);
  const stock = deck; // the next card drawn is stock[0]
  const captured: string[][] = Array.from({ length: sides }, () => []);
  const scope = Array(sides).fill(0);
  const scopas = new Set<string>();
  const plays: Board["plays"] = [];
  let turn = (r.dealer + 1) % n;
  for (const a of r.actions.slice(0, step).filter(isPlay)) {
    const take = a.capture ?? [];
    hands[a.seat] = hands[a.seat].filter((c) => c !== a.card);
    if (take.length) {
      table = table.filter((c) => !take.includes(c));
      captured[side[a.seat]].push(a.card, ...take);
      const left = hands.some((h) => h.length) || stock.length > 0;
      if (!table.length && left) { scope[side[a.seat]] += 1; scopas.add(a.card); }
    } else table.push(a.card);
    plays.push({ seat: a.seat, card: a.card, captured: take, timedOut: a.forced === "timeout", bot: !!a.bot });
    if (rules.refill_each_turn && stock.length) hands[a.seat].push(...stock.splice(0, 1));
    turn = (a.seat + 1) % n;
    if (hands.every((h) => !h.length) && stock.length) {
      let s = r.dealer;
      for (let i = 0; i < n; i++) { s = (s + 1) % n; hands[s] = stock.splice(0, size); }
      turn = (r.dealer + 1) % n;
    }
  }
  const piles = captured.map((p, i) => ({
    cards: p.length, denari: p.filter((c) => c[1] === "d").length, settebello: p.includes("7d"),
    primiera: primiera(p), scope: scope[i],
  }));
  const totals = round > 0 ? [...record.rounds[round - 1].totals] : Array(sides).fill(0);
  return { round, step, dealer: r.dealer, hands: hands.map(inOrder), table: inOrder(table), stock: stock.length, plays, scopas, piles, totals, turn };
}

/** The round's end as live play shows it (its tallies counted from the piles), or null
 * when the game ended inside the round. */
export function roundEndAt(record: GameRecord, round: number): RoundEnd | null {
  const r = record.rounds[round];
  if (!r.breakdown || !r.points) return null;
  const b = boardAt(record, round, r.actions.length);
  const leftTo = r.leftover_to;
  const tallies: SideTally[] = b.piles.map((p, i) => {
    const extra = i === leftTo ? r.leftover ?? [] : [];
    const pile = [...extra];
    return {
      cards: p.cards + pile.length, denari: p.denari + pile.filter((c) => c[1] === "d").length,
      settebello: p.settebello || pile.includes("7d"), primiera: p.primiera, scope: p.scope,
    };
  });
  // The primiera counts the leftover too: count it again from every card the side took.
  const sidesCards = sideCards(record, round);
  tallies.forEach((t, i) => { t.primiera = primiera(sidesCards[i]); t.primiera_cards = bestCards(sidesCards[i]); });
  return { event: -(round + 1), round: r.number, cards: tallies.map((t) => t.cards), breakdown: r.breakdown, tallies,
    points: r.points, totals: r.totals, leftover: r.leftover, leftover_to: leftTo };
}

/** R3, R21: the best card of each suit ``pile`` holds (the highest primiera value, the
 * lowest card of equals), in suit order, as the server names them at a round's end. */
function bestCards(pile: string[]): string[] {
  const value = (c: string) => PRIMIERA[c[0]] ?? 0;
  return [...SUITS].flatMap((s) => {
    const held = pile.filter((c) => c[1] === s);
    return held.length ? [held.reduce((a, c) => (value(c) > value(a) || (value(c) === value(a) && RANKS.indexOf(c[0]) < RANKS.indexOf(a[0])) ? c : a))] : [];
  });
}

function sideCards(record: GameRecord, round: number): string[][] {
  const r = record.rounds[round];
  const side = record.players.map((p) => p.side);
  const cards: string[][] = Array.from({ length: Math.max(...side) + 1 }, () => []);
  for (const a of r.actions.filter(isPlay)) if (a.capture?.length) cards[side[a.seat]].push(a.card, ...a.capture);
  if (r.leftover_to !== null && r.leftover_to !== undefined) cards[r.leftover_to].push(...(r.leftover ?? []));
  return cards;
}
