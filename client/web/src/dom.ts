// Building the page's elements.
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Record<string, any> = {}, ...kids: (Node | string)[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v as EventListener);
    else if (k === "class") e.className = v;
    else if (v !== false && v !== null && v !== undefined) e.setAttribute(k, v === true ? "" : String(v));
  }
  e.append(...kids);
  return e;
}

export function button(label: string, onclick: () => void, cls = ""): HTMLButtonElement {
  return h("button", { onclick, class: cls, type: "button" }, label);
}

/** A modal box with a title, a body to fill and closing buttons (the last closes it). */
export function dialog(title: string, closeLabel: string, id = "", closed?: () => void): { box: HTMLDialogElement; body: HTMLElement; actions: HTMLElement; close: () => void } {
  const d = h("dialog", { "aria-labelledby": "dialog-title", id: id || null });
  const body = h("div");
  const close = () => { d.close(); d.remove(); closed?.(); };
  const actions = h("p", { class: "bar" }, button(closeLabel, close, "quiet"));
  d.append(h("h2", { id: "dialog-title" }, title), body, actions);
  document.body.append(d);
  d.showModal();
  return { box: d, body, actions, close };
}
