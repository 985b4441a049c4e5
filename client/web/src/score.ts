// What the page says about points: the score panel, the round's breakdown (every
// category with its raw numbers, so one sees why each point went where it went), the
// game's end, and a table's rules in words.
import { fill, gameName, type Speech } from "./i18n";
import type { GameEnd, PileInfo, RoundEnd, SideTally, WireRules } from "./protocol";
import { h } from "./dom";

type W = Speech["w"];

/** The categories every table but Frac counts, in the order the game counts them at a round's
 * end: the score panel and the round's box list them so, then the table's own (EXTRA). */
const COUNTED = [["carte", "cards"], ["denari", "denari"], ["settebello", "settebello"], ["primiera", "primiera"], ["scope", "scope"]] as const;
type Counted = (typeof COUNTED)[number][0];

const EXTRA: [string, keyof W][] = [
  ["ponino", "catPonino"], ["napola", "catNapola"], ["sevens", "catSevens"], ["all_sevens", "catAllSevens"],
  ["trentino", "catTrentino"], ["re_bello", "catReBello"], ["honours", "catHonours"], ["piccola", "catPiccola"],
  ["grande", "catGrande"], ["declarations", "catDeclarations"],
];

/** A table with a hidden corner heading (axe: no empty header), side names on top; three
 * sides or more drawn smaller, so that it fits a phone's width (style.css). */
function sideTable(w: W, names: string[], rows: HTMLElement[], caption?: string): HTMLElement {
  return h("table", { class: names.length > 2 ? "piles many" : "piles" }, caption ? h("caption", { class: "sr" }, caption) : "",
    h("thead", {}, h("tr", {}, h("td", {}), ...names.map((n) => h("th", { scope: "col" }, ...sideHead(n))))),
    h("tbody", {}, ...rows));
}

/** A side's name as a column's heading: a team's players ("a + b") one to a line, never a name
 * broken in two (one too long for its column ends in an ellipsis, whole in its title and in the
 * seats' list above). */
function sideHead(name: string): (string | Node)[] {
  return name.split(" + ").flatMap((n, i) => [i ? " " : "", h("span", { class: "name word", title: n }, ...wordsOf(i ? `+ ${n}` : n))]);
}

/** A name with a place to wrap after each underscore ("Zio_Gino_" / "Pasquale"): it wraps
 * where its words meet, never inside one. */
export function wordsOf(name: string): (string | Node)[] {
  return name.split(/(?<=_)/).flatMap((part, i) => (i ? [document.createElement("wbr"), part] : [part]));
}

function row(label: string, cells: (string | Node)[], cls = ""): HTMLElement {
  return h("tr", { class: cls }, h("th", { scope: "row" }, ...kept(label)), ...cells.map((c) => h("td", {}, c)));
}

/** A row's name whose last part is in brackets ("Partita (a 11)"): that part kept on one
 * line, so that a narrow column wraps the name before it, never inside it. */
function kept(label: string): (string | Node)[] {
  const at = label.lastIndexOf(" (");
  return at > 0 && label.endsWith(")") ? [label.slice(0, at + 1), h("span", { class: "whole" }, label.slice(at + 1))] : [label];
}

// R3: each rank's primiera value.
export const PRIMIERA: Record<string, number> = { "7": 21, "6": 18, A: 16, "5": 15, "4": 14, "3": 13, "2": 12, F: 10, C: 10, R: 10 };

/** A side's pile as the score panel counts it (R19, R21): its cards, Denari, the
 * settebello, the primiera (0 while a suit is missing) and ``scope``. */
export function pileOf(cards: string[], scope: number): PileInfo {
  const best = new Map<string, number>();
  for (const c of cards) best.set(c[1], Math.max(best.get(c[1]) ?? 0, PRIMIERA[c[0]] ?? 0));
  const primiera = best.size === 4 ? [...best.values()].reduce((a, b) => a + b, 0) : 0;
  return { cards: cards.length, denari: cards.filter((c) => c[1] === "d").length, settebello: cards.includes("7d"), primiera, scope };
}

interface Pile { captured?: string[][]; scope?: number[]; piles?: PileInfo[]; totals?: number[] }

/** A play counted into its side's pile in ``v`` (its cards taken, a scopa): the score
 * panel says it at once, to the one who played too, not at their next turn. */
