// Re-indents a dashboard's HTML by its element nesting, two spaces a level. Only whitespace at
// the start and end of lines changes: script and style bodies move as a block (their own relative
// indentation is the author's), and text whose whitespace can matter (pre, textarea, comments,
// quoted attribute values, lines inside a multi-line JavaScript template literal or continued
// string) is left exactly as written. The formatter is small and line-based on purpose: a full
// HTML and JavaScript pretty-printer would cost the editor page more script than the whole
// editor, and rewriting an author's code beyond its indentation surprises. It can still misread a
// document; the editor formats only after ./format-check.ts has read both to the same content.

const UNIT = "  ";

const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);
/** Elements whose content is kept as written. */
const VERBATIM = new Set(["pre", "textarea", "listing", "xmp"]);
/** Elements whose content is code, moved as a block. */
const RAW = new Set(["script", "style"]);

const TAG = /<!--|<\/?([a-zA-Z][\w-]*)\b((?:[^>"']|"[^"]*"|'[^']*')*?)(\/?)>/g;

/** A start tag whose `>` is on a later line, and whether a quoted value is open at the line's end. */
interface OpenTag {
  name: string;
  quote: string | null;
  afterEquals: boolean;
}

type Mode =
  | { kind: "html" }
  | { kind: "comment" }
  // `written`: the block's first line (text after its start tag) went out with that tag already.
  | { kind: "raw"; name: string; lines: string[]; written: number; depth: number }
  | { kind: "verbatim"; name: string };

// HTML's whitespace is ASCII's: a no-break space at the start of a line is text, and stays.
const trimmed = (s: string) => s.replace(/^[\t\f\r ]+|[\t\f\r ]+$/g, "");
const trimEnd = (s: string) => s.replace(/[\t\f\r ]+$/, "");
const blank = (s: string) => /^[\t\f\r ]*$/.test(s);
const leading = (line: string) => line.length - line.replace(/^[\t\f\r ]+/, "").length;
const closeAt = (line: string, name: string) => line.search(new RegExp(`</${name}(?=[\\t\\f\\r />]|$)`, "i"));

/**
 * For each line of a script, whether it starts inside a template literal or a string continued
 * with a backslash (so its whitespace is the string's).
 */
export function linesInsideTemplates(lines: readonly string[]): boolean[] {
  const inside: boolean[] = [];
  // A stack of contexts: template literals, and the code inside their `${}`, with brace depth.
  const stack: ({ kind: "template" } | { kind: "code"; braces: number })[] = [{ kind: "code", braces: 0 }];
  let block = false;
  let quote: string | null = null;
  for (const line of lines) {
    inside.push(stack[stack.length - 1]?.kind === "template" || quote !== null);
    let continued = false;
    for (let i = 0; i < line.length; i++) {
      const c = line[i];
      const top = stack[stack.length - 1];
      if (block) {
        if (c === "*" && line[i + 1] === "/") {
          block = false;
          i++;
        }
        continue;
      }
      if (top?.kind === "template") {
        if (c === "\\") i++;
        else if (c === "`") stack.pop();
        else if (c === "$" && line[i + 1] === "{") {
          stack.push({ kind: "code", braces: 0 });
          i++;
        }
        continue;
      }
      if (quote) {
        if (c === "\\") {
          continued = i === line.length - 1;
          i++;
        } else if (c === quote) quote = null;
        continue;
      }
      if (c === "/" && line[i + 1] === "/") break;
      if (c === "/" && line[i + 1] === "*") {
        block = true;
        i++;
      } else if (c === '"' || c === "'") quote = c;
      else if (c === "`") stack.push({ kind: "template" });
      else if (top?.kind === "code") {
        if (c === "{") top.braces++;
        else if (c === "}") {
          if (top.braces === 0 && stack.length > 1) stack.pop();
          else top.braces = Math.max(0, top.braces - 1);
        }
      }
    }
    if (!continued) quote = null;
  }
  return inside;
}

/** A script or style body moved to `depth`, keeping its lines' indentation relative to each other. */
function shiftBlock(lines: readonly string[], depth: number, written: number, openEnd = false): string[] {
  const keep = linesInsideTemplates(lines);
  const measured = lines.filter((l, i) => i >= written && !keep[i] && !blank(l)).map(leading);
  const min = measured.length > 0 ? Math.min(...measured) : 0;
  const pad = UNIT.repeat(depth);
  return lines.slice(written).map((l, j) => {
    const i = j + written;
    if (keep[i]) return l;
    if (blank(l)) return "";
    // A line whose end is inside a template literal keeps its trailing spaces: they are the string's.
    return pad + (keep[i + 1] || (openEnd && i === lines.length - 1) ? l.slice(min) : trimEnd(l.slice(min)));
  });
}

/** Re-indents `source`. Formatting formatted text changes nothing. */
export function formatHtml(source: string): string {
  const eol = source.includes("\r\n") ? "\r\n" : "\n";
  const out: string[] = [];
  let depth = 0;
  // Typed as a whole: the helpers below change them, which narrowing cannot see.
  let mode = { kind: "html" } as Mode;
  let openTag = null as OpenTag | null;

  for (const raw of source.split(/\r?\n/)) {
    if (mode.kind === "comment") {
      out.push(raw);
      const end = raw.indexOf("-->");
      if (end >= 0) {
        mode = { kind: "html" };
        after(raw.slice(end + 3));
      }
      continue;
    }
    if (mode.kind === "verbatim") {
      out.push(raw);
      const close = closeAt(raw, mode.name);
      if (close < 0) continue;
      // The closing tag ends the kept text; the rest of its line is HTML again.
      mode = { kind: "html" };
      depth = Math.max(0, depth - 1);
      after(raw.slice(close).replace(/^<\/[a-z]+\s*>/i, ""));
      continue;
    }
    if (mode.kind === "raw") {
      const close = closeAt(raw, mode.name);
      if (close < 0) {
        mode.lines.push(raw);
        continue;
      }
      const before = raw.slice(0, close);
      const rest = trimEnd(raw.slice(close));
      // Unless the space before the closing tag is inside a template literal left open.
      if (blank(before) && !linesInsideTemplates([...mode.lines, before]).at(-1)) {
        out.push(...shiftBlock(mode.lines, mode.depth + 1, mode.written), UNIT.repeat(mode.depth) + rest);
      } else {
        // Code before the closing tag keeps it on its line, and whatever space is between them:
        // a line break put there would be the text of a comment or string left open.
        const shifted = shiftBlock([...mode.lines, before], mode.depth + 1, mode.written, true);
        shifted[shifted.length - 1] += rest;
        out.push(...shifted);
      }
      depth = mode.depth;
      mode = { kind: "html" };
      after(rest.replace(/^<\/[a-z]+\s*>/i, ""));
      continue;
    }

    if (openTag !== null) {
      // Attributes of a tag opened on an earlier line sit one level in; a quoted value that goes
      // on over lines is the attribute's text, and stays as written.
      const text = openTag.quote === null ? trimmed(raw) : raw;
      out.push(openTag.quote !== null || text === "" ? text : UNIT.repeat(depth + 1) + text);
      const end = tagEnd(text, openTag);
      if (end < 0) continue;
      const name = openTag.name;
      openTag = null;
      if (text[end - 1] !== "/" && !VOID.has(name)) {
        if (RAW.has(name) || VERBATIM.has(name)) {
          depth = enter(name, depth, text.slice(end + 1));
          continue;
        }
        depth++;
      }
      after(text.slice(end + 1));
      continue;
    }

    const line = trimmed(raw);
    if (line === "") {
      out.push("");
      continue;
    }
    const s = scan(line);
    out.push(UNIT.repeat(Math.max(0, depth - s.leadingClosers)) + line);
    depth = Math.max(0, depth + s.change);
    follow(s);
  }
  // A block never closed goes out as it came: there is no telling where it was meant to end.
  if (mode.kind === "raw") out.push(...mode.lines.slice(mode.written));
  return out.join(eol);

  /** The rest of a line after a block or comment closed on it. */
  function after(rest: string): void {
    const s = scan(rest);
    depth = Math.max(0, depth + s.change);
    follow(s);
  }

  /** What a line leaves open for the next ones. */
  function follow(s: LineScan): void {
    if (s.opened) depth = enter(s.opened.name, depth, s.opened.rest);
    else if (s.pendingTag) openTag = s.pendingTag;
    else if (s.commentOpen) mode = { kind: "comment" };
  }

  /** After `<name>` opened a script, style, pre or textarea block at `at`: the mode and depth to go on with. */
  function enter(name: string, at: number, rest: string): number {
    if (RAW.has(name)) {
      const written = blank(rest) ? 0 : 1;
      mode = { kind: "raw", name, lines: written ? [rest] : [], written, depth: at };
      return at;
    }
    mode = { kind: "verbatim", name };
    return at + 1;
  }
}

/** Where a start tag's `>` is in `text`, reading on from `state` (which it updates); -1 if not there. */
function tagEnd(text: string, state: OpenTag): number {
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? "";
    if (state.quote !== null) {
      if (c === state.quote) state.quote = null;
      continue;
    }
    if ((c === '"' || c === "'") && state.afterEquals) state.quote = c;
    else if (c === ">") return i;
    if (c === "=") state.afterEquals = true;
    else if (!/[\t\f\r ]/.test(c)) state.afterEquals = false;
  }
  return -1;
}

interface LineScan {
  /** Net change of nesting on the line, before a block the line opens. */
  change: number;
  /** Closing tags before the line's first opening tag: the line itself sits that much further out. */
  leadingClosers: number;
  /** A script, style, pre or textarea opened and not closed on the line, and the text after it. */
  opened: { name: string; rest: string } | null;
  /** A tag whose `>` is on a later line. */
  pendingTag: OpenTag | null;
  /** A comment that does not end on the line. */
  commentOpen: boolean;
}

function scan(line: string): LineScan {
  const result: LineScan = { change: 0, leadingClosers: 0, opened: null, pendingTag: null, commentOpen: false };
  let seenOpen = false;
  let last = 0;
  TAG.lastIndex = 0;
  for (let m = TAG.exec(line); m; m = TAG.exec(line)) {
    last = TAG.lastIndex;
    if (m[0] === "<!--") {
      const end = line.indexOf("-->", m.index + 4);
      if (end < 0) {
        result.commentOpen = true;
        return result;
      }
      TAG.lastIndex = end + 3;
      last = TAG.lastIndex;
      continue;
    }
    const name = (m[1] ?? "").toLowerCase();
    if (m[0].startsWith("</")) {
      result.change--;
      if (!seenOpen) result.leadingClosers++;
      continue;
    }
    seenOpen = true;
    if (m[3] === "/" || VOID.has(name)) continue;
    if (RAW.has(name) || VERBATIM.has(name)) {
      const rest = line.slice(TAG.lastIndex);
      const closeAtRest = closeAt(rest, name);
      if (closeAtRest < 0) {
        result.opened = { name, rest };
        return result;
      }
      const closeEnd = rest.indexOf(">", closeAtRest);
      TAG.lastIndex += closeEnd < 0 ? rest.length : closeEnd + 1;
      last = TAG.lastIndex;
      continue;
    }
    result.change++;
  }
  // `<div` with its attributes going on to the next line (perhaps inside a quoted value).
  const tail = /<([a-zA-Z][\w-]*)/.exec(line.slice(last));
  if (tail) {
    const state: OpenTag = { name: (tail[1] ?? "").toLowerCase(), quote: null, afterEquals: false };
    if (tagEnd(line.slice(last + tail.index + tail[0].length), state) < 0) result.pendingTag = state;
  }
  return result;
}
