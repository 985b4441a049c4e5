// The lobby: a quick game, the tournaments, the tables to join or watch, a new table's
// form and the finished games.
import { button, h } from "./dom";
import { fill, gameName, ordinal } from "./i18n";
import type { GameSummary, TableInfo, TournamentInfo, TournamentStandings } from "./protocol";
import { describe } from "./score";
import { type Body, FOUR, LEVELS, PRESETS, app, heldTokens, lang, listedName, live, sp, st, t } from "./state";
import { header, render, send, settings, statusLine } from "./main";
import { chatBox } from "./chatbox";
import { fullBox, goneBox } from "./links";

/** ``parent``'s children made ``kids``, in order, without taking out the ones it keeps:
 * a button held down (a press not yet let go) stays where it is as the lobby changes. */
function place(parent: Element, kids: (Node | string)[]): void {
  const nodes = kids.filter((k) => k !== "").map((k) => (typeof k === "string" ? document.createTextNode(k) : k));
  const kept = new Set(nodes);
  for (const old of [...parent.childNodes]) if (!kept.has(old)) old.remove();
  nodes.forEach((n, i) => { if (parent.childNodes[i] !== n) parent.insertBefore(n, parent.childNodes[i] ?? null); });
}

interface Row { li: HTMLLIElement; line: HTMLElement; join: HTMLButtonElement; watch: HTMLButtonElement }
const rows = new Map<string, Row>(); // the tables listed, by id: updated in place
let drawnIn: string = ""; // the language the rows were drawn in
const lobby = { split: h("div", { class: "split" }), left: h("div"), list: h("ul", { class: "tables" }), section: h("section") };

/** A listed table's row, kept from one drawing to the next (its buttons with it). */
function row(x: TableInfo): HTMLLIElement {
  let r = rows.get(x.id);
  if (!r) {
    const id = x.id;
    r = { li: h("li"), line: h("span", { class: "grow" }), join: button(t.join, () => send("join_table", { table: id })),
      watch: button(t.watch, () => { st.watching = true; st.tableId = id; st.watchInvite = ""; st.seats = []; send("watch_table", { table: id }); render(); }, "quiet") };
    rows.set(id, r);
  }
  const line = tableLine(x);
  if (r.line.textContent !== line) r.line.textContent = line;
  place(r.li, [r.line, x.state === "waiting" && x.seats.includes(null) ? r.join : "", r.watch]);
  return r.li;
}

export function lobbyScreen(): void {
  app.removeAttribute("data-mine");
  if (drawnIn !== lang) { rows.clear(); drawnIn = lang; } // the buttons' words too
  const list = [...st.tables.values()].filter(live);
  for (const id of [...rows.keys()]) if (!st.tables.has(id) || !live(st.tables.get(id) as TableInfo)) rows.delete(id);
  place(lobby.list, list.length ? list.map(row) : [h("li", {}, t.noTables)]);
  lobby.section.className = "panel";
  lobby.section.setAttribute("aria-labelledby", "lobby-title");
  place(lobby.section, [h("h2", { id: "lobby-title" }, t.lobby), lobby.list]);
  const focused = document.activeElement?.id;
  place(lobby.left, [playNow(), toFinishedGames(), tournamentsPanel(), lobby.section, createForm(), finishedGames()]);
  place(lobby.split, [lobby.left, chatBox(st.lobbyChat, () => "lobby", "lobby-chat")]);
  place(app, [header(), statusLine(), fullBox(), goneBox(), noTableNote(), lobby.split, settings()]);
  if (focused) document.getElementById(focused)?.focus();
}

/** A game in play none of whose people is at the table (a bot's seats aside): it waits for them. */
function peopleAway(x: TableInfo): boolean {
  const away = x.away ?? [];
  return x.state === "playing" && away.length > 0 && x.seats.every((_, i) => away.includes(i) || (x.bots ?? []).includes(i));
}

/** A listed table in words: its game, state, seats, its turn clock when shorter than the
 * server's ("15 s a mossa"), and how many watch it. */