export function takeIn(v: Pile, side: number, play: { card: string; captured?: string[]; scopa?: boolean }): void {
  const taken = play.captured ?? [];
  if (!taken.length && !play.scopa) return;
  const sides = Math.max(v.totals?.length ?? 0, v.piles?.length ?? 0, side + 1);
  const captured = Array.from({ length: sides }, (_, i) => [...(v.captured?.[i] ?? [])]);
  const scope = Array.from({ length: sides }, (_, i) => v.scope?.[i] ?? v.piles?.[i]?.scope ?? 0);
  if (taken.length) captured[side].push(play.card, ...taken);
  if (play.scopa) scope[side] += 1;
  v.captured = captured; v.scope = scope;
  v.piles = captured.map((cards, i) => pileOf(cards, scope[i]));
}

/** What a table scores and each side has taken so far: its rules, each side's captured
 * cards and the hands each side declared (Cirulla: their points). */
export interface Taken { rules?: Partial<WireRules> | null; captured?: string[][]; declared?: number[] }

/** The score panel at the table: the game's totals, then what each pile holds so far in
 * every category the table scores (its own too: re bello, napola…, as the round's box has them). */
export function scorePanel(sp: Speech, names: string[], totals: number[], piles: PileInfo[], target?: number, taken: Taken = {}): HTMLElement {
  const w = sp.w;
  const each = (f: (p: PileInfo | undefined, i: number) => string) => names.map((_, i) => f(piles[i], i));
  const soFar: Record<Counted, (p: PileInfo | undefined) => string> = {
    carte: (p) => String(p?.cards ?? 0), denari: (p) => String(p?.denari ?? 0), settebello: (p) => (p?.settebello ? "✓" : "–"),
    primiera: (p) => String(p?.primiera ?? 0), scope: (p) => String(p?.scope ?? 0),
  };
  const basic = taken.rules?.frac ? [] : COUNTED.map(([cat, label]) => row(w[label], each(soFar[cat]))); // Frac scores only aces and court cards (V12)
  return h("section", { class: "panel", "aria-labelledby": "score-title" }, h("h2", { id: "score-title" }, w.score),
    sideTable(w, names, [
      row(target ? fill(w.gameTotal, { n: target }) : w.points, names.map((_, i) => String(totals[i] ?? 0)), "total"), // the game's points, and the target they play to
      ...basic, ...extraRows(w, names, piles, taken),
    ]));
}

/** The length of the unbroken run of Denari from the ace in ``cards`` (up to ``top``), if it reaches 3; else 0. */
function denariRun(cards: Set<string>, top = 10): number {
  const ranks = ["A", "2", "3", "4", "5", "6", "7", "F", "C", "R"].slice(0, top);
  const run = ranks.findIndex((r) => !cards.has(`${r}d`));
  const n = run < 0 ? ranks.length : run;
  return n >= 3 ? n : 0;
}

/** The rows of the categories the table's rules add (as engine/scoring.py scores them): what
 * each side's pile gives in each so far ("–": nothing yet). */
function extraRows(w: W, names: string[], piles: PileInfo[], taken: Taken): HTMLElement[] {
  const r = taken.rules ?? {};
  const held = names.map((_, i) => new Set(taken.captured?.[i] ?? []));
  const count = (cards: Set<string>, test: (c: string) => boolean) => [...cards].filter(test).length;
  const shown = (n: number) => (n ? String(n) : "–");
  const per = (f: (cards: Set<string>, i: number) => string) => held.map(f);
  const rows: HTMLElement[] = [];
  const add = (on: unknown, label: keyof W, f: (cards: Set<string>, i: number) => string) => { if (on) rows.push(row(w[label] as string, per(f))); };
  add(r.ponino, "catPonino", (c, i) => shown(count(c, (x) => x[0] === "C") === 4 ? piles[i]?.scope ?? 0 : 0));
  add(r.napola, "catNapola", (c) => shown(denariRun(c)));
  add(r.escoba, "catSevens", (c) => String(count(c, (x) => x[0] === "7")));
  add(r.escoba, "catAllSevens", (c) => (count(c, (x) => x[0] === "7") === 4 ? "✓" : "–"));
  add(r.trentino, "catTrentino", (c) => shown((c.has("Ad") ? 1 : 0) + (c.has("2d") ? 2 : 0) + (c.has("3d") ? 3 : 0)));
  add(r.re_bello, "catReBello", (c) => (c.has("Rd") ? "✓" : "–"));
  add(r.frac, "catHonours", (c) => String(count(c, (x) => "AFCR".includes(x[0]))));
  add(r.cirulla, "catPiccola", (c) => shown(denariRun(c, 6)));
  add(r.cirulla, "catGrande", (c) => (["Fd", "Cd", "Rd"].every((x) => c.has(x)) ? "5" : "–"));
  add(r.cirulla, "catDeclarations", (_, i) => shown(taken.declared?.[i] ?? 0));
  return rows;
}

/** The round's breakdown: every category (also those nobody scored) with each side's
 * raw number and the point it won, then the round's points and the game's totals. */
