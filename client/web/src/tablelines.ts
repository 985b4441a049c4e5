// Lines that stay on the table's page while they hold: that the page only watches (and
// whose game), and whose seat a bot plays because its person is not at the table.
import { h } from "./dom";
import { fill } from "./i18n";
import { sp, st, t } from "./state";

/** The people at the table, named as the page shows them ("nonna e nipote"). */
function players(): string {
  const names = st.seats.length ? st.seats.map((s) => sp.name(s.name)) : (st.info?.seats ?? []).filter((n): n is string => !!n).map(sp.name);
  if (names.length < 2) return names.join("");
  return `${names.slice(0, -1).join(", ")} ${t.and} ${names[names.length - 1]}`;
}

/** A spectator's page says it watches, and whose game: no hand, no turn of its own. */
export function watchingLine(): HTMLElement | string {
  if (!st.watching) return "";
  const who = players();
  return h("p", { class: "status watching", id: "watching" }, who ? fill(t.watchingGame, { names: who }) : t.watchingTable);
}

/** The seats a bot plays while their person is not at the table (away too long, or
 * left): one line each, until the person takes the seat back or the game ends. */
export function standInLines(): HTMLElement | string {
  if (st.gameEnd) return "";
  const seats = [...st.takeovers].filter(([, from]) => !from.until).map(([i, from]) => ({ s: st.seats.find((s) => s.seat === i), why: from.why }))
    .filter(({ s }) => s !== undefined && s.bot);
  if (!seats.length) return "";
  return h("ul", { class: "status stand-in", id: "stand-in", "aria-label": t.standInTitle },
    ...seats.map(({ s, why }) => h("li", { "data-seat": s!.seat }, fill(why === "left" ? t.botLeft : t.standIn, { name: sp.name(s!.name) }))));
}