function tableLine(x: TableInfo): string {
  const clock = typeof x.turn_timeout === "number" && (serverTimeout === null || x.turn_timeout < serverTimeout)
    ? ` · ${fill(t.perMove, { n: Math.round(x.turn_timeout) })}` : "";
  const watching = x.spectators ? ` · ${fill(x.spectators === 1 ? t.spectatorOne : t.spectatorsMany, { n: x.spectators })}` : "";
  return `#${x.id} ${describe(sp, x.rules)} · ${x.state === "waiting" ? t.stateWaiting : peopleAway(x) ? t.statePeopleAway : t.statePlaying}${x.private ? ` · ${t.privateTable}` : ""} · ${x.seats.map((s, i) => (s ? listedName(x, i, s) : t.emptySeat)).join(", ")}${clock}${watching}`;
}

/** How many more players the quick game waits for (its game's seats, less the person and
 * the others already waiting), and how many wait with the person. */
function quickWords(quick: { preset: string; others: number }): string {
  const need = Math.max(1, (FOUR.has(quick.preset) ? 4 : 2) - 1 - quick.others);
  const said = fill(need === 1 ? t.quickNeedOne : t.quickNeed, { game: gameName(quick.preset, lang), n: need });
  return quick.others ? `${said} ${fill(t.quickOthers, { n: quick.others })}` : said;
}

let quickPreset: HTMLSelectElement | null = null;
/** The first choice: a quick game of the chosen game with whoever else asks for it. */
function playNow(): HTMLElement {
  const title = h("h2", { id: "quick-title" }, t.playNow);
  if (st.quick) {
    const quick = st.quick;
    return h("section", { class: "panel", "aria-labelledby": "quick-title" }, title,
      h("p", { role: "status" }, quickWords(quick)),
      button(t.leaveQueue, () => { st.quick = null; send("quick_leave", {}); render(); }, "quiet"));
  }
  const preset = quickPreset ??= h("select", { id: "quick-preset" }, ...PRESETS.map((p) => h("option", { value: p }, gameName(p, lang)))); // a game chosen stays chosen as the lobby changes
  // the family's most used button first: the chosen game against bots at once; then a game with whoever else asks,
  // each with a line under it saying what it does
  const bots = button(t.againstBots, () => againstBotsNow(preset.value));
  const people = button(t.withPeople, () => { st.quick = { preset: preset.value, others: 0 }; send("quick_play", { preset: preset.value }); render(); }, "quiet");
  bots.setAttribute("aria-describedby", "quick-bots-said");
  people.setAttribute("aria-describedby", "quick-people-said");
  return h("section", { class: "panel", "aria-labelledby": "quick-title" }, title,
    h("label", { for: "quick-preset" }, t.game, preset),
    h("div", { class: "quick-way" }, bots, h("p", { class: "hint", id: "quick-bots-said" }, t.againstBotsSaid)),
    h("div", { class: "quick-way" }, people, h("p", { class: "hint", id: "quick-people-said" }, t.withPeopleSaid)));
}

/** A table of ``preset`` with the person seated and medium bots in the other seats: the game begins at once. */
function againstBotsNow(preset: string): void {
  const count = FOUR.has(preset) ? 4 : 2;
  send("create_table", { preset, options: {}, sit: true, private: false, fill_with_bots: Array(count - 1).fill(LEVELS.medium) });
}

/** The server's tournaments: register, unregister, start one's own, the standings; and a new one. */
function tournamentsPanel(): HTMLElement {
  const title = h("h2", { id: "tournaments-title" }, t.tournaments);
  if (st.tournaments === null) {
    return h("section", { class: "panel", "aria-labelledby": "tournaments-title" }, title,
      h("p", {}, button(t.showTournaments, () => listTournaments(false), "quiet")));
  }
  const items = [...st.tournaments.values()].filter((x) => x.phase !== "finished" || !st.finished).map(tournamentItem);
  const list = h("ul", { class: "tables", id: "tournaments" }, ...(items.length ? items : [h("li", {}, t.noTournaments)]));
  const finished = st.finished === null
    ? h("p", {}, button(t.showFinished, () => listTournaments(true), "quiet"))
    : !st.finished.length ? h("p", { id: "finished-tournaments" }, t.noFinished) // no heading over nothing
      : h("div", {}, h("h3", { id: "finished-title" }, t.finishedTournaments),
        h("ul", { class: "tables", id: "finished-tournaments", "aria-labelledby": "finished-title" }, ...[...st.finished].reverse().map(tournamentItem)));
  return h("section", { class: "panel", "aria-labelledby": "tournaments-title" }, title, list, finished, tournamentForm());
}

/** Ask for the tournaments open or being played, or the finished ones (the answer says not which). */
function listTournaments(finished: boolean): void {
  if (send("tournament_list", { finished })) st.listAsks.push(finished);
}

