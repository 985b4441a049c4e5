// A small Markdown renderer for the rules (docs/RULES.md): headings, paragraphs, nested
// lists, tables, code blocks, block quotes and rules, with **strong**, *emphasis*,
// `code` and [links](url) inside.  It builds DOM nodes (text is never parsed as HTML).

type Kid = Node | string;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, ...kids: Kid[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  e.append(...kids);
  return e;
}

const INLINE = /(`+)([\s\S]*?[^`])\1(?!`)|\*\*(.+?)\*\*|__(.+?)__|\*([^*\s](?:[^*]*[^*\s])?)\*|(^|[^\p{L}\p{N}_])_([^_\s](?:[^_]*[^_\s])?)_(?![\p{L}\p{N}])|\[([^\]]+)\]\(([^)\s]+)\)/u;

/** The nodes of one line (or one table cell) of Markdown text. */
export function inline(text: string): Kid[] {
  const out: Kid[] = [];
  let rest = text;
  for (let m = INLINE.exec(rest); m; m = INLINE.exec(rest)) {
    if (m.index > 0) out.push(rest.slice(0, m.index));
    if (m[1]) out.push(el("code", m[2].trim() || m[2]));
    else if (m[3] ?? m[4]) out.push(el("strong", ...inline(m[3] ?? m[4])));
    else if (m[5]) out.push(el("em", ...inline(m[5])));
    else if (m[7]) out.push(m[6], el("em", ...inline(m[7])));
    else {
      const href = m[9];
      const a = el("a", ...inline(m[8]));
      if (/^(https?:|#|[\w./-]+$)/i.test(href)) a.setAttribute("href", href);
      if (/^https?:/i.test(href)) { a.target = "_blank"; a.rel = "noopener noreferrer"; }
      out.push(a);
    }
    rest = rest.slice(m.index + m[0].length);
  }
  if (rest) out.push(rest);
  return out;
}

const ITEM = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/;
const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const FENCE = /^\s*(```|~~~)/;
const RULE = /^\s*([-*_])(\s*\1){2,}\s*$/;
const TABLE_SEP = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

function cells(line: string): string[] {
  let s = line.trim();
  if (s.startsWith("|")) s = s.slice(1);
  if (s.endsWith("|") && !s.endsWith("\\|")) s = s.slice(0, -1);
  const out = [""];
  for (let i = 0; i < s.length; i++) {
    if (s[i] === "\\" && s[i + 1] === "|") { out[out.length - 1] += "|"; i++; } else if (s[i] === "|") out.push(""); else out[out.length - 1] += s[i];
  }
  return out.map((c) => c.trim());
}

function table(head: string, sep: string, rows: string[]): HTMLTableElement {
  const align = cells(sep).map((c) => (c.startsWith(":") && c.endsWith(":") ? "center" : c.endsWith(":") ? "right" : c.startsWith(":") ? "left" : ""));
  const cell = (tag: "th" | "td", text: string, i: number) => {
    const c = el(tag, ...inline(text));
    if (tag === "th") c.setAttribute("scope", "col");
    if (align[i]) c.style.textAlign = align[i];
    return c;
  };
  const names = cells(head);
  return el("table",
    el("thead", el("tr", ...names.map((c, i) => cell("th", c, i)))),
    el("tbody", ...rows.map((r) => el("tr", ...names.map((_, i) => cell("td", cells(r)[i] ?? "", i))))));
}

interface Open { indent: number; list: HTMLUListElement | HTMLOListElement; item: HTMLLIElement }

/** ``text`` (Markdown) as a fragment of HTML elements; headings start at ``<h{top}>``. */
export function renderMarkdown(text: string, top = 1): DocumentFragment {
  const out = document.createDocumentFragment();
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  let para: string[] = [];
  let lists: Open[] = [];
  const flush = () => {
    if (!para.length) return;
    const p = el("p", ...inline(para.join(" ")));
    if (lists.length) lists[lists.length - 1].item.append(p); else out.append(p);
    para = [];
  };
  const closeLists = () => { flush(); lists = []; };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!line.trim()) { flush(); if (!ITEM.test(lines[i + 1] ?? "") && !/^\s+\S/.test(lines[i + 1] ?? "")) closeLists(); continue; }
    if (FENCE.test(line)) {
      closeLists();
      const fence = line.trim().slice(0, 3);
      const body: string[] = [];
      for (i += 1; i < lines.length && !lines[i].trim().startsWith(fence); i++) body.push(lines[i]);
      out.append(el("pre", el("code", body.join("\n"))));
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      closeLists();
      const level = Math.min(6, heading[1].length + top - 1) as 1 | 2 | 3 | 4 | 5 | 6;
      out.append(el(`h${level}`, ...inline(heading[2])));
      continue;
    }
    if (RULE.test(line) && !para.length) { closeLists(); out.append(el("hr")); continue; }
    if (line.trim().startsWith("|") && TABLE_SEP.test(lines[i + 1] ?? "")) {
      closeLists();
      const rows: string[] = [];
      const head = line;
      const sep = lines[i + 1];
      for (i += 2; i < lines.length && lines[i].trim().startsWith("|"); i++) rows.push(lines[i]);
      i -= 1;
      out.append(table(head, sep, rows));
      continue;
    }
    if (line.startsWith(">")) {
      closeLists();
      const quoted: string[] = [];
      for (; i < lines.length && lines[i].startsWith(">"); i++) quoted.push(lines[i].replace(/^>\s?/, ""));
      i -= 1;
      out.append(el("blockquote", renderMarkdown(quoted.join("\n"), top)));
      continue;
    }
    const item = ITEM.exec(line);
    if (item) {
      flush();
      const indent = item[1].replace(/\t/g, "    ").length;
      const ordered = /\d/.test(item[2]);
      while (lists.length && lists[lists.length - 1].indent > indent) lists.pop();
      let top_ = lists[lists.length - 1];
      if (!top_ || top_.indent < indent || (top_.list.tagName === "OL") !== ordered) {
        if (top_ && top_.indent === indent) lists.pop();
        const list = ordered ? el("ol") : el("ul");
        if (list instanceof HTMLOListElement && Number.parseInt(item[2], 10) !== 1) list.start = Number.parseInt(item[2], 10);
        const parent = lists[lists.length - 1];
        if (parent) parent.item.append(list); else out.append(list);
        top_ = { indent, list, item: el("li") };
        lists.push(top_);
      }
      top_.item = el("li", ...inline(item[3]));
      top_.list.append(top_.item);
      continue;
    }
    if (lists.length && !para.length) {
      // a line under an item (indented or lazily not) goes on with the item's own text
      const last = lists[lists.length - 1].item;
      if (last.lastChild && last.lastChild.nodeName !== "UL" && last.lastChild.nodeName !== "OL" && last.lastChild.nodeName !== "P") {
        last.append(" ", ...inline(line.trim()));
        continue;
      }
    }
    para.push(line.trim());
  }
  closeLists();
  return out;
}
