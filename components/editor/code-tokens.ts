// How Format's check reads text, script and style to compare a document with its formatted copy:
// each as a list of tokens where whitespace is kept only as far as its language gives it meaning.
// This reading shares nothing with the formatter (./format-html.ts), so a mistake in one is not
// repeated by the other. Where a reading could go either way (a `/` that starts a regular
// expression or divides) it leans to keeping more text exact: a wrong guess refuses to format,
// it never lets a change through.

export interface Token {
  text: string;
  /** Where the token starts in the text it was read from. */
  at: number;
}

// HTML's whitespace is ASCII's: a no-break space is text.
const HTML_SPACE = /[\t\n\f\r ]+/g;
const JS_SPACE = /[\t\v\f \u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\ufeff\n\r\u2028\u2029]/;
const JS_LINE_END = /[\n\r\u2028\u2029]/;

/**
 * Text of an HTML element that wraps lines: words exact, each run of whitespace kept as the line
 * breaks it holds (none: one space), since a run's width is not drawn but a line break can be
 * (`white-space: pre-line`).
 */
export function textTokens(text: string): Token[] {
  const tokens: Token[] = [];
  let last = 0;
  for (const m of text.matchAll(HTML_SPACE)) {
    if (m.index > last) tokens.push({ text: text.slice(last, m.index), at: last });
    const breaks = m[0].replace(/\r\n?/g, "\n").replace(/[^\n\f]/g, "");
    tokens.push({ text: breaks === "" ? " " : breaks, at: m.index });
    last = m.index + m[0].length;
  }
  if (last < text.length) tokens.push({ text: text.slice(last), at: last });
  return tokens;
}

/** Text kept exactly as written (pre, textarea, a script that is not code): one token a line. */
export function exactTokens(text: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  for (const line of text.split(/(?<=\n)/)) {
    tokens.push({ text: line, at });
    at += line.length;
  }
  return tokens;
}

// After these words a `/` starts a regular expression; after any other word or a value it divides.
const BEFORE_REGEX = new Set(["return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case", "do", "else", "yield", "await"]);
const WORD = /[\p{L}\p{N}_$\u200c\u200d\\]/u;

/**
 * JavaScript (or JSON) as tokens: strings, template text and regular expressions exact; comments
 * with their whitespace runs reduced; between tokens, whitespace is one token saying only whether
 * it breaks the line (which automatic semicolons and `-->` comments read). Whitespace at the very
 * start and end of the body is left out.
 */
export function scriptTokens(src: string): Token[] {
  return codeTokens(src, true);
}

/** CSS as tokens: strings and `url(…)` exact, comments reduced, whitespace between tokens as in scripts. */
export function styleTokens(src: string): Token[] {
  return codeTokens(src, false);
}

/** Where a template literal's text from `from` ends: past its closing "`", or past the `${` that opens a substitution. */
function templateEnd(src: string, from: number): { at: number; substitution: boolean } {
  let j = from;
  while (j < src.length) {
    if (src[j] === "\\") j += 2;
    else if (src[j] === "`") return { at: j + 1, substitution: false };
    else if (src[j] === "$" && src[j + 1] === "{") return { at: j + 2, substitution: true };
    else j++;
  }
  return { at: src.length, substitution: false };
}