function tournamentItem(x: TournamentInfo): HTMLElement {
  const mine = x.entrants.includes(st.name);
  const line = fill(t.tournamentLine, { name: x.name, format: t[x.format], game: gameName(x.preset, lang), phase: t[x.phase === "finished" ? "over" : x.phase],
    round: x.round ? fill(t.roundNo, { n: x.round }) : "", n: x.entrants.length, cap: x.cap, entrants: x.entrants.join(", ") || "—" });
  const standing = st.standings.get(x.id);
  return h("li", {}, h("span", { class: "grow" }, `#${x.id} ${line}`),
    x.phase === "registering" ? button(mine ? t.unregister : t.register, () => send(mine ? "tournament_leave" : "tournament_join", { tournament: x.id })) : "",
    x.phase === "registering" && x.creator === st.name ? button(t.start, () => send("tournament_start", { tournament: x.id })) : "",
    button(t.standings, () => send("get_standings", { tournament: x.id }), "quiet"),
    standing ? standingsTable(standing) : "");
}

/** A tournament's standings; shown too under a game's end once its tournament is over. */
export function standingsTable(s: TournamentStandings): HTMLElement {
  const cells = (tag: "th" | "td", values: (string | number)[]) => h("tr", {}, ...values.map((v) => h(tag, {}, String(v))));
  const tie = s.ranked_by.includes("buchholz"); // a knockout has no Buchholz: no column
  return h("table", { class: "standings" }, h("caption", {}, s.final ? t.finalStandings : s.round ? fill(t.standingsTitle, { n: s.round }) : t.noRoundYet),
    cells("th", ["#", t.players, t.points, ...(tie ? [t.buchholz] : []), t.gamePoints]),
    ...s.rows.map((r) => cells("td", [r.rank, r.entrant, r.match_points, ...(tie ? [r.buchholz] : []), r.game_points])));
}

/** What the server said of a round that gives us no table (knocked out, a bye, the
 * tournament over): under a game's end and atop the lobby until closed. */
export function noTableNote(): HTMLElement | string {
  const n = st.noTable;
  if (!n) return "";
  const place = n.place ? ordinal(lang, n.place) : "?";
  const said = n.kind === "knocked_out" ? fill(t.outKnocked, { by: sp.name(n.by ?? "?"), n: n.round, name: n.name, place })
    : n.kind === "bye" ? fill(t.outBye, { n: n.round, name: n.name, points: n.points ?? 0 })
    : n.place === 1 ? fill(t.outWon, { name: n.name }) : fill(t.outOver, { name: n.name, place });
  return h("p", { class: "status panel", id: "no-table", role: "status" }, said, " ",
    button(t.close, () => { st.noTable = null; render(); }, "quiet"));
}

let tournamentForm_: HTMLFormElement | null = null;
function tournamentForm(): HTMLElement {
  if (tournamentForm_) return tournamentForm_;
  const name = h("input", { id: "t-name", maxlength: "64", required: "" });
  const preset = h("select", { id: "t-preset" }, ...PRESETS.map((p) => h("option", { value: p }, gameName(p, lang))));
  const format = h("select", { id: "t-format" }, ...(["swiss", "round_robin", "knockout"] as const).map((f) => h("option", { value: f }, t[f])));
  const rounds = h("input", { id: "t-rounds", inputmode: "numeric", value: "3" });
  const cap = h("input", { id: "t-cap", inputmode: "numeric", value: "8" });
  const field = (id: string, label: string, el: HTMLElement) => h("label", { for: id }, label, el);
  const made = h("form", { "aria-labelledby": "t-title" }, h("h3", { id: "t-title" }, t.newTournament), field("t-name", t.tournamentName, name),
    field("t-preset", t.game, preset), field("t-format", t.format, format), field("t-rounds", t.rounds, rounds), field("t-cap", t.cap, cap),
    h("button", { type: "submit" }, t.newTournament));
  made.addEventListener("submit", (e) => {
    e.preventDefault();
    send("tournament_create", { name: name.value.trim(), preset: preset.value, format: format.value,
      rounds: format.value === "swiss" ? Number(rounds.value) || 0 : 0, cap: Number(cap.value) || 2 });
  });
  tournamentForm_ = made;
  return made;
}

