// A finished game shown again, step by step (its record: get_record).
import { cardName, cardSvg } from "./cards";
import { button, h } from "./dom";
import { fill } from "./i18n";
import { boardAt, roundEndAt } from "./replay";
import { describe, gameEndLine, gameEndTotals, scorePanel } from "./score";
import { roundParts } from "./roundparts";
import { playWords } from "./playline";
import { app, deck, sp, st, t } from "./state";
import { header, render, settings, statusLine } from "./main";

/** A card shown, not played (a replay's). */
function cardFace(card: string): HTMLElement {
  const f = h("span", { class: "card", role: "img", "aria-label": cardName(card, deck), "data-card": card });
  f.append(cardSvg(card, deck));
  return f;
}

export function replayScreen(): void {
  const rp = st.replay as NonNullable<typeof st.replay>;
  const { record } = rp;
  const rounds = record.rounds.length;
  const actions = record.rounds[rp.round]?.actions.length ?? 0;
  const b = boardAt(record, rp.round, rp.step);
  const player = (i: number) => record.players[i]?.name;
  const seated = record.players.map((p) => p.name); // a server's bot named by its number among the game's bots
  const name = (i: number) => { const n = player(i); return n ? sp.name(n, seated) : fill(t.seat, { n: i + 1 }); };
  // a seat a bot took over when its person left, headed as live play headed it after: "Nonna (bot)"
  const heading = (i: number) => (record.players[i]?.taken_over ? fill(t.botSeat, { name: name(i) }) : name(i));
  const sideOf = (i: number) => record.players.filter((p) => p.side === i).map((p) => heading(p.seat)).join(" + ");
  const sides = b.piles.map((_, i) => sideOf(i));
  const go = (round: number, step: number) => { rp.round = round; rp.step = step; render(); };
  const controls = h("div", { class: "bar", id: "replay-controls" },
    button(t.back1, () => (rp.step > 0 ? go(rp.round, rp.step - 1) : go(rp.round - 1, record.rounds[rp.round - 1].actions.length))), // at a round's start: back into the round before, at its end
    button(t.next1, () => (rp.step >= actions ? go(rp.round + 1, 0) : go(rp.round, rp.step + 1))), // on into the next round
    button(t.prevRound, () => go(rp.round - 1, 0), "quiet"), button(t.nextRound, () => go(rp.round + 1, 0), "quiet"));
  const [back, next, prevRound, nextRound] = [...controls.children] as HTMLButtonElement[];
  prevRound.disabled = rp.round === 0; back.disabled = rp.step === 0 && rp.round === 0;
  next.disabled = rp.step >= actions && rp.round >= rounds - 1; nextRound.disabled = rp.round >= rounds - 1;
  const ended = rp.step >= actions ? roundEndAt(record, rp.round) : null;
  // the game's last step: its end as live play shows it (who won, the final totals)
  const over = rp.step >= actions && rp.round >= rounds - 1 ? record.result : null;
  const mine = record.players.find((p) => p.name === st.name)?.side;
  const seats = h("div", { class: "seats" }, ...record.players.map((p) => h("div", {
    class: `seat${!ended && rp.step < actions && b.turn === p.seat ? " turn" : ""}`, "data-seat": p.seat,
  }, `${heading(p.seat)} · ${fill(t.inHand, { n: b.hands[p.seat].length })}`)));
  const last = b.plays[b.plays.length - 1];
  // each play as the live page listed it: a bot's for the seat's person named as the bot's, the server's when time ran out said so
  const said = (p: (typeof b.plays)[number]) => playWords(p.bot ? fill(t.botSeat, { name: name(p.seat) }) : name(p.seat), p.card, p.captured, b.scopas.has(p.card), p.timedOut);
  const plays = h("ul", { class: "chat", "aria-label": t.plays, tabindex: 0, "data-area": "plays" }, ...b.plays.map((p) => h("li", { class: b.scopas.has(p.card) ? "scopa" : "" }, said(p))));
  const hands = record.players.map((p) => h("section", { class: "panel", "aria-label": fill(t.handOf, { name: heading(p.seat) }) },
    h("h3", {}, fill(t.handOf, { name: heading(p.seat) })),
    h("div", { class: "cards" }, ...b.hands[p.seat].map(cardFace))));
  const before = b.totals; // the round's end step: the panel's totals are the end box's (after the round)
  app.removeAttribute("data-mine");
  app.replaceChildren(header(), statusLine(),
    h("section", { class: "panel", "aria-labelledby": "replay-title" },
      h("h2", { id: "replay-title" }, `${fill(t.replayOf, { id: record.game ?? "" })} · ${describe(sp, record.rules)}`),
      controls, // above the line that says where the game is: that line grows and shrinks, the buttons stay put
      h("p", { class: "status", id: "replay-where", role: "status" }, `${fill(t.roundOf, { n: rp.round + 1, of: rounds })} · ${rp.step ? fill(t.stepOf, { k: rp.step, of: actions }) : t.dealt}${last ? ` · ${said(last)}` : ""}`),
      h("p", {}, button(st.gameEnd ? t.backToEnd : t.toLobby, () => { st.replay = null; render(); }, "quiet"))),
    // the round's points, then (the game's last step) the game's final result
    ended ? h("section", { class: "panel end", "aria-label": fill(t.roundEnd, { n: ended.round }) }, h("h2", {}, fill(t.roundEnd, { n: ended.round })),
      ...roundParts(sp, deck, sides, ended, before, record.rules)) : "", // as the live round's box: its primiera's cards, who took the cards left
    over ? h("section", { class: "panel end", id: "replay-end", "aria-labelledby": "replay-end-title" },
      h("h2", { id: "replay-end-title" }, t.gameEnd), h("p", { class: "winner" }, gameEndLine(sp, { event: 0, ...over }, sideOf, mine, typeof rp.leaver === "number" ? name(rp.leaver) : undefined)),
      gameEndTotals(sp, { event: 0, ...over }, sideOf)) : "",
    seats, h("div", { class: "split" }, h("div", {},
      h("h2", {}, `${t.table} · ${t.stock} ${b.stock}`), h("div", { class: "cards", "aria-label": t.table, "data-area": "table" }, ...b.table.map(cardFace)),
      ...hands),
    h("div", {}, scorePanel(sp, sides, ended ? ended.totals : before, ended?.tallies ?? b.piles, record.rules.target), h("section", { class: "panel", "aria-label": t.plays }, h("h2", {}, t.plays), plays))),
    settings());
}
