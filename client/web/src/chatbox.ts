// A chat's box: the lobby's, and the table's (which a spectator reads but does not write in).
import { h } from "./dom";
import { send } from "./main";
import { t } from "./state";

/** A chat: its last lines and a line to write in; ``readOnly`` (a spectator's table chat,
 * which the server does not take from spectators) says so in place of that line. */
export function chatBox(lines: string[], recipient: () => string, id: string, readOnly = ""): HTMLElement {
  const log = h("ul", { class: "chat", "aria-label": t.chat, tabindex: 0 }, ...lines.slice(-50).map((l) => h("li", {}, l)));
  setTimeout(() => log.scrollTo(0, log.scrollHeight));
  if (readOnly) return h("section", { class: "panel", "aria-label": t.chat }, h("h2", {}, t.chat), log, h("p", { class: "hint", id }, readOnly));
  const keep = document.getElementById(id) as HTMLInputElement | null;
  const input = keep ?? h("input", { id, "aria-label": t.chat, maxlength: 300, class: "grow" });
  const form = h("form", { class: "bar" }, input, h("button", { type: "submit" }, t.send));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    if (input.value.trim()) send("chat", { text: input.value.trim() }, recipient());
    input.value = "";
  });
  return h("section", { class: "panel", "aria-label": t.chat }, h("h2", {}, t.chat), log, form);
}