/** Who won a finished game, as the lobby lists it: "you won" or "you lost" when the page's
 * player played it; when a bot finished their seat (they left, or did not come back), that. */
function wonBy(g: GameSummary): string {
  const sides = g.totals.length;
  const won = g.players.filter((_, i) => i % sides === g.winner);
  const team = won.length > 1;
  const me = g.players.indexOf(st.name);
  if (me >= 0) {
    const side = me % sides;
    if (g.taken_over?.includes(me)) {
      const score = [g.totals[side], ...g.totals.filter((_, i) => i !== side)].join(" – ");
      return fill(side === g.winner ? t.botWonForYou : t.botLostForYou, { score });
    }
    if (side === g.winner) return team ? t.yourSideWonLine : t.youWonLine;
    return g.players.filter((_, i) => i % sides === side).length > 1 ? t.yourSideLostLine : t.youLostLine;
  }
  return fill(team ? t.winnerTeamLine : t.winnerLine, { name: won.map((n) => sp.name(n, g.players)).join(" + ") }); // in the line's small letters, as "you lost"
}

/** When a finished game ended, in the page's language (date and time). */
function endedAt(g: GameSummary): string {
  const at = new Date(g.ended);
  return Number.isNaN(at.getTime()) ? "" : ` · ${at.toLocaleString(lang, { dateStyle: "short", timeStyle: "short" })}`;
}

/** Ask for the finished games (the person's private ones by the tokens the page holds). */
function listGames(): void { send("list_games", { limit: 20, tokens: Object.values(heldTokens()) }); }

/** The way to the finished games from the lobby's top (they are listed at its foot, under the
 * new table's form): asked for, if not yet, and brought into view. */
function toFinishedGames(): HTMLElement {
  return h("p", { class: "bar", id: "to-finished" }, button(t.toFinished, () => {
    if (st.games === null) listGames();
    document.getElementById("games-title")?.scrollIntoView({ block: "start" });
  }, "quiet"));
}

function finishedGames(): HTMLElement {
  const list = st.games === null
    ? h("p", {}, button(t.showGames, listGames, "quiet"))
    : h("ul", { class: "tables", id: "games" }, ...(st.games.length ? st.games.map((g) => h("li", {},
      h("span", { class: "grow" }, `#${g.id} ${gameName(g.preset, lang)}${endedAt(g)} · ${g.players.map((n) => sp.name(n, g.players)).join(", ")} · ${g.totals.join(" – ")}${g.reason === "abandoned" ? ` · ${t.abandoned}` : g.winner === null ? "" : ` · ${wonBy(g)}`}`),
      button(t.replay, () => send("get_record", { game: g.id, token: heldTokens()[g.id] ?? null }), "quiet"))) : [h("li", {}, t.noGames)]));
  return h("section", { class: "panel", "aria-labelledby": "games-title" }, h("h2", { id: "games-title" }, t.finished), list);
}

/** A choice of how many people play: "2 and 2 bots", "just you and 3 bots", "4: no bots". */
function peopleWords(k: number, b: number): string {
  if (!b) return fill(t.peopleAll, { n: k });
  if (k === 1) return b === 1 ? t.peopleYouOne : fill(t.peopleYou, { b });
  return b === 1 ? fill(t.peopleBotOne, { n: k }) : fill(t.peopleBots, { n: k, b });
}

let form: HTMLFormElement | null = null;
let resetLater: (() => void) | null = null; // the form back to its defaults, once its table is made
let refused: HTMLElement | null = null; // why the server refused the form's last table, beside its button
/** The table the form asked for last (its body, and the seq it went with). */
export const formSent: { body: Body | null; seq: number } = { body: null, seq: -1 };
/** The server refused the form's table: why, said beside its button and brought into view
 * (false when the form is not on the page: the status line says it). */
