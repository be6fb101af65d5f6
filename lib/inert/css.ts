// CSS for the inert document, read the way a browser reads it and written out again from what was
// understood, never passed through as text.
//
// The tokenizer (css-tokens.ts) follows CSS Syntax Level 3 (escapes, comments, strings, url tokens and their bad
// forms), so `u\72 l(`, `\75 rl(` or an `@import` after a comment are seen as the url token and
// the at-rule a browser would see. Rules and declarations are then kept from an allow-list and
// serialised token by token: escapes come out resolved, strings re-quoted, and a comment goes
// between two tokens that would otherwise run together, so the browser reading the output finds
// exactly the tokens that were checked. Every closing bracket written matches an opening one, so
// the block structure it finds is the one that was checked too.

import { isDigit, isLetter, tokenize, type Token } from "./css-tokens";

type Preserved = Exclude<Token, { t: "function" } | { t: "(" } | { t: "[" } | { t: "{" }>;

/** A component value: a token, a simple block or a function with its arguments. */
type Value = Preserved | { t: "block"; open: "(" | "[" | "{"; items: Value[] } | { t: "func"; name: string; items: Value[] } | { t: "too-deep" };

/** Deepest nesting of brackets and functions read; anything deeper makes its rule or declaration invalid. */
const MAX_VALUE_DEPTH = 32;
/** Deepest nesting of rules (@media in @supports in a style rule…) kept. */
const MAX_RULE_DEPTH = 16;

// --- Component values -------------------------------------------------------------------------

const CLOSER = { "(": ")", "[": "]", "{": "}" } as const;

/** The token list as component values: blocks and functions hold what they enclose. */
function componentValues(tokens: Token[]): Value[] {
  let i = 0;
  const skipBlock = (close: string) => {
    // Beyond the depth kept: count brackets to find the end without recursing.
    const stack = [close];
    while (i < tokens.length && stack.length) {
      const t = tokens[i++]!;
      if (t.t === stack[stack.length - 1]) stack.pop();
      else if (t.t === "(" || t.t === "function") stack.push(")");
      else if (t.t === "[") stack.push("]");
      else if (t.t === "{") stack.push("}");
    }
  };
  const list = (close: string | null, depth: number): Value[] => {
    const out: Value[] = [];
    while (i < tokens.length) {
      const t = tokens[i++]!;
      if (t.t === close) return out;
      if (t.t === "(" || t.t === "[" || t.t === "{" || t.t === "function") {
        const end = t.t === "function" ? ")" : CLOSER[t.t];
        if (depth >= MAX_VALUE_DEPTH) {
          skipBlock(end);
          out.push({ t: "too-deep" });
          continue;
        }
        const items = list(end, depth + 1);
        out.push(t.t === "function" ? { t: "func", name: t.v, items } : { t: "block", open: t.t, items });
        continue;
      }
      out.push(t);
    }
    return out;
  };
  return list(null, 0);
}

// --- What may be kept -------------------------------------------------------------------------

/** Properties where `url(#id)` names an element of this document (paint servers, clip paths, markers). */
const FRAGMENT_PROPERTIES = new Set(["fill", "stroke", "clip-path", "marker", "marker-start", "marker-mid", "marker-end"]);
const FRAGMENT = /^#[A-Za-z0-9_][A-Za-z0-9_.:-]*$/;
/** Functions that fetch, take an image by address, read an attribute or run something. */
const BANNED_FUNCTIONS = new Set([
  "url",
  "src",
  "image",
  "image-set",
  "-webkit-image-set",
  "element",
  "-moz-element",
  "expression",
  "attr",
  "cross-fade",
  "-webkit-cross-fade",
  "paint",
  "-webkit-canvas",
]);
/**
 * Text no value needs, looked for in identifiers, strings and the written value alike (so also
 * after escapes are resolved): a call of one of those functions, a scheme that runs code, or an
 * address, which no value holds but to fetch it (a string of one shown as `content` is dropped too).
 */
