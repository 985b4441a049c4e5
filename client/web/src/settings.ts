// The page's settings, at its foot: the cards' look and the language.
import type { Deck } from "./cards";
import { h } from "./dom";
import type { Lang } from "./i18n";
import { forgetForm } from "./lobby";
import { deck, lang, setDeck, setLang as speak, t } from "./state";
import { sayNotPrivate } from "./notprivate";
import { render } from "./main";

function setLang(next: Lang): void {
  speak(next);
  forgetForm(); // drawn again in this language
  sayNotPrivate();
  render();
}

function choice(id: string, label: string, options: [string, string][], value: string, onchange: (v: string) => void): HTMLElement {
  const select = h("select", { id, "aria-label": label, onchange: () => onchange(select.value) },
    ...options.map(([v, text]) => h("option", { value: v, selected: v === value }, text)));
  return h("label", { for: id, class: "inline" }, label, select);
}

/** The page's settings, at its foot: the cards' look and the language (the plain
 * connection's mark is said where a name is typed, the name screen, not on every screen). */
export function settings(): HTMLElement {
  return h("footer", { class: "bar panel", "aria-label": t.settings },
    choice("deck", t.deck, [["italian", t.italian], ["french", t.french]], deck, (v) => {
      setDeck(v as Deck); render();
    }),
    languageChoice());
}

export function languageChoice(): HTMLElement {
  return choice("lang", t.language, [["it", "italiano"], ["en", "English"]], lang, (v) => setLang(v as Lang));
}