export function formRefused(text: string): boolean {
  if (!refused?.isConnected) return false;
  refused.textContent = text;
  resetLater = null;
  const line = refused;
  requestAnimationFrame(() => line.scrollIntoView({ block: "center" }));
  return true;
}
let fillTimer: (() => void) | null = null; // the form's turn clocks, offered again
let serverTimeout: number | null = null; // the server's turn clock (welcome): no table may ask for more
let reading: number | null = null; // the server's reading time (welcome): more on each player's first move of a round
let optionList: Promise<[string, string, string][]> | null = null;
let presetList: Promise<Record<string, Record<string, unknown>>> | null = null; // each game's own value of every option
function createForm(): HTMLElement {
  if (form) {
    if (!form.isConnected && resetLater) { resetLater(); resetLater = null; } // back in the lobby from the table the form made
    return form;
  }
  const preset = h("select", { id: "preset" }, ...PRESETS.map((p) => h("option", { value: p }, gameName(p, lang))));
  const players = h("select", { id: "players" });
  const fillPlayers = () => {
    const own = FOUR.has(preset.value) ? 4 : 2;
    players.replaceChildren(...["", "2", "3", "4", "6"].map((n) => h("option", { value: n }, n || fill(t.playersDefault, { n: own }))));
  };
  const bots = h("select", { id: "bots" }, h("option", { value: "" }, t.none), ...Object.keys(LEVELS).map((l) => h("option", { value: l }, t[l as "easy"])));
  // how many seats are for people (the person and those the invite brings), the rest for bots
  const people = h("select", { id: "people" });
  const seatsNow = () => Number(players.value) || (FOUR.has(preset.value) ? 4 : 2);
  const fillPeople = () => {
    const n = seatsNow();
    const chosen = people.value;
    people.replaceChildren(...Array.from({ length: n }, (_, i) => n - i).map((k) => h("option", { value: String(k) }, peopleWords(k, n - k))));
    people.value = [...people.options].some((o) => o.value === chosen) && (chosen === String(n)) === !bots.value ? chosen : String(bots.value ? 1 : n);
  };
  // at a team table, which seats are the person's partners (the person sits at the first)
  const partner = h("p", { class: "hint", id: "partner-said", "aria-live": "polite" });
  const sayPartner = () => {
    const n = seatsNow();
    const chosen = more.querySelector<HTMLSelectElement>("[data-option=teams]")?.value;
    const teams = chosen ? chosen === "true" && n > 3 : n === 4 || n === 6; // as the engine's rules (R5)
    const seats = Array.from({ length: n }, (_, i) => i).filter((i) => teams && i > 0 && i % 2 === 0).map((i) => i + 1);
    partner.textContent = !seats.length ? "" : seats.length === 1 ? fill(t.partnerSeat, { n: seats[0] })
      : fill(t.partnerSeats, { seats: seats.slice(0, -1).join(", "), last: seats[seats.length - 1] });
  };
  fillPlayers(); fillPeople();
  preset.addEventListener("change", () => { fillPlayers(); fillPeople(); sayPartner(); });
  players.addEventListener("change", () => { fillPeople(); sayPartner(); });
  bots.addEventListener("change", () => { // bots chosen: they take the other seats; none: every seat waits for a person
    if (!bots.value) people.value = String(seatsNow());
    else if (people.value === String(seatsNow())) people.value = "1";
  });
  people.addEventListener("change", () => {
    const all = people.value === String(seatsNow());
    if (all) bots.value = ""; else if (!bots.value) bots.value = "medium";
  });
  const priv = h("input", { id: "private", type: "checkbox" });
  const timer = h("select", { id: "timer" });
  // no turn clock is for private tables only: choosing it ticks Privato, unticking Privato gives the server's clock back
  timer.addEventListener("change", () => { if (timer.value === "off") priv.checked = true; });
  priv.addEventListener("change", () => { if (!priv.checked && timer.value === "off") timer.value = ""; });
  const first = h("small", { id: "timer-first" });
  // the reading time is more time on a clock: said only while the chosen one runs (none: no clock, nothing more)
  const sayFirst = () => { first.textContent = reading && timer.value !== "off" && (timer.value || serverTimeout) ? fill(t.firstMoveMore, { n: reading }) : ""; };
  timer.addEventListener("change", sayFirst);
  priv.addEventListener("change", sayFirst);
  fillTimer = () => { // the server's clock told (welcome): the form's other choices stay as they are
    const chosen = timer.value;
    const shorter = [30, 15].filter((n) => serverTimeout === null || n < serverTimeout);
    timer.replaceChildren(h("option", { value: "" }, serverTimeout ? `${t.serverDefault} (${serverTimeout} s)` : t.serverDefault),
      ...shorter.map((n) => h("option", { value: String(n) }, `${n} s`)), h("option", { value: "off" }, t.noTimer));
    if ([...timer.options].some((o) => o.value === chosen)) timer.value = chosen;
    sayFirst();
  };
  fillTimer();
  const more = h("details", { id: "more" }, h("summary", { class: "quiet" }, t.more));
  more.addEventListener("change", () => sayPartner()); // the teams option
  sayPartner();
  optionList ??= fetch("options.json").then((r) => r.json());
  presetList ??= fetch("presets.json").then((r) => r.json()).catch(() => ({}));
  const sayDefaults = () => { // "as the game has it (11)": the chosen game's own value of each option left unset
    presetList?.then((all) => {
      const own = all[preset.value] ?? {};
      for (const unset of more.querySelectorAll<HTMLOptionElement>("option[data-unset]")) {
        const d = own[unset.dataset.unset as string];
        unset.textContent = d === null || d === undefined ? t.optionUnset : `${t.optionUnset} (${sp.value(String(d))})`;
      }
    });
  };
  preset.addEventListener("change", sayDefaults);
  optionList.then((list) => {
    for (const [name, values, meaning] of list) {
      if (name === "preset" || name === "players") continue;
      const id = `opt-${name}`;
      const choices = values.includes("|") ? values.split("|") : null;
      const input = choices
        ? h("select", { id, "data-option": name }, h("option", { value: "", "data-unset": name }, t.optionUnset), ...choices.map((c) => h("option", { value: c }, sp.value(c))))
        : h("input", { id, "data-option": name, inputmode: /^\d+-\d+$/.test(values) ? "numeric" : "text", placeholder: values });
      const [label, said] = sp.option(name, meaning);
      more.append(h("label", { for: id }, label, h("small", {}, said), input));
    }
    sayDefaults();
  });
  const field = (id: string, label: string, el: HTMLElement) => h("label", { for: id }, label, el);
  form = h("form", { class: "panel", "aria-labelledby": "create-title" }, h("h2", { id: "create-title" }, t.create), field("preset", t.game, preset), field("players", t.players, players),
    field("bots", t.bots, bots), h("label", { for: "people" }, t.people, people, h("small", {}, t.peopleHint)),
    partner, h("label", { for: "private", class: "bar" }, priv, t.private),
    h("label", { for: "timer" }, t.timer, timer, first),
    more, h("p", { class: "bar" }, h("button", { type: "submit" }, t.create)),
    refused = h("p", { class: "status", id: "create-refused", role: "alert" }));
  form.addEventListener("change", () => { if (refused) refused.textContent = ""; }); // the form changed: the refusal is old
  // the form is for a game with people: by default its table waits for them (its invite shown);
  // a game against bots at once is the lobby's first button (playNow)
  form.addEventListener("submit", (e) => { e.preventDefault(); make(bots.value, Number(people.value) || 1); });
  const make = (level: string, persons: number) => {
    const options: Record<string, unknown> = {};
    for (const input of more.querySelectorAll<HTMLInputElement | HTMLSelectElement>("[data-option]")) {
      const v = input.value.trim();
      if (v) options[input.dataset.option as string] = v === "true" ? true : v === "false" ? false : /^-?\d+$/.test(v) ? Number(v) : v;
    }
    if (players.value) options.players = Number(players.value);
    const count = seatsNow();
    const body: Body = { preset: preset.value, options, sit: true, private: priv.checked,
      fill_with_bots: level ? Array(Math.max(0, count - persons)).fill(LEVELS[level]) : [] };
    if (timer.value === "off") body.no_turn_timer = true; else if (timer.value) body.turn_timeout = Number(timer.value);
    if (refused) refused.textContent = "";
    formSent.body = body;
    send("create_table", body);
    // the next table starts from the defaults for what one does not see at a glance: not
    // private, the server's turn clock, and no other option (the game, players and bots stay,
    // in sight); a table refused keeps them, to change what the refusal says
    resetLater = () => {
      priv.checked = false;
      timer.value = "";
      sayFirst();
      for (const input of more.querySelectorAll<HTMLInputElement | HTMLSelectElement>("[data-option]")) input.value = "";
      more.open = false;
      sayPartner();
    };
  };
  return form;
}


/** The server's turn clock (welcome): the form offers only shorter ones; and its reading time, said under it. */
export function setServerTimeout(seconds: number | null, readingTime: number | null = null): void {
  if (serverTimeout !== seconds || reading !== readingTime) { serverTimeout = seconds; reading = readingTime; fillTimer?.(); }
}

/** The form is drawn again (in the page's language, say). */
export function forgetForm(): void { form = null; quickPreset = null; }
