// The name screen: the name a person types (in the page's own words when the server would
// refuse it), the invite that brought them, and the question when the name is in use.
import { button, h } from "./dom";
import { fill, gameName } from "./i18n";
import { askLinkSeat, watchLink } from "./links";
import { app, sp, st, t } from "./state";
import { houseRules } from "./score";
import { changeName, connect, languageChoice, playAs, render } from "./main";
import { connectionLine } from "./notprivate";

let question: { asked: string; given: string } | null = null; // that question, on this screen
let linkFull: boolean | null = null; // the invite's table has no seat left (null: not asked yet)
let linkOver = false; // its game is over: the name typed, the page shows how it ended

/** The server found the name taken (one just typed here, or the one the page kept): the
 * person is asked, ``given`` offered instead, never renamed unasked. */
export function askAboutName(asked: string, given: string): void {
  question = { asked, given };
}

/** Whether the name screen is on: no name yet, or a question about it. */
export function naming(): boolean {
  return !st.name || question !== null;
}

/** The name screen's line for a page opened by an invite: whose table and which game, when the link says. */
function invitedLine(q: URLSearchParams): string {
  const [from, game, n, target] = ["from", "game", "n", "to"].map((k) => q.get(k) ?? "");
  // the table's own rules ("napola,capture_mode:free"), in words
  const house = houseRules(sp, Object.fromEntries((q.get("rules") ?? "").split(",").filter(Boolean).map((x) => [x.split(":")[0], x.split(":")[1] ?? true])));
  return from && game && /^\d+$/.test(n) && /^\d+$/.test(target)
    ? fill(house.length ? t.invitedWith : t.invitedBy, { name: from, game: gameName(game, sp.lang), n, target, rules: house.join(", ") }) : t.invited;
}

// A name as the server takes it (PROTOCOL.md §4 "Names"): letters (the accented Latin ones too), digits, _ - .
const NAME_CHARS = "A-Za-z0-9_.\\-\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u024F";
const NAME = new RegExp(`^[${NAME_CHARS}]{1,24}$`);

/** The ways a name the server would refuse can be written so that it takes it: its words
 * joined by _ and run together ("Zio Gino": "Zio_Gino", "ZioGino"). */
function nameForms(typed: string): string[] {
  const words = typed.replace(new RegExp(`[^${NAME_CHARS}\\s]`, "g"), "").split(/\s+/).filter(Boolean);
  const forms = [words.join("_"), words.join("")].map((n) => n.slice(0, 24)).filter((n) => NAME.test(n));
  return [...new Set(forms)];
}

export function nameScreen(): void {
  const input = h("input", { id: "name", maxlength: 24, autocomplete: "nickname", "aria-describedby": "name-rule" });
  const said = h("p", { id: "name-said", role: "alert" });
  const form = h("form", { class: "panel", novalidate: true }, h("label", { for: "name" }, t.yourName), input,
    h("p", { id: "name-rule", class: "hint" }, t.nameRule), said, h("p", {}, h("button", { type: "submit", id: "name-go" }, linkOver ? t.seeResult : linkFull ? t.watchIt : t.play)));
  const take = (name: string) => { if (linkFull) watchLink(); st.name = name; connect(); render(); };
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const name = input.value.trim().normalize("NFC");
    if (NAME.test(name)) { take(name); return; }
    // the page's own words on what a name may hold, and the forms of this one the server takes
    const forms = name ? nameForms(name) : [];
    input.setAttribute("aria-invalid", "true");
    input.setAttribute("aria-describedby", "name-said name-rule");
    said.replaceChildren(!name ? t.nameEmpty : /\s/.test(name) ? t.nameSpaces : t.nameBad,
      ...forms.flatMap((n) => [" ", button(fill(t.playAs, { name: n }), () => take(n), "quiet")]));
  });
  input.addEventListener("input", () => { // the name changed: what was said of the one before is old
    said.replaceChildren();
    input.removeAttribute("aria-invalid");
    input.setAttribute("aria-describedby", "name-rule");
  });
  const q = new URLSearchParams(location.search);
  const invited = q.has("invite") || q.has("table") ? h("p", { class: "status", id: "invited" }, linkOver ? t.linkOverNow : linkFull ? t.linkFullNow : invitedLine(q)) : "";
  if (invited && linkFull === null) {
    linkFull = false;
    askLinkSeat((over) => { // a full table: said, and its game offered to watch (no seat to play in); a game over: said so
      linkFull = true; linkOver = over;
      const [line, go] = [document.getElementById("invited"), document.getElementById("name-go")];
      if (line) line.textContent = over ? t.linkOverNow : t.linkFullNow;
      if (go) go.textContent = over ? t.seeResult : t.watchIt;
    });
  }
  app.replaceChildren(h("header", { class: "bar" }, h("h1", { class: "grow" }, t.title), languageChoice()), invited,
    question ? nameQuestion(question) : form, h("footer", { class: "bar" }, connectionLine()));
  if (!question) input.focus();
}

/** The name just typed is in use: play under the one the page offers, or pick another. */
function nameQuestion(q: { asked: string; given: string }): HTMLElement {
  const yes = button(fill(t.playAs, { name: q.given }), () => { question = null; playAs(q.given); });
  const other = button(t.otherName, () => { question = null; changeName(); }, "quiet");
  setTimeout(() => yes.focus());
  return h("section", { class: "panel", id: "name-question" }, h("p", { role: "alert" }, fill(t.nameInUse, q)), h("p", { class: "bar" }, yes, other));
}
