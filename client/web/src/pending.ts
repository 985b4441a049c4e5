// A play the server has not answered yet. A connection lost meanwhile keeps it: once the
// seat is back (its your_turn again) it goes again if it is still a legal move, or the
// person reads plainly that it did not go through.
import { cardName } from "./cards";
import { fill } from "./i18n";
import type { LegalMove } from "./protocol";
import { deck, st, t } from "./state";

let pending: LegalMove | null = null;
let lost = false; // the connection went while the play waited for its answer
let late = false; // the last play went by itself as the turn's time ran out (board.ts)

/** The person plays ``m`` (sent, or not: the connection is down); ``byClock``: the card they
 * picked, sent as the turn's time ran out. */
export function playing(m: LegalMove, byClock = false): void { pending = m; lost = false; late = byClock; }

/** Whether the server's refusal ``code`` answers the play that went as the time ran out,
 * too late: the server had played the turn itself (and says so), nothing more to tell. */
export function lateRefused(code: string): boolean {
  const was = late && code === "not_your_turn";
  late = false;
  return was;
}

/** The seat's own play came back from the server: nothing waits. */
export function landed(): void { pending = null; lost = false; }

/** The card of a play kept over a lost connection (it goes once the seat is back), or null. */
export function heldCard(): string | null { return lost && pending ? pending.card : null; }

/** The connection is lost: what the status line says (the play kept, if one waits). */
export function lostWords(): string {
  if (!pending) return t.lost;
  lost = true;
  return `${t.lost} ${fill(t.moveWaits, { card: cardName(pending.card, deck) })}`;
}

function sameCards(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((c) => b.includes(c));
}

/** A your_turn came with ``legal``: the play kept over a lost connection, to send again
 * when it is still legal (else the person is told to play again); null when none. */
export function playAgain(legal: LegalMove[]): LegalMove | null {
  const m = pending;
  if (!m || !lost) { pending = null; return null; }
  landed();
  const same = legal.find((x) => x.card === m.card && sameCards(x.capture, m.capture)) ?? null;
  if (!same) st.timedOut = t.moveNotSent;
  return same;
}
