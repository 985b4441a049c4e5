// The links to a table: made for the people a new table waits for, followed when the page
// opens on one; a table that has no seat left by then is said to be full, with its game to
// watch or the way to the tables.
import { button, h } from "./dom";
import { fill } from "./i18n";
import type { TableInfo } from "./protocol";
import { st, t } from "./state";
import { render, send } from "./main";
import { HOUSE_FLAGS } from "./score";

let asked: { table: string; invite: string | null } | null = null; // the link's join, until answered
let full: { table: string; invite: string | null; from: string } | null = null; // the link's table, found full

/** Whether the page was opened at a loopback address (this computer alone reaches it). */
function onLoopback(): boolean {
  const host = location.hostname;
  return host === "localhost" || host === "[::1]" || host === "::1" || /^127\./.test(host);
}

/** The page's address as another machine reaches it: on a loopback address, the server's
 * first LAN address (welcome's lan_hosts, PROTOCOL.md §4) on the page's port, if it has one. */
function sharedOrigin(): string {
  const lan = onLoopback() ? st.lanHosts[0] : undefined;
  if (!lan) return location.origin;
  return `${location.protocol}//${lan.includes(":") ? `[${lan}]` : lan}${location.port ? `:${location.port}` : ""}`;
}

/** Whether an invite made here works on this computer alone (a loopback page, no LAN address known). */
export function inviteLocalOnly(): boolean {
  return onLoopback() && !st.lanHosts.length;
}

/** The link to a table (``way``: its invite or id), saying whose table it is and which game
 * (``from``, ``game``, ``n``, ``to``) for the newcomer's name screen, before they join. */
export function inviteLink(way: string, info: TableInfo): string {
  const target = /\bto (\d+)\b/.exec(info.description)?.[1]; // RuleSet.describe(): "scopa, 2p, to 11"
  const about = new URLSearchParams({ from: st.name, game: info.rules.preset ?? "scopa", n: String(info.seats.length), to: target ?? "" });
  const r = info.rules;
  const house = [...HOUSE_FLAGS.filter((f) => r[f]), ...(r.capture_mode && r.capture_mode !== "traditional" ? [`capture_mode:${r.capture_mode}`] : []),
    ...(r.asso_piglia_tutto && r.asso_piglia_tutto !== "off" ? [`asso_piglia_tutto:${r.asso_piglia_tutto}`] : [])];
  if (house.length) about.set("rules", house.join(",")); // the table's own rules, said on the newcomer's name screen
  return `${sharedOrigin()}/?${way}&${about}`;
}

/** The table of the link the page opened on, and its invite code: ?invite=TABLE.CODE (the
 * invite as one string), or ?table=ID for a public table. */
function linkTable(): { table: string; invite: string | null } | null {
  const q = new URLSearchParams(location.search);
  const one = q.get("invite") ?? "";
  const dot = one.indexOf(".");
  const table = dot > 0 ? one.slice(0, dot) : q.get("table");
  const invite = dot > 0 ? one.slice(dot + 1) : q.get("invite");
  return table ? { table, invite: invite || null } : null;
}

let watchOnly = false; // the link's table was found full before the person picked a name: the page watches it

/** The person asked to watch the link's table (found full on the name screen). */
export function watchLink(): void { watchOnly = true; }

/** Watch ``table`` (with the ``invite`` that opens a private one): as a spectator that has
 * seen nothing of it (an event number above any), so that a game over comes with its end
 * (its snapshot, game_end and left: PROTOCOL.md watch_table) rather than as no table at all. */
function watchTable(table: string, invite: string | null): void {
  st.watching = true; st.tableId = table; st.seats = []; st.watchInvite = invite ?? "";
  send("watch_table", { table, invite, last_event: Number.MAX_SAFE_INTEGER });
  render();
}

let gone = false; // the table the page went to watch (or the link's) is gone: said in its own box

/** The server has no table the page asked to watch (or the link's join found none): the
 * table's screen (nothing to wait for) gives way to the lobby, with a box that says so. */
export function tableGone(): void {
  gone = true;
  if (st.watching && !st.view && !st.gameEnd) { st.tableId = null; st.watching = false; st.seats = []; send("watch_lobby", {}); }
  history.replaceState(null, "", location.pathname);
}

/** The table is gone: said, with where one goes from here (the lobby, and its finished games). */
export function goneBox(): HTMLElement | string {
  if (!gone) return "";
  return h("section", { class: "panel", id: "link-gone", role: "alert", "aria-labelledby": "link-gone-title" },
    h("h2", { id: "link-gone-title" }, t.linkGone), h("p", {}, t.linkGoneSaid),
    h("p", { class: "bar" }, button(t.toTables, () => { gone = false; render(); })));
}

/** Join the table of the link the page opened on (if any), or watch it when that was asked. */
export function joinFromLink(): void {
  const link = linkTable();
  if (!link || st.tableId) return;
  if (watchOnly) { watchOnly = false; history.replaceState(null, "", location.pathname); watchTable(link.table, link.invite); return; }
  if (send("join_table", link)) asked = link;
}

/** Ask the server's page whether the link's table still has a seat (/seat-open,
 * PROTOCOL.md §1): ``full`` is called when it has none, before the person picks a name. */
export function askLinkSeat(full: (over: boolean) => void): void {
  const link = linkTable();
  if (!link) return;
  const q = new URLSearchParams({ table: link.table, ...(link.invite ? { invite: link.invite } : {}) });
  fetch(`/seat-open?${q}`).then((r) => r.ok ? r.json() as Promise<{ open: boolean | null; state?: string | null }> : null)
    .then((found) => { if (found && found.open === false) full(found.state === "finished"); }, () => undefined); // over: its game finished
}

/** A refusal of the link's join: a full (or started) table is said so, in its own box
 * (true); anything else goes on as any refusal (false). */
export function linkRefused(code: string): boolean {
  const link = asked;
  asked = null;
  if (link && code === "no_such_table") { tableGone(); return true; }
  if (!link || code !== "table_full") return false;
  full = { ...link, from: new URLSearchParams(location.search).get("from") ?? "" };
  return true;
}

/** The link's table was full: say so, with its game to watch and the way to the tables. */
export function fullBox(): HTMLElement | string {
  const table = full;
  if (!table) return "";
  const close = () => { full = null; history.replaceState(null, "", location.pathname); };
  return h("section", { class: "panel", id: "link-full", role: "alert", "aria-labelledby": "link-full-title" },
    h("h2", { id: "link-full-title" }, t.linkFull),
    h("p", {}, table.from ? fill(t.linkFullOf, { name: table.from }) : t.linkFullAny),
    h("p", { class: "bar" },
      button(t.watchIt, () => { close(); watchTable(table.table, table.invite); }),
      button(t.toTables, () => { close(); render(); }, "quiet")));
}
