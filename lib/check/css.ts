// A CSS scanner that finds what a stylesheet would load: `@import` rules and `url(…)` values.
// It follows the CSS tokenizer's rules for comments, strings and escapes, so a `url(` inside a
// comment or a `content: "…"` string is not mistaken for a load.

interface CssLoad {
  kind: "import" | "url";
  url: string;
  /** Offset of the `@import` or `url(` in the scanned text. */
  offset: number;
}

const isIdentChar = (c: number) =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 45 || c === 95 || c === 92 || c > 127;
const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 12 || c === 13;

/** Reads a quoted string starting at the quote; answers its value and the index after it. */
function readString(css: string, at: number): { value: string; end: number } {
  const quote = css.charCodeAt(at);
  let value = "";
  let i = at + 1;
  while (i < css.length) {
    const c = css.charCodeAt(i);
    if (c === quote) return { value, end: i + 1 };
    if (c === 10) return { value, end: i }; // an unterminated string ends at the line
    if (c === 92 && i + 1 < css.length) {
      value += css[i + 1];
      i += 2;
      continue;
    }
    value += css[i];
    i++;
  }
  return { value, end: i };
}

/** Reads the argument of `url(` starting right after the parenthesis. */
function readUrlArgument(css: string, at: number): { value: string; end: number } {
  let i = at;
  while (i < css.length && isSpace(css.charCodeAt(i))) i++;
  const c = css.charCodeAt(i);
  if (c === 34 || c === 39) {
    const s = readString(css, i);
    const close = css.indexOf(")", s.end);
    return { value: s.value, end: close === -1 ? css.length : close + 1 };
  }
  const close = css.indexOf(")", i);
  const end = close === -1 ? css.length : close;
  return { value: css.slice(i, end).trim(), end: end + 1 };
}

export function scanCss(css: string): CssLoad[] {
  const loads: CssLoad[] = [];
  // Most style text loads nothing; skip the scan when no token could start a load.
  if (!/url\(|@import/i.test(css)) return loads;
  let i = 0;
  while (i < css.length) {
    const c = css.charCodeAt(i);
    if (c === 47 && css.charCodeAt(i + 1) === 42) {
      const end = css.indexOf("*/", i + 2);
      i = end === -1 ? css.length : end + 2;
    } else if (c === 34 || c === 39) {
      i = readString(css, i).end;
    } else if (c === 92) {
      i += 2;
    } else if (c === 64 && css.slice(i + 1, i + 7).toLowerCase() === "import" && !isIdentChar(css.charCodeAt(i + 7))) {
      let j = i + 7;
      while (j < css.length && isSpace(css.charCodeAt(j))) j++;
      const q = css.charCodeAt(j);
      if (q === 34 || q === 39) {
        const s = readString(css, j);
        loads.push({ kind: "import", url: s.value, offset: i });
        i = s.end;
      } else if (css.slice(j, j + 4).toLowerCase() === "url(") {
        const u = readUrlArgument(css, j + 4);
        loads.push({ kind: "import", url: u.value, offset: i });
        i = u.end;
      } else {
        i = j;
      }
    } else if (
      (c === 117 || c === 85) &&
      css.slice(i, i + 4).toLowerCase() === "url(" &&
      (i === 0 || !isIdentChar(css.charCodeAt(i - 1)))
    ) {
      const u = readUrlArgument(css, i + 4);
      loads.push({ kind: "url", url: u.value, offset: i });
      i = u.end;
    } else {
      i++;
    }
  }
  return loads;
}
