/**
 * The part of the app's stylesheet a server-rendered page uses. The whole sheet (about 97 KB:
 * every page's and the console's classes) written into each page made a phone parse it and
 * match every rule against the page before the first paint. A page gets the rules its HTML can
 * use instead; the whole sheet follows once the app has taken the page over (./app-loader.ts),
 * for what the app shows later.
 *
 * The built sheet is parsed once into rules; a rule is kept when one of its selectors could
 * match the page: every class that selector requires is on some element of the page, and so is
 * what one selector of each of its `:is()`/`:where()` lists requires (`:not()`, `:has()` and the
 * other functions are not followed: they only narrow a match). At-rules that group rules (`@media`,
 * `@supports`, `@layer`, `@container`) keep what they hold that is kept; other at-rules
 * (`@property`, `@keyframes`, `@font-face`) are kept whole. The rules keep their order, so the
 * cascade is the whole sheet's.
 */

type Node = { kind: "rule"; text: string; need: Need | null } | { kind: "group"; prelude: string; children: Node[] } | { kind: "raw"; text: string };

const GROUPING = /^@(media|supports|layer|container)\b/i;

/**
 * Where the bracket opened at `open` closes (`opens` and `closes` are the kinds counted: `{}`
 * for a block, `([` and `)]` in a selector); strings, comments and escapes skipped.
 */
function closing(text: string, open: number, opens = "{", closes = "}"): number {
  let depth = 0;
  for (let i = open; i < text.length; i += 1) {
    const c = text[i] as string;
    if (c === "\\") i += 1;
    else if (c === '"' || c === "'") i = endOfString(text, i);
    else if (c === "/" && text[i + 1] === "*") i = endOfComment(text, i);
    else if (opens.includes(c)) depth += 1;
    else if (closes.includes(c) && (depth -= 1) === 0) return i;
  }
  return text.length;
}

/** The last character of the comment that starts at `start`. */
function endOfComment(css: string, start: number): number {
  const end = css.indexOf("*/", start + 2);
  return end === -1 ? css.length : end + 1;
}

function endOfString(css: string, start: number): number {
  const quote = css[start];
  for (let i = start + 1; i < css.length; i += 1) {
    if (css[i] === "\\") i += 1;
    else if (css[i] === quote) return i;
  }
  return css.length;
}

/** The statements of a sheet or a group's body. */
function parse(css: string): Node[] {
  const nodes: Node[] = [];
  let i = 0;
  while (i < css.length) {
    // The next `{` or `;` at this level ends the statement's prelude.
    let j = i;
    for (; j < css.length && css[j] !== "{" && css[j] !== ";"; j += 1) {
      if (css[j] === "\\") j += 1;
      else if (css[j] === '"' || css[j] === "'") j = endOfString(css, j);
      else if (css[j] === "/" && css[j + 1] === "*") j = endOfComment(css, j);
    }
    const prelude = css.slice(i, j).replace(/\/\*[\s\S]*?\*\//g, "").trim();
    if (j >= css.length || css[j] === ";") {
      if (prelude) nodes.push({ kind: "raw", text: `${prelude};` });
      i = j + 1;
      continue;
    }
    const end = closing(css, j);
    const body = css.slice(j + 1, end);
    if (GROUPING.test(prelude)) nodes.push({ kind: "group", prelude, children: parse(body) });
    else if (prelude.startsWith("@")) nodes.push({ kind: "raw", text: `${prelude}{${body}}` });
    else nodes.push({ kind: "rule", text: `${prelude}{${body}}`, need: listNeed(prelude) });
    i = end + 1;
  }
  return nodes;
}

/** A selector list's selectors, split at the commas outside brackets. */
function selectors(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < list.length; i += 1) {
    const c = list[i];
    if (c === "\\") i += 1;
    else if (c === '"' || c === "'") i = endOfString(list, i);
    else if (c === "(" || c === "[") depth += 1;
    else if (c === ")" || c === "]") depth -= 1;
    else if (c === "," && depth === 0) {
      parts.push(list.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(list.slice(start));
  return parts;
}

/** A class name as written in a selector (after its dot), escapes undone; `next` is where it ends. */
function readIdent(text: string, start: number): { name: string; next: number } {
  let name = "";
  let i = start;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === "\\") {
      const hex = /^[0-9a-fA-F]{1,6}\s?/.exec(text.slice(i + 1, i + 8));
      if (hex) {
        name += String.fromCodePoint(parseInt(hex[0], 16));
        i += 1 + hex[0].length;
      } else {
        name += text[i + 1] ?? "";
        i += 2;
      }
    } else if (/[\w-]/.test(c) || c.charCodeAt(0) > 0x7f) {
      name += c;
      i += 1;
    } else break;
  }
  return { name, next: i };
}

/** Whether a selector can match, given which classes the page has. */
type Need = (has: (name: string) => boolean) => boolean;

/** What a selector list needs: one of its selectors' needs; null when one of them needs no class. */
function listNeed(list: string): Need | null {
  const needs: Need[] = [];
  for (const selector of selectors(list)) {
    const need = selectorNeed(selector);
    if (need === null) return null;
    needs.push(need);
  }
  return (has) => needs.some((need) => need(has));
}

/**
 * What one selector needs: each class outside brackets, and what the list in an `:is()` or
 * `:where()` needs; null when it needs no class. `:not()`, `:has()` and the other functions,
 * and attribute selectors, are not followed: they only make a selector match less.
 */
function selectorNeed(selector: string): Need | null {
  const classes: string[] = [];
  const lists: Need[] = [];
  for (let i = 0; i < selector.length; i += 1) {
    const c = selector[i];
    if (c === "\\") i += 1;
    else if (c === '"' || c === "'") i = endOfString(selector, i);
    else if (c === "[") i = closing(selector, i, "([", ")]");
    else if (c === "(") {
      const end = closing(selector, i, "([", ")]");
      if (/:(?:is|where|matches)$/i.test(selector.slice(0, i))) {
        const need = listNeed(selector.slice(i + 1, end));
        if (need) lists.push(need);
      }
      i = end;
    } else if (c === ".") {
      const { name, next } = readIdent(selector, i + 1);
      if (name) classes.push(name);
      i = next - 1;
    }
  }
  if (classes.length === 0 && lists.length === 0) return null;
  return (has) => classes.every(has) && lists.every((need) => need(has));
}


function print(nodes: Node[], has: (name: string) => boolean): string {
  let out = "";
  for (const node of nodes) {
    if (node.kind === "raw") out += node.text;
    else if (node.kind === "rule") {
      if (node.need === null || node.need(has)) out += node.text;
    } else {
      const inner = print(node.children, has);
      if (inner) out += `${node.prelude}{${inner}}`;
    }
  }
  return out;
}

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#x27;": "'", "&#39;": "'" };

/** Every class on an element of the HTML. */
export function classesOf(html: string): Set<string> {
  const found = new Set<string>();
  for (const match of html.matchAll(/\sclass="([^"]*)"/g)) {
    for (const name of (match[1] as string).replace(/&(?:amp|lt|gt|quot|#x27|#39);/g, (entity) => ENTITIES[entity] as string).split(/\s+/)) {
      if (name) found.add(name);
    }
  }
  return found;
}

/** The sheet, parsed once; `for(html)` gives the part of it that page's HTML can use. */
export function criticalCss(css: string): { for(html: string): string } {
  const nodes = parse(css);
  return {
    for(html) {
      const classes = classesOf(html);
      return print(nodes, (name) => classes.has(name));
    },
  };
}