const BANNED_TEXT = /(?:url|image-set|image|element|expression|attr|src)\(|-moz-binding|(?<![\w-])behavior(?![\w-])|javascript:|vbscript:|[a-z][a-z0-9+.-]*:\s*\/\//i;
/**
 * Keywords of no property that name one of those functions: a value holding one is dropped, so
 * no custom property can hand half of a call to another through var().
 */
const BANNED_IDENTS = new Set(["url", "src", "image-set", "-webkit-image-set", "expression", "attr", "-moz-binding", "behavior"]);
const BANNED_PROPERTIES = new Set(["behavior", "-moz-binding", "src"]);
const PROPERTY_NAME = /^(?:--\S*|-?[a-z][a-z0-9-]*)$/;

/** Whether every component value may be written out, for a declaration of `property` (or a prelude: null). */
function safeValues(values: Value[], property: string | null): boolean {
  for (const v of values) {
    switch (v.t) {
      case "too-deep":
      case "bad-string":
      case "bad-url":
      case "cdo":
      case "cdc":
      case ")":
      case "]":
      case "}":
        return false;
      case "delim":
        if (v.v === "\\") return false;
        break;
      case "url":
        if (!(property !== null && FRAGMENT_PROPERTIES.has(property) && FRAGMENT.test(v.v))) return false;
        break;
      case "ident":
      case "at":
      case "hash":
        // In a selector or a media query a name is only a name (a class may be called "image").
        if (property !== null && (BANNED_IDENTS.has(v.v.toLowerCase()) || BANNED_TEXT.test(v.v))) return false;
        break;
      case "dimension":
        if (property !== null && BANNED_TEXT.test(v.unit)) return false;
        break;
      case "string":
        if (property !== null && BANNED_TEXT.test(v.v)) return false;
        break;
      case "func": {
        const name = v.name.toLowerCase();
        if (name === "url") {
          // url("#id"): the string form of a fragment reference.
          const args = v.items.filter((a) => a.t !== "ws");
          const only = args[0];
          if (!(args.length === 1 && only?.t === "string" && property !== null && FRAGMENT_PROPERTIES.has(property) && FRAGMENT.test(only.v))) return false;
          break;
        }
        if (BANNED_FUNCTIONS.has(name) || BANNED_TEXT.test(`${name}(`)) return false;
        if (!safeValues(v.items, property)) return false;
        break;
      }
      case "block":
        if (v.open === "{") return false;
        if (!safeValues(v.items, property)) return false;
        break;
    }
  }
  return true;
}

// --- Serialisation ----------------------------------------------------------------------------

const HEX_ESCAPE = (cp: number) => `\\${cp.toString(16)} `;

function serializeName(v: string, ident: boolean): string {
  let out = "";
  const cps = [...v];
  cps.forEach((ch, k) => {
    const cp = ch.codePointAt(0)!;
    if (cp === 0) out += "\ufffd";
    else if ((cp >= 1 && cp <= 0x1f) || cp === 0x7f) out += HEX_ESCAPE(cp);
    else if (ident && k === 0 && isDigit(cp)) out += HEX_ESCAPE(cp);
    else if (ident && k === 1 && isDigit(cp) && cps[0] === "-") out += HEX_ESCAPE(cp);
    else if (ident && k === 0 && cp === 0x2d && cps.length === 1) out += "\\-";
    else if (cp >= 0x80 || isLetter(cp) || isDigit(cp) || cp === 0x2d || cp === 0x5f) out += ch;
    else if (ch === "<" || ch === ">") out += HEX_ESCAPE(cp);
    else out += `\\${ch}`;
  });
  return out;
}
const serializeIdent = (v: string) => serializeName(v, true);

function serializeString(v: string): string {
  let out = '"';
  for (const ch of v) {
    const cp = ch.codePointAt(0)!;
    if (cp === 0) out += "\ufffd";
    else if ((cp >= 1 && cp <= 0x1f) || cp === 0x7f) out += HEX_ESCAPE(cp);
    else if (ch === '"' || ch === "\\") out += `\\${ch}`;
    // Never a "<" in the style element's text: no "</style" can end it early.
    else if (ch === "<" || ch === ">") out += HEX_ESCAPE(cp);
    else out += ch;
  }
  return `${out}"`;
}

const isDelim = (v: Value, ...chars: string[]) => v.t === "delim" && chars.includes(v.v);
const isNumeric = (v: Value) => v.t === "number" || v.t === "percentage" || v.t === "dimension";
/** Whether `v` starts with an identifier (a function's name, `url(`): what a name before it would swallow. */
const startsName = (v: Value) => v.t === "ident" || v.t === "func" || v.t === "url";

/**
 * Whether two tokens written side by side would be read back as one (CSS Syntax's serialisation
 * table, plus `-` `-`, which reads as the identifier `--`, and a number before `.` or `-`).
 */
function needsSeparator(prev: Value, next: Value): boolean {
  if (next.t === "ws") return false;
  switch (prev.t) {
    case "ident":
      return startsName(next) || isNumeric(next) || isDelim(next, "-") || (next.t === "block" && next.open === "(");
    case "at":
    case "hash":
    case "dimension":
      return startsName(next) || isNumeric(next) || isDelim(next, "-");
    case "number":
      return startsName(next) || isNumeric(next) || isDelim(next, "%", ".", "-");
    case "delim":
      switch (prev.v) {
        case "#":
        case "-":
          return startsName(next) || isNumeric(next) || isDelim(next, "-");
        case "@":
          return startsName(next) || isDelim(next, "-");
        case ".":
        case "+":
          return isNumeric(next);
        case "/":
          return isDelim(next, "*");
        case "<":
          // Never "</" in the style element's text, whatever follows.
          return true;
        default:
          return false;
      }
    default:
      return false;
  }
}

function serializeOne(v: Value): string {
  switch (v.t) {
    case "ws":
      return " ";
    case "ident":
      return serializeIdent(v.v);
    case "at":
      return `@${serializeIdent(v.v)}`;
    case "hash":
      return `#${serializeName(v.v, false)}`;
    case "string":
      return serializeString(v.v);
    case "url":
      return `url(${v.v})`;
    case "delim":
      return v.v;
    case "number":
      return v.repr;
    case "percentage":
      return `${v.repr}%`;
    case "dimension": {
      // A unit like "e3" would be read back as an exponent.
      const unit = serializeIdent(v.unit);
      return `${v.repr}${/^[eE][+-]?\d/.test(v.unit) ? `${HEX_ESCAPE(v.unit.charCodeAt(0))}${unit.slice(1)}` : unit}`;
    }
    case ":":
    case ";":
    case ",":
      return v.t;
    case "func":
      return `${serializeIdent(v.name)}(${serializeValues(v.items)})`;
    case "block":
      return `${v.open}${serializeValues(v.items)}${CLOSER[v.open]}`;
    default:
      // Only kinds safeValues refuses reach here; never written.
      return "";
  }
}

function serializeValues(values: Value[]): string {
  let out = "";
  let prev: Value | null = null;
  for (const v of values) {
    if (prev && needsSeparator(prev, v)) out += "/**/";
    out += serializeOne(v);
    prev = v;
  }
  return out;
}

function trimWs(values: Value[]): Value[] {
  let a = 0;
  let b = values.length;
  while (a < b && values[a]!.t === "ws") a++;
  while (b > a && values[b - 1]!.t === "ws") b--;
  return values.slice(a, b);
}

// --- Rules ------------------------------------------------------------------------------------

type Item =
  | { kind: "decl"; name: string; value: Value[]; important: boolean }
  | { kind: "at"; name: string; prelude: Value[]; block: Value[] | null }
  | { kind: "qualified"; prelude: Value[]; block: Value[] };

/** The rules of a stylesheet (or of @media's block at the top level). */
function ruleList(values: Value[]): Item[] {
  const items: Item[] = [];
  let i = 0;
  while (i < values.length) {
    const v = values[i]!;
    if (v.t === "ws" || v.t === "cdo" || v.t === "cdc") {
      i++;
      continue;
    }
    if (v.t === "at") {
      const read = readAtRule(values, i + 1, v.v);
      items.push(read.item);
      i = read.next;
      continue;
    }
    const prelude: Value[] = [];
    let block: Value[] | null = null;
    while (i < values.length) {
      const p = values[i++]!;
      if (p.t === "block" && p.open === "{") {
        block = p.items;
        break;
      }
      prelude.push(p);
    }
    if (block) items.push({ kind: "qualified", prelude, block });
  }
  return items;
}

/** An at-rule whose name was read at `start - 1`: its prelude up to `;` or its `{}` block. */
function readAtRule(values: Value[], start: number, name: string): { item: Item; next: number } {
  const prelude: Value[] = [];
  let block: Value[] | null = null;
  let i = start;
  while (i < values.length) {
    const p = values[i++]!;
    if (p.t === ";") break;
    if (p.t === "block" && p.open === "{") {
      block = p.items;
      break;
    }
    prelude.push(p);
  }
  return { item: { kind: "at", name: name.toLowerCase(), prelude, block }, next: i };
}

/** The contents of a style rule's block: declarations, and nested rules. */
function blockContents(values: Value[]): Item[] {
  const items: Item[] = [];
  let i = 0;
  while (i < values.length) {
    const v = values[i]!;
    if (v.t === "ws" || v.t === ";") {
      i++;
      continue;
    }
    if (v.t === "at") {
      const read = readAtRule(values, i + 1, v.v);
      items.push(read.item);
      i = read.next;
      continue;
    }
    // A declaration if it reads as one up to the next semicolon (a `{}` block in an ordinary
    // property's value means it was a nested rule's selector after all, `a:hover {…}`).
    if (v.t === "ident") {
      let j = i + 1;
      while (j < values.length && values[j]!.t === "ws") j++;
      if (values[j]?.t === ":") {
        const custom = v.v.startsWith("--");
        let k = j + 1;
        const value: Value[] = [];
        let hasBlock = false;
        // An ordinary property stops looking at a block, so a run of `a:b{}` is read once, not
        // once per rule; a custom property's value may hold one and runs to the semicolon.
        while (k < values.length && values[k]!.t !== ";") {
          const x = values[k]!;
          if (x.t === "block" && x.open === "{") {
            hasBlock = true;
            if (!custom) break;
          }
          value.push(x);
          k++;
        }
        if (custom || !hasBlock) {
          let body = trimWs(value);
          let important = false;
          const last = body[body.length - 1];
          let bang = body.length - 2;
          while (bang >= 0 && body[bang]!.t === "ws") bang--;
          const mark = body[bang];
          if (last?.t === "ident" && last.v.toLowerCase() === "important" && mark?.t === "delim" && mark.v === "!") {
            important = true;
            body = trimWs(body.slice(0, bang));
          }
          items.push({ kind: "decl", name: custom ? v.v : v.v.toLowerCase(), value: body, important });
          i = k;
          continue;
        }
      }
    }
    // A nested rule: its selector runs to a `{}` block; a semicolon first ends a bad declaration.
    const prelude: Value[] = [];
    let block: Value[] | null = null;
    while (i < values.length) {
      const p = values[i]!;
      if (p.t === ";") break;
      i++;
      if (p.t === "block" && p.open === "{") {
        block = p.items;
        break;
      }
      prelude.push(p);
    }
    if (block) items.push({ kind: "qualified", prelude, block });
  }
  return items;
}

/** A declaration written out, or null when it may not be kept. */
function declaration(name: string, value: Value[], important: boolean): string | null {
  if (!PROPERTY_NAME.test(name) || BANNED_PROPERTIES.has(name)) return null;
  if (value.length === 0 && !name.startsWith("--")) return null;
  if (!safeValues(value, name)) return null;
  const text = serializeValues(value);
  // The same rule read off the written text, escapes already resolved: only a fragment url left.
  const withoutFragments = text.replace(/url\(#[A-Za-z0-9_][A-Za-z0-9_.:-]*\)|url\("#[A-Za-z0-9_][A-Za-z0-9_.:-]*"\)/gi, "");
  if (BANNED_TEXT.test(withoutFragments)) return null;
  return `${serializeIdent(name)}: ${text}${important ? " !important" : ""}`;
}

/** Grouping rules kept with their blocks; anything else (@import, @font-face, @namespace, …) is dropped. */
const GROUPING = new Set(["media", "supports", "container", "layer"]);
const KEYFRAMES = new Set(["keyframes", "-webkit-keyframes"]);

function preludeText(prelude: Value[]): string | null {
  const p = trimWs(prelude);
  if (!safeValues(p, null)) return null;
  return serializeValues(p);
}

/** Rules at the top of a sheet or inside a grouping rule there. */
function topRules(items: Item[], depth: number): string[] {
  const out: string[] = [];
  for (const item of items) {
    if (item.kind === "decl") continue;
    if (item.kind === "qualified") {
      const rule = styleRule(item.prelude, item.block, depth);
      if (rule) out.push(rule);
      continue;
    }
    const kept = atRule(item, depth, false);
    if (kept) out.push(kept);
  }
  return out;
}

function atRule(item: Extract<Item, { kind: "at" }>, depth: number, nested: boolean): string | null {
  if (depth >= MAX_RULE_DEPTH) return null;
  const name = item.name;
  const prelude = preludeText(item.prelude);
  if (prelude === null) return null;
  if (name === "layer" && item.block === null) {
    // `@layer a, b;` only names layers.
    return prelude && /^[\w\s.,-]+$/.test(prelude) ? `@layer ${prelude};` : null;
  }
  if (item.block === null) return null;
  if (GROUPING.has(name)) {
    if (name !== "layer" && !prelude) return null;
    const head = `@${name}${prelude ? ` ${prelude}` : ""}`;
    const inner = nested ? nestedContents(blockContents(item.block), depth + 1) : topRules(ruleList(item.block), depth + 1);
    return inner.length ? `${head} {\n${inner.join("\n")}\n}` : null;
  }
  if (KEYFRAMES.has(name) && !nested) {
    if (!prelude) return null;
    const frames: string[] = [];
    for (const frame of ruleList(item.block)) {
      if (frame.kind !== "qualified") continue;
      const selector = preludeText(frame.prelude);
      if (!selector) continue;
      const decls = declarationsOf(blockContents(frame.block));
      if (decls.length) frames.push(`${selector} { ${decls.join("; ")} }`);
    }
    return frames.length ? `@${name} ${prelude} {\n${frames.join("\n")}\n}` : null;
  }
  return null;
}

function declarationsOf(items: Item[]): string[] {
  const out: string[] = [];
  for (const item of items) {
    if (item.kind !== "decl") continue;
    const d = declaration(item.name, item.value, item.important);
    if (d) out.push(d);
  }
  return out;
}

/** A style rule's block: its declarations first, then the nested rules kept. */
function nestedContents(items: Item[], depth: number): string[] {
  const out = declarationsOf(items).map((d) => `${d};`);
  for (const item of items) {
    if (item.kind === "qualified") {
      const rule = styleRule(item.prelude, item.block, depth);
      if (rule) out.push(rule);
    } else if (item.kind === "at") {
      const rule = atRule(item, depth, true);
      if (rule) out.push(rule);
    }
  }
  return out;
}

/** `--name:` at the start of a prelude: a browser reads that as a custom property, never a rule. */
function looksLikeCustomProperty(prelude: Value[]): boolean {
  const p = prelude.filter((v) => v.t !== "ws");
  return p[0]?.t === "ident" && p[0].v.startsWith("--") && p[1]?.t === ":";
}

function styleRule(prelude: Value[], block: Value[], depth: number): string | null {
  if (depth >= MAX_RULE_DEPTH || looksLikeCustomProperty(prelude)) return null;
  const selector = preludeText(prelude);
  if (!selector) return null;
  const inner = nestedContents(blockContents(block), depth + 1);
  // A rule left empty is left out.
  return inner.length ? `${selector} { ${inner.join(" ")} }` : null;
}

// --- Entry points -----------------------------------------------------------------------------

function assertNoStyleEnd(css: string): string {
  // The serialiser never writes "<" but as a delimiter followed by a comment; this holds it to that.
  if (/<\/style/i.test(css) || /<!--|-->/.test(css)) throw new Error("the style sheet's text could end its element");
  return css;
}

/** A stylesheet's text, rewritten to the rules and declarations the inert document keeps. */
export function sanitizeStylesheet(css: string): string {
  const rules = topRules(ruleList(componentValues(tokenize(css))), 0);
  return assertNoStyleEnd(rules.join("\n"));
}

/** A style attribute's declarations, rewritten the same way (nested rules in it are dropped). */
export function sanitizeDeclarations(style: string): string {
  return declarationsOf(blockContents(componentValues(tokenize(style)))).join("; ");
}

/** One property's value (an SVG presentation attribute), or null when it may not be kept. */
export function sanitizePropertyValue(property: string, value: string): string | null {
  const values = trimWs(componentValues(tokenize(value)));
  if (values.length === 0) return null;
  const d = declaration(property, values, false);
  return d === null ? null : serializeValues(values);
}
