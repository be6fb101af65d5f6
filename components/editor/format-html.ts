// Re-indents a dashboard's HTML by its element nesting, two spaces a level. Only leading
// whitespace changes: script and style bodies move as a block (their own relative indentation is
// the author's), and text whose whitespace can matter (pre, textarea, comments, lines inside a
// multi-line JavaScript template literal) is left exactly as written. The formatter is small and
// line-based on purpose: a full HTML and JavaScript pretty-printer would cost the editor page more
// script than the whole editor, and rewriting an author's code beyond its indentation surprises.

const UNIT = "  ";

const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);
/** Elements whose content is kept as written. */
const VERBATIM = new Set(["pre", "textarea"]);
/** Elements whose content is code, moved as a block. */
const RAW = new Set(["script", "style"]);

const TAG = /<!--|<\/?([a-zA-Z][\w-]*)\b((?:[^>"']|"[^"]*"|'[^']*')*?)(\/?)>/g;

type Mode = { kind: "html" } | { kind: "comment" } | { kind: "raw"; name: string; lines: string[]; depth: number } | { kind: "verbatim"; name: string };

const leading = (line: string) => line.length - line.trimStart().length;

/** For each line of a script, whether it starts inside a template literal (so its whitespace is the string's). */
export function linesInsideTemplates(lines: readonly string[]): boolean[] {
  const inside: boolean[] = [];
  // A stack of contexts: template literals, and the code inside their `${}`, with brace depth.
  const stack: ({ kind: "template" } | { kind: "code"; braces: number })[] = [{ kind: "code", braces: 0 }];
  let block = false;
  for (const line of lines) {
    inside.push(stack[stack.length - 1]?.kind === "template");
    let quote: string | null = null;
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
        if (c === "\\") i++;
        else if (c === quote) quote = null;
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
  }
  return inside;
}

/** A script or style body moved to `depth`, keeping its lines' indentation relative to each other. */
function shiftBlock(lines: readonly string[], depth: number): string[] {
  const keep = linesInsideTemplates(lines);
  const measured = lines.filter((l, i) => !keep[i] && l.trim() !== "").map(leading);
  const min = measured.length > 0 ? Math.min(...measured) : 0;
  const pad = UNIT.repeat(depth);
  return lines.map((l, i) => (keep[i] ? l : l.trim() === "" ? "" : pad + l.slice(min).trimEnd()));
}

/** Re-indents `source`. Formatting formatted text changes nothing. */
export function formatHtml(source: string): string {
  const eol = source.includes("\r\n") ? "\r\n" : "\n";
  const out: string[] = [];
  let depth = 0;
  // Typed as a whole: the helper below changes it, which narrowing cannot see.
  let mode = { kind: "html" } as Mode;
  // A tag whose attributes continue on the next lines: its name, until its `>` arrives.
  let openTag: string | null = null;

  for (const raw of source.split(/\r?\n/)) {
    if (mode.kind === "comment") {
      out.push(raw);
      if (raw.includes("-->")) mode = { kind: "html" };
      continue;
    }
    if (mode.kind === "verbatim") {
      const close = raw.toLowerCase().indexOf(`</${mode.name}`);
      if (close < 0) {
        out.push(raw);
        continue;
      }
      // The closing tag ends the kept text; the rest of its line is HTML again.
      out.push(raw);
      const after = raw.slice(close);
      mode = { kind: "html" };
      depth = Math.max(0, depth - 1);
      depth += scan(after.replace(/^<\/[a-z]+\s*>/i, "")).change;
      continue;
    }
    if (mode.kind === "raw") {
      const close = raw.toLowerCase().indexOf(`</${mode.name}`);
      if (close < 0) {
        mode.lines.push(raw);
        continue;
      }
      const before = raw.slice(0, close);
      if (before.trim() !== "") mode.lines.push(before);
      out.push(...shiftBlock(mode.lines, mode.depth + 1));
      const rest = raw.slice(close).trim();
      out.push(UNIT.repeat(mode.depth) + rest);
      depth = mode.depth;
      mode = { kind: "html" };
      depth += scan(rest.replace(/^<\/[a-z]+\s*>/i, "")).change;
      continue;
    }

    const line = raw.trim();
    if (line === "") {
      out.push("");
      continue;
    }
    if (openTag !== null) {
      // Attributes of a tag opened on an earlier line sit one level in.
      out.push(UNIT.repeat(depth + 1) + line);
      const end = line.indexOf(">");
      if (end < 0) continue;
      const selfClosing = line[end - 1] === "/";
      const name = openTag;
      openTag = null;
      if (!selfClosing && !VOID.has(name)) {
        if (RAW.has(name) || VERBATIM.has(name)) {
          depth = enter(name, depth, line.slice(end + 1));
          continue;
        }
        depth++;
      }
      depth += scan(line.slice(end + 1)).change;
      continue;
    }

    const s = scan(line);
    out.push(UNIT.repeat(Math.max(0, depth - s.leadingClosers)) + line);
    depth = Math.max(0, depth + s.change);
    if (s.opened) {
      depth = enter(s.opened.name, depth, s.opened.rest);
    } else if (s.pendingTag) openTag = s.pendingTag;
    else if (s.commentOpen) mode = { kind: "comment" };
  }
  return out.join(eol);

  /** After `<name>` opened a script, style, pre or textarea block at `at`: the mode and depth to go on with. */
  function enter(name: string, at: number, rest: string): number {
    if (RAW.has(name)) {
      mode = { kind: "raw", name, lines: rest.trim() === "" ? [] : [rest], depth: at };
      return at;
    }
    mode = { kind: "verbatim", name };
    return at + 1;
  }
}

interface LineScan {
  /** Net change of nesting on the line, before a block the line opens. */
  change: number;
  /** Closing tags before the line's first opening tag: the line itself sits that much further out. */
  leadingClosers: number;
  /** A script, style, pre or textarea opened and not closed on the line, and the text after it. */
  opened: { name: string; rest: string } | null;
  /** A tag whose `>` is on a later line. */
  pendingTag: string | null;
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
      const closeAt = rest.toLowerCase().indexOf(`</${name}`);
      if (closeAt < 0) {
        result.opened = { name, rest };
        return result;
      }
      const closeEnd = rest.indexOf(">", closeAt);
      TAG.lastIndex += closeEnd < 0 ? rest.length : closeEnd + 1;
      last = TAG.lastIndex;
      continue;
    }
    result.change++;
  }
  // `<div` with its attributes going on to the next line.
  const tail = /<([a-zA-Z][\w-]*)\b[^>]*$/.exec(line.slice(last));
  if (tail) result.pendingTag = (tail[1] ?? "").toLowerCase();
  return result;
}