export function roundTable(sp: Speech, names: string[], r: RoundEnd, before: number[], target: number | undefined,
  frac: boolean): HTMLElement {
  const w = sp.w;
  const points = (cat: string, i: number) => Number((r.breakdown[i] as Record<string, unknown>)?.[cat] ?? 0);
  const cell = (cat: string, raw: (t: SideTally | undefined, i: number) => string) => names.map((_, i) => {
    const p = points(cat, i);
    const shown = raw(r.tallies?.[i], i);
    return p ? h("strong", {}, `${shown}${shown ? " " : ""}${fill(w.pointsBy, { n: p })}`) : shown || "–"; // not scored: a dash, not a blank
  });
  const rows: HTMLElement[] = [];
  if (!frac) {
    const raw: Record<Counted, (t: SideTally | undefined, i: number) => string> = {
      carte: (t, i) => String(t?.cards ?? r.cards[i] ?? 0), denari: (t) => String(t?.denari ?? 0),
      settebello: (t) => (t?.settebello ? "✓" : "–"), primiera: (t) => (t?.primiera ? String(t.primiera) : w.noSuit),
      scope: (t) => String(t?.scope ?? 0),
    };
    rows.push(...COUNTED.map(([cat, label]) => row(w[label], cell(cat, raw[cat]))));
  }
  for (const [cat, label] of EXTRA) {
    if (r.breakdown.some((b) => cat in b)) rows.push(row(w[label] as string, cell(cat, () => "")));
  }
  rows.push(row(w.roundPoints, r.points.map(String), "total"),
    row(fill(w.gameTotal, { n: target ?? "?" }), r.totals.map((a, i) => fill(w.total, { before: before[i] ?? 0, after: a })), "total"));
  return sideTable(w, names, rows);
}

/** Who won and how the game ended, in one line: "You won!" to the winner (``mine``, the
 * side of the page's player, if any), "Your side won!" to a team's players; a game left
 * names who left it (``leaver``). */
export function gameEndLine(sp: Speech, g: GameEnd, sideName: (i: number) => string, mine?: number, leaver?: string): string {
  const w = sp.w;
  if (g.winner !== null && g.winner !== undefined) {
    const team = sideName(g.winner).includes(" + "); // a side of two or more players speaks as "we"
    if (g.winner === mine) return team ? w.youWonTeam : w.youWon;
    if (team && mine !== undefined && sideName(mine).includes(" + ")) return fill(w.youLostTeam, { name: sideName(g.winner) }); // "we" lost
    return fill(team ? w.winnerTeam : w.winner, { name: sideName(g.winner) });
  }
  const why: Record<string, string> = { abandoned: leaver ? fill(w.whyLeft, { name: leaver }) : w.whyAbandoned, target: w.whyTarget, trentino: w.whyTrentino, all_denari: w.whyAllDenari };
  return `${w.draw}. ${fill(w.ended, { why: why[g.reason] ?? g.reason })}`;
}

export function gameEndTotals(sp: Speech, g: GameEnd, sideName: (i: number) => string): HTMLElement {
  return sideTable(sp.w, g.totals.map((_, i) => sideName(i)), [row(sp.w.points, g.totals.map(String), "total")]);
}

/** A table's rules in words, e.g. "Scopa, 2 giocatori, a 11 punti". */
export function describe(sp: Speech, rules: WireRules): string {
  const w = sp.w;
  const n = rules.players ?? 2;
  const teams = rules.teams ?? n > 3;
  return [fill(w.description, { game: gameName(rules.preset, sp.lang), n, teams: teams && n > 2 ? w.teams : "", target: rules.target ?? 11 }),
    ...houseRules(sp, rules)].join(", ");
}

/** The flags a table may set beyond its game (RuleSet.describe lists them when on). */
export const HOUSE_FLAGS = ["refill_each_turn", "max_two", "ponino", "napola", "re_bello"] as const;

/** A table's rules beyond its game, players and points, as RuleSet.describe lists them, in
 * words: "presa: a scelta", "napola", "re bello", "asso piglia tutto (semplice)". */
export function houseRules(sp: Speech, rules: Partial<WireRules>): string[] {
  const parts: string[] = [];
  if (rules.capture_mode && rules.capture_mode !== "traditional") parts.push(fill(sp.w.capture, { mode: sp.value(rules.capture_mode) }));
  for (const flag of HOUSE_FLAGS) if (rules[flag]) parts.push(sp.option(flag, "")[0]);
  if (rules.asso_piglia_tutto && rules.asso_piglia_tutto !== "off") parts.push(`${sp.option("asso_piglia_tutto", "")[0]} (${sp.value(rules.asso_piglia_tutto)})`);
  return parts;
}
