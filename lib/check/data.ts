// Embedded data: `const DATA = {…JSON…};` is how most large dashboards carry their snapshot, and
// such a literal can be most of a document's script. A JSON scanner is several times faster
// than a JavaScript parser on it and yields what the rules read from a data literal (its
// strings, keys and arrays of records) with the same source offsets, so the check takes this
// path when a script opens with such a declaration and the literal is valid JSON.

export interface DataEvents {
  /** String values (not keys): the text and the offset of the opening quote. */
  strings: { value: string; start: number }[];
  keys: Set<string>;
  /** Offsets of arrays holding at least five objects, in the order they close. */
  recordArrays: number[];
  /** Objects with a `method`, `type` or `basis` key: every key, in order, with its value when a string. */
  objects: { pairs: Pair[]; start: number }[];
}

interface Pair {
  key: string;
  keyStart: number;
  value: string | null;
}

interface Frame {
  array: boolean;
  start: number;
  objects: number;
  state: number;
  pairs: Pair[];
  watched: boolean;
}

// Where a frame (an array or object being read) is: at its start, after a comma, after a key,
// after a colon, after a value.
const FRESH = 0;
const NEXT = 1;
const COLON = 2;
const VALUE = 3;
const AFTER = 4;

const WATCHED_KEYS = new Set(["method", "type", "basis"]);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const CONTROL = /[\u0000-\u001f]/;

const isWs = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;
const valueAllowed = (f: Frame) => (f.array ? f.state === FRESH || f.state === NEXT : f.state === VALUE);

/**
 * Reads the JSON array or object that opens at `start`, validating it as JSON.parse would.
 * Answers the offset after it and what it holds, or null when it is not JSON (the caller then
 * parses JavaScript).
 */
export function scanJsonValue(code: string, start: number): { end: number; events: DataEvents } | null {
  const events: DataEvents = { strings: [], keys: new Set(), recordArrays: [], objects: [] };
  const stack: Frame[] = [];
  let i = start;
  const n = code.length;
  while (i < n) {
    const c = code.charCodeAt(i);
    if (isWs(c)) {
      i++;
      continue;
    }
    const top = stack[stack.length - 1];
    if (!top && c !== 123 && c !== 91) return null;
    if (c === 123 /* { */ || c === 91 /* [ */) {
      if (top) {
        if (!valueAllowed(top)) return null;
        if (top.array && c === 123) top.objects++;
      }
      stack.push({ array: c === 91, start: i, objects: 0, state: FRESH, pairs: [], watched: false });
      i++;
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      if (!top || top.array !== (c === 93) || (top.state !== FRESH && top.state !== AFTER)) return null;
      stack.pop();
      if (top.array) {
        if (top.objects >= 5) events.recordArrays.push(top.start);
      } else if (top.watched) {
        events.objects.push({ pairs: top.pairs, start: top.start });
      }
      i++;
      const parent = stack[stack.length - 1];
      if (!parent) return { end: i, events };
      parent.state = AFTER;
    } else if (c === 34 /* " */ && top) {
      let j = i + 1;
      for (;;) {
        const q = code.indexOf('"', j);
        if (q === -1) return null;
        // Count the backslashes before the quote: an odd number escapes it.
        let b = q - 1;
        while (code.charCodeAt(b) === 92) b--;
        j = q;
        if ((q - 1 - b) % 2 === 0) break;
        j = q + 1;
      }
      const raw = code.slice(i + 1, j);
      let value = raw;
      if (raw.includes("\\")) {
        try {
          const parsed: unknown = JSON.parse(code.slice(i, j + 1));
          if (typeof parsed !== "string") return null;
          value = parsed;
        } catch {
          return null;
        }
      } else if (CONTROL.test(raw)) return null;
      if (!top.array && (top.state === FRESH || top.state === NEXT)) {
        top.pairs.push({ key: value, keyStart: i, value: null });
        if (WATCHED_KEYS.has(value)) top.watched = true;
        events.keys.add(value);
        top.state = COLON;
      } else {
        if (!valueAllowed(top)) return null;
        events.strings.push({ value, start: i });
        const pair = top.array ? undefined : top.pairs[top.pairs.length - 1];
        if (pair) pair.value = value;
        top.state = AFTER;
      }
      i = j + 1;
    } else if (c === 58 /* : */ && top) {
      if (top.array || top.state !== COLON) return null;
      top.state = VALUE;
      i++;
    } else if (c === 44 /* , */ && top) {
      if (top.state !== AFTER) return null;
      top.state = NEXT;
      i++;
    } else if (top) {
      if (!valueAllowed(top)) return null;
      let len = 0;
      if (code.startsWith("true", i) || code.startsWith("null", i)) len = 4;
      else if (code.startsWith("false", i)) len = 5;
      else {
        NUMBER.lastIndex = i;
        if (NUMBER.test(code)) len = NUMBER.lastIndex - i;
      }
      if (len === 0) return null;
      top.state = AFTER;
      i += len;
    }
  }
  return null;
}

const DECLARATION = /^(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?=[[{])/;

/** Skips whitespace and comments from `i`. */
function skipTrivia(code: string, from: number): number {
  let i = from;
  for (;;) {
    while (i < code.length && /\s/.test(code[i] ?? "")) i++;
    if (code.startsWith("//", i)) {
      const nl = code.indexOf("\n", i);
      i = nl === -1 ? code.length : nl + 1;
    } else if (code.startsWith("/*", i)) {
      const end = code.indexOf("*/", i + 2);
      if (end === -1) return i;
      i = end + 2;
    } else return i;
  }
}

export interface DataDeclaration {
  name: string;
  /** Offset of the declaration keyword. */
  start: number;
  events: DataEvents;
  /** Offset where the code after the declaration (and its semicolon) begins. */
  rest: number;
}

/**
 * `const NAME = <JSON>;` at the start of a script (after comments), with the JSON valid. Only a
 * literal that a semicolon or the end of the script closes counts: anything else (`, B = …`,
 * `.map(…)`) continues the expression, and then the script is parsed as JavaScript.
 */
export function leadingDataDeclaration(code: string, from = 0): DataDeclaration | null {
  const start = skipTrivia(code, from);
  const head = DECLARATION.exec(code.slice(start, start + 200));
  if (!head) return null;
  const name = head[1] ?? "";
  const valueStart = start + head[0].length;
  const scanned = scanJsonValue(code, valueStart);
  if (!scanned) return null;
  let rest = skipTrivia(code, scanned.end);
  if (code[rest] === ";") rest++;
  else if (rest < code.length) return null;
  return { name, start, events: scanned.events, rest };
}
