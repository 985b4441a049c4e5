// The rules (docs/RULES.md, RULES.it.md) in a box, in the page's language; at a table its
// game's own section first.
import { dialog, h } from "./dom";
import { fill, gameName } from "./i18n";
import { renderMarkdown } from "./markdown";
import { lang, sp, st, t } from "./state";
import { showClock } from "./board";
import { describe } from "./score";

export function showRules(): void {
  const d = dialog(t.rules, t.close, "rules");
  // at a table the turn's clock runs on while one reads (the server's clock does not stop): it stays in sight here
  if (st.tableId) { d.box.querySelector("h2")?.after(h("p", { class: "status", id: "rules-clock" })); showClock(); }
  const table = st.tableId ? st.info?.rules : null; // at a table: its settings, its own rules too (napola, re bello…)
  if (table) d.body.append(h("p", { id: "rules-settings" }, fill(t.tableSettings, { rules: describe(sp, table) })));
  const preset = st.tableId ? st.info?.rules?.preset : null; // at a table: its game's own section first
  fetch(`rules.${lang}.md`).then((r) => r.text()).then((text) => {
    const rules = h("div", { class: "rules", lang }, renderMarkdown(text, 3));
    d.body.append(preset ? gameRules(rules, preset) : "", rules);
  });
}

/** The section of the rules (its "games by name") on ``preset``, the game at this table,
 * under its name as players say it: shown first, the whole manual below it. */
function gameRules(rules: HTMLElement, preset: string): HTMLElement | string {
  const heading = [...rules.querySelectorAll("h4, h5, h6")].find((e) => e.textContent === preset);
  if (!heading) return "";
  const level = heading.tagName;
  const part: Node[] = [];
  for (let e = heading.nextElementSibling; e && !(/^H[1-6]$/.test(e.tagName) && e.tagName <= level); e = e.nextElementSibling) part.push(e.cloneNode(true));
  return h("section", { class: "panel", id: "rules-now", "aria-labelledby": "rules-now-title", lang },
    h("h3", { id: "rules-now-title" }, fill(t.thisGame, { game: gameName(preset, lang) })), ...part);
}
