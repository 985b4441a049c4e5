// The round's box brought back: a page reloaded while the box of the round just over was
// open shows the same box again (the server's snapshot carries that round's end), until
// the person closes it or the next round's first turn has passed.
import type { RoundEnd } from "./protocol";
import { st } from "./state";

const CLOSED = "scopa.roundClosed"; // the table and event of the last round box the person closed
let again: { table: string; r: RoundEnd } | null = null; // a box to show again, from a snapshot

/** The person closed the box of ``r``: a reload does not bring it back. */
export function roundClosed(r: RoundEnd): void {
  localStorage.setItem(CLOSED, `${st.tableId}:${r.event}`);
  again = null;
}

/** A snapshot came, with the game's last round end ``r`` (if any): its box is shown again
 * while that round is over and the next has not been dealt, or has been dealt and its first
 * turn is still waiting, unless the person closed it. A spectator (``watching``) comes to the
 * round being played: the box of the round before is no news to it. */
export function reopenRound(r: RoundEnd | null | undefined, watching: boolean): void {
  again = null;
  const v = st.view;
  if (!r || !v || !st.tableId || localStorage.getItem(CLOSED) === `${st.tableId}:${r.event}`) return;
  const waiting = v.round === r.round || (!watching && v.round === r.round + 1 && !v.round_plays?.length);
  if (!waiting) return;
  st.totalsBefore = r.totals.map((total, i) => total - (r.points[i] ?? 0)); // the box's "before → after"
  if (v.round === r.round) st.roundEnd = r; // as if it had just come: the next round is not dealt yet
  else again = { table: st.tableId, r };
}

/** The round whose box the table shows: the one just over, or the one a reload brought back. */
export function roundToShow(): RoundEnd | null {
  return st.roundEnd ?? (again && again.table === st.tableId ? again.r : null);
}
