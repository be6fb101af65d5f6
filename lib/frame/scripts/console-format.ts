// How console arguments become one line of text, as a browser's console prints them: strings as
// they are at the top and quoted inside objects, objects and arrays to two levels (twenty entries
// each), elements as <tag#id.class>, cycles as [Circular], printf-style %s %d %i %f %o %O %c, and
// console.table as a text table. A dashboard that patches the built-ins used here spoils only its
// own console lines; everything reaches the page as text.

const FMT_ITEMS = 20;
const FMT_DEPTH = 2;
const TABLE_ROWS = 50;
const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function fmtKey(k: string): string {
  return IDENT.test(k) ? k : JSON.stringify(k);
}

function fmtElement(v: object): string | null {
  try {
    if (typeof Element !== "function" || !(v instanceof Element)) return null;
    let out = "<" + String(v.localName);
    if (v.id) out += "#" + String(v.id);
    const cls = typeof v.getAttribute === "function" ? v.getAttribute("class") : null;
    if (cls) out += "." + String(cls).trim().split(/\s+/).join(".");
    return out + ">";
  } catch {
    return "<element>";
  }
}

function fmtValue(v: unknown, depth: number, seen: unknown[], top: boolean): string {
  if (typeof v === "string") return top ? v : JSON.stringify(v);
  if (typeof v === "number") return v === 0 && 1 / v < 0 ? "-0" : String(v);
  if (typeof v === "bigint") return String(v) + "n";
  if (typeof v === "symbol") return v.toString();
  if (typeof v === "function") return "\u0192 " + ((v as { name?: string }).name || "anonymous") + "()";
  if (v === null || typeof v !== "object") return String(v);
  if (seen.indexOf(v) !== -1) return "[Circular]";
  if (v instanceof Error) return String(v);
  if (v instanceof Date) return isFinite(v.getTime()) ? v.toISOString() : "Invalid Date";
  if (v instanceof RegExp) return String(v);
  const el = fmtElement(v);
  if (el !== null) return el;
  const isArray = Array.isArray(v);
  if (depth >= FMT_DEPTH) return isArray ? "Array(" + v.length + ")" : v instanceof Map ? "Map(" + v.size + ")" : v instanceof Set ? "Set(" + v.size + ")" : "{\u2026}";
  seen.push(v);
  try {
    const parts: string[] = [];
    let n = 0;
    let more = 0;
    if (isArray) {
      for (let i = 0; i < v.length; i++) {
        if (n >= FMT_ITEMS) {
          more = v.length - i;
          break;
        }
        parts.push(i in v ? fmtValue(v[i], depth + 1, seen, false) : "empty");
        n++;
      }
    } else if (v instanceof Map || v instanceof Set) {
      const isMap = v instanceof Map;
      (v as Map<unknown, unknown>).forEach(function (value, key) {
        if (n >= FMT_ITEMS) {
          more++;
          return;
        }
        parts.push(isMap ? fmtValue(key, depth + 1, seen, false) + " => " + fmtValue(value, depth + 1, seen, false) : fmtValue(value, depth + 1, seen, false));
        n++;
      });
      if (more) parts.push("\u2026 " + more + " more");
      return (isMap ? "Map(" : "Set(") + v.size + ") {" + parts.join(", ") + "}";
    } else {
      const keys = Object.keys(v);
      for (let j = 0; j < keys.length; j++) {
        if (n >= FMT_ITEMS) {
          more = keys.length - j;
          break;
        }
        const key = keys[j] as string;
        let shown;
        try {
          shown = fmtValue((v as Record<string, unknown>)[key], depth + 1, seen, false);
        } catch {
          shown = "[threw]";
        }
        parts.push(fmtKey(key) + ": " + shown);
        n++;
      }
    }
    if (more) parts.push("\u2026 " + more + " more");
    if (isArray) return "[" + parts.join(", ") + "]";
    const proto = Object.getPrototypeOf(v);
    const ctorName = proto && proto.constructor && typeof proto.constructor.name === "string" ? proto.constructor.name : "";
    const name = ctorName && ctorName !== "Object" ? ctorName + " " : "";
    return name + "{" + parts.join(", ") + "}";
  } finally {
    seen.pop();
  }
}

function fmtSafe(v: unknown, top: boolean): string {
  try {
    return fmtValue(v, 0, [], top);
  } catch {
    return "(" + typeof v + ")";
  }
}

/** One console call's arguments as a line. A first string argument may hold printf-style directives, as in the browser's console. */
export function fmtArgs(args: ArrayLike<unknown>): string {
  const out: string[] = [];
  let i = 0;
  if (typeof args[0] === "string" && args[0].indexOf("%") !== -1) {
    i = 1;
    out.push(
      (args[0] as string).replace(/%([sdifoOc%])/g, function (m, d) {
        if (d === "%") return "%";
        if (i >= args.length) return m;
        const a = args[i++];
        if (d === "c") return "";
        if (d === "s") return typeof a === "string" ? a : fmtSafe(a, true);
        if (d === "d" || d === "i") return typeof a === "symbol" ? "NaN" : String(parseInt(a as string, 10));
        if (d === "f") return typeof a === "symbol" ? "NaN" : String(parseFloat(a as string));
        return fmtSafe(a, false);
      }),
    );
  }
  for (; i < args.length; i++) out.push(fmtSafe(args[i], true));
  return out.join(" ");
}

/** console.table's arguments as text rows, bounded in rows and columns. */
export function fmtTable(data: unknown, columns?: unknown): string {
  if (data === null || typeof data !== "object") return fmtArgs([data]);
  try {
    const table = data as Record<string, unknown>;
    const rows = Object.keys(table).slice(0, TABLE_ROWS);
    let cols: string[] = [];
    let hasValue = false;
    if (Array.isArray(columns)) cols = columns.map(String);
    else
      rows.forEach(function (r) {
        const row = table[r];
        if (row !== null && typeof row === "object")
          Object.keys(row).forEach(function (k) {
            if (cols.indexOf(k) === -1 && cols.length < FMT_ITEMS) cols.push(k);
          });
        else hasValue = true;
      });
    const head = ["(index)"].concat(cols, hasValue ? ["Value"] : []);
    const lines = [head.join(" | ")];
    rows.forEach(function (r) {
      const row = table[r];
      const cells = [r];
      cols.forEach(function (c) {
        cells.push(row !== null && typeof row === "object" && c in row ? fmtSafe((row as Record<string, unknown>)[c], false) : "");
      });
      if (hasValue) cells.push(row !== null && typeof row === "object" ? "" : fmtSafe(row, false));
      lines.push(cells.join(" | "));
    });
    const total = Object.keys(table).length;
    if (total > rows.length) lines.push("\u2026 " + (total - rows.length) + " more rows");
    return lines.join("\n");
  } catch {
    return fmtArgs([data]);
  }
}
