// Plays and captures in motion: the played card flies from the hand (or the player's seat)
// to the table; captured cards, with the card that took them, fly on to the capturer's
// seat; a scopa bursts over the table.  Copies of the cards fly in a layer of their own
// above the page (aria-hidden), so the page can be drawn again meanwhile.  Nothing moves
// for someone who asks for reduced motion.

export interface Before { cards: Map<string, DOMRect>; seats: Map<number, DOMRect> }
export interface Move { seat: number; card: string; captured: string[]; scopa: boolean }

const motion = window.matchMedia?.("(prefers-reduced-motion: reduce)");
const PLAY_MS = 420;
const CAPTURE_MS = 900;

/** Whether cards move (the person has not asked for reduced motion). */
export function moving(): boolean { return !motion?.matches; }

/** Where every card and seat of the page is now (before it is drawn again). */
export function measure(root: HTMLElement): Before {
  const cards = new Map<string, DOMRect>();
  for (const e of root.querySelectorAll<HTMLElement>(".card[data-card]")) cards.set(e.dataset.card as string, e.getBoundingClientRect());
  const seats = new Map<number, DOMRect>();
  for (const e of root.querySelectorAll<HTMLElement>(".seat[data-seat]")) seats.set(Number(e.dataset.seat), e.getBoundingClientRect());
  return { cards, seats };
}

/** Cards on the table still in flight: drawn hidden until their copy lands. */
export const landing = new Set<string>();

function layer(): HTMLElement {
  let l = document.getElementById("fly-layer");
  if (!l) {
    l = document.createElement("div");
    l.id = "fly-layer";
    l.setAttribute("aria-hidden", "true");
    document.body.append(l);
  }
  return l;
}

function ghost(from: DOMRect, art: Node, kind: string): HTMLElement {
  const g = document.createElement("div");
  g.className = `fly ${kind}`;
  g.dataset.kind = kind;
  Object.assign(g.style, { left: `${from.left}px`, top: `${from.top}px`, width: `${from.width}px`, height: `${from.height}px` });
  g.append(art);
  layer().append(g);
  return g;
}

function shift(from: DOMRect, to: DOMRect, scale = 1): string {
  const dx = to.left + to.width / 2 - (from.left + from.width / 2);
  const dy = to.top + to.height / 2 - (from.top + from.height / 2);
  return `translate(${dx}px, ${dy}px) scale(${scale})`;
}

function fly(g: HTMLElement, frames: Keyframe[], ms: number, done?: () => void): void {
  const finish = () => { g.remove(); done?.(); };
  if (typeof g.animate !== "function") { finish(); return; }
  const a = g.animate(frames, { duration: ms, easing: "ease-in-out", fill: "forwards" });
  a.onfinish = finish;
  a.oncancel = finish;
}

/** Animate ``move`` now that the page is drawn again; ``art`` draws a card, ``word``
 * is what a scopa's burst says. */
export function animate(before: Before, move: Move, root: HTMLElement, art: (card: string) => Node, word: string): void {
  const now = measure(root);
  const source = before.cards.get(move.card) ?? before.seats.get(move.seat) ?? now.seats.get(move.seat);
  if (move.scopa) burst(root, word);
  if (!moving() || !source) return;
  const size = [...before.cards.values()][0] ?? source;
  const from = new DOMRect(source.left, source.top, size.width, size.height);
  if (!move.captured.length) {
    const to = now.cards.get(move.card);
    if (!to) return;
    landing.add(move.card);
    fly(ghost(from, art(move.card), "play"), [{ transform: "none" }, { transform: shift(from, to) }], PLAY_MS, () => {
      landing.delete(move.card);
      root.querySelector<HTMLElement>(`.card[data-card="${move.card}"]`)?.classList.remove("landing");
    });
    return;
  }
  const pile = now.seats.get(move.seat);
  const spot = before.cards.get(move.captured[0]);
  if (!pile || !spot) return;
  fly(ghost(from, art(move.card), "capture"), [
    { transform: "none", offset: 0 }, { transform: shift(from, spot), offset: 0.45 },
    { transform: shift(from, pile, 0.4), opacity: 0.3, offset: 1 }], CAPTURE_MS);
  for (const c of move.captured) {
    const at = before.cards.get(c);
    if (!at) continue;
    fly(ghost(at, art(c), "captured"), [
      { transform: "none", offset: 0 }, { transform: "none", offset: 0.45 },
      { transform: shift(at, pile, 0.4), opacity: 0.3, offset: 1 }], CAPTURE_MS);
  }
}

/** Every card still in flight lands at once (the game's end comes: nothing flies over it). */
export function settle(): void {
  for (const g of document.querySelectorAll<HTMLElement>("#fly-layer > *")) {
    for (const a of g.getAnimations?.() ?? []) a.cancel(); // its end: removed, its card shown (fly)
    g.remove();
  }
  landing.clear();
}

function burst(root: HTMLElement, word: string): void {
  const table = root.querySelector<HTMLElement>("[data-area='table']");
  if (!table || !moving()) return;
  const b = document.createElement("div");
  b.className = "scopa-burst";
  b.setAttribute("aria-hidden", "true");
  b.textContent = word;
  const r = table.getBoundingClientRect();
  Object.assign(b.style, { left: `${r.left + r.width / 2}px`, top: `${r.top + r.height / 2}px` });
  layer().append(b);
  fly(b, [{ transform: "translate(-50%, -50%) scale(.4)", opacity: 0 }, { transform: "translate(-50%, -50%) scale(1.2)", opacity: 1, offset: 0.3 },
    { transform: "translate(-50%, -50%) scale(1)", opacity: 1, offset: 0.8 }, { transform: "translate(-50%, -50%) scale(1)", opacity: 0 }], 1400);
}
