// A page served without TLS (plain HTTP): the server's notice, kept out of sight, and a
// small mark that says it when tapped, shown where a person types their name.
import { button, dialog, h } from "./dom";
import { t } from "./state";

/** The server's notice on a page served without TLS, in the page's language, kept out of
 * sight: a small mark at the name screen's foot (connectionLine) says it when tapped. */
export function sayNotPrivate(): void {
  const notice = document.getElementById("not-private");
  if (!notice) return;
  if (notice.textContent !== t.notPrivate) notice.textContent = t.notPrivate;
  notice.hidden = true;
}

const INFO = '<svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false"><circle cx="8" cy="8" r="7" fill="none" stroke="currentColor" stroke-width="1.5"/><circle cx="8" cy="4.6" r="1.1" fill="currentColor"/><path d="M8 7.2v5" stroke="currentColor" stroke-width="1.8"/></svg>';
const LOCK = '<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false"><path fill="none" stroke="currentColor" stroke-width="2" d="M5 11h14v10H5zM8 11V7a4 4 0 0 1 7.5-2"/></svg>';

/** A page served without TLS: an open lock and its short label, with the notice behind it
 * (and, in plain words, that whoever hosts can turn encryption on). */
function notPrivateMark(): HTMLElement | string {
  if (!document.getElementById("not-private")) return "";
  const mark = button("", () => {
    dialog(t.notEncrypted, t.close, "not-private-said").body.append(h("p", {}, t.notPrivate), h("p", { class: "hint" }, t.notPrivateHost));
  }, "quiet mark");
  mark.id = "not-private-mark";
  mark.title = t.notEncrypted;
  mark.innerHTML = LOCK;
  // its name too, read as it is seen, in plain words ("Connessione non cifrata"), and a drawn "i" in a ring that says a
  // tap tells more (drawn, not a character: a font without the sign would show a box)
  const info = h("span", { class: "info", "aria-hidden": "true" });
  info.innerHTML = INFO;
  mark.append(h("span", {}, t.notEncrypted), info);
  return mark;
}

/** The connection's line at the name screen's foot: on a plain (not encrypted) one, its small mark; nothing on TLS. */
export function connectionLine(): HTMLElement | string {
  const mark = notPrivateMark();
  return mark ? h("p", { class: "connection" }, mark) : "";
}