function codeTokens(src: string, js: boolean): Token[] {
  const tokens: Token[] = [];
  // What the last token that was not whitespace or a comment was, for the `/` question.
  let prev: { kind: "word" | "value" | "punct"; text: string } | null = null;
  // Template literals and the code inside their `${…}`: the brace depth of each substitution.
  const substitutions: number[] = [];
  let i = 0;
  const push = (text: string, at: number) => tokens.push({ text, at });

  /** Takes a template literal's text from `i` (just past "`" or "}") to its end or its next `${`. */
  const templateText = (start: number) => {
    const end = templateEnd(src, i);
    if (end.substitution) substitutions.push(0);
    i = end.at;
    push(src.slice(start, i), start);
    prev = { kind: "value", text: "`" };
  };

  while (i < src.length) {
    const c = src[i] ?? "";
    const start = i;
    if (js ? JS_SPACE.test(c) : /[\t\n\f\r ]/.test(c)) {
      let breaks = false;
      while (i < src.length && (js ? JS_SPACE.test(src[i] ?? "") : /[\t\n\f\r ]/.test(src[i] ?? ""))) {
        if (JS_LINE_END.test(src[i] ?? "") || src[i] === "\f") breaks = true;
        i++;
      }
      push(breaks ? "\n" : " ", start);
      continue;
    }
    if (c === "/" && src[i + 1] === "*") {
      const end = src.indexOf("*/", i + 2);
      i = end < 0 ? src.length : end + 2;
      // One never closed ends with the body, whose trailing whitespace is not the comment's.
      push(end < 0 ? reduced(src.slice(start, i)).trimEnd() : reduced(src.slice(start, i)), start);
      continue;
    }
    if (js && c === "/" && src[i + 1] === "/") {
      while (i < src.length && !JS_LINE_END.test(src[i] ?? "")) i++;
      push(reduced(src.slice(start, i).replace(/[\t\v\f \u00a0\ufeff]+$/, "")), start);
      continue;
    }
    if (c === '"' || c === "'") {
      i++;
      // A backslash keeps the next character, a line break included (a continued line).
      while (i < src.length && src[i] !== c && !JS_LINE_END.test(src[i] ?? "")) i += src[i] === "\\" ? (src.startsWith("\r\n", i + 1) ? 3 : 2) : 1;
      if (src[i] === c) i++;
      i = Math.min(i, src.length);
      push(src.slice(start, i), start);
      prev = { kind: "value", text: c };
      continue;
    }
    if (js && c === "`") {
      i++;
      templateText(start);
      continue;
    }
    if (js && c === "}" && substitutions.length > 0) {
      const depth = substitutions[substitutions.length - 1] ?? 0;
      if (depth === 0) {
        substitutions.pop();
        i++;
        templateText(start);
        continue;
      }
      substitutions[substitutions.length - 1] = depth - 1;
    }
    if (js && c === "{" && substitutions.length > 0) substitutions[substitutions.length - 1] = (substitutions[substitutions.length - 1] ?? 0) + 1;
    if (js && c === "/" && regexMayStart(prev)) {
      let inClass = false;
      i++;
      while (i < src.length && !JS_LINE_END.test(src[i] ?? "")) {
        const d = src[i];
        if (d === "\\") i++;
        else if (d === "[") inClass = true;
        else if (d === "]") inClass = false;
        else if (d === "/" && !inClass) {
          i++;
          break;
        }
        i++;
      }
      while (i < src.length && WORD.test(src[i] ?? "")) i++;
      i = Math.min(i, src.length);
      push(src.slice(start, i), start);
      prev = { kind: "value", text: "/" };
      continue;
    }
    if (!js && /^url\($/i.test(src.slice(Math.max(0, i - 3), i + 1)) && !/^\s*["']/.test(src.slice(i + 1))) {
      // An unquoted url(…) is one token up to its parenthesis, whitespace and all.
      const end = src.indexOf(")", i);
      i = end < 0 ? src.length : end + 1;
      push(src.slice(start, i), start);
      continue;
    }
    if (WORD.test(c) || c === "#" || (!js && c === "-")) {
      while (i < src.length && (WORD.test(src[i] ?? "") || (!js && src[i] === "-"))) i++;
      if (i === start) i++;
      const text = src.slice(start, i);
      push(text, start);
      prev = { kind: BEFORE_REGEX.has(text) ? "punct" : "word", text };
      continue;
    }
    i++;
    push(c, start);
    prev = { kind: ")]".includes(c) ? "value" : "punct", text: c };
  }
  while (tokens[0]?.text === " " || tokens[0]?.text === "\n") tokens.shift();
  while (tokens.at(-1)?.text === " " || tokens.at(-1)?.text === "\n") tokens.pop();
  return tokens;
}

function regexMayStart(prev: { kind: string } | null): boolean {
  return prev === null || prev.kind === "punct";
}

/** A comment's words, with each whitespace run reduced to whether it breaks the line. */
function reduced(comment: string): string {
  return comment.replace(/\s+/g, (run) => (/[\n\r\u2028\u2029]/.test(run) ? "\n" : " "));
}
