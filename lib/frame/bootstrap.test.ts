import { createHash, randomBytes } from "node:crypto";
import vm from "node:vm";
import { afterEach, describe, expect, it } from "vitest";
import { CONSOLE_FORMAT, CONSOLE_LINES_MAX, RENDER_HELPERS, RENDER_NOTICES_MAX, bootstrapHtml } from "./bootstrap";
import { FRAME_HEIGHT_MAX, isSnapshotTime, parseFrameMessage, SNAPSHOT_PANEL_MAX, SNAPSHOT_PANEL_SENT_MAX } from "./protocol";

// The bootstrap script runs in a small stand-in of the frame's window: enough of the DOM for it
// to take the init message, write the dashboard and give it window.dashboardSnapshot().

const script = /<script>([\s\S]*)<\/script>/.exec(bootstrapHtml())?.[1] ?? "";

interface Element {
  textContent: string;
  getAttribute: (name: string) => string | null;
}

const channels: MessageChannel[] = [];
afterEach(() => {
  for (const c of channels.splice(0)) {
    c.port1.close();
    c.port2.close();
  }
});

/** What a test adds to the frame's realm (`globals`) and to its document (`document`). */
interface FrameEnv {
  globals?: Record<string, unknown>;
  document?: Record<string, unknown>;
  /** Fields of the host's init message beyond the HTML and the API base. */
  init?: Record<string, unknown>;
}

function frame(elements: Record<string, Element | undefined>, extra: Record<string, unknown> = {}, env: FrameEnv = {}) {
  const listeners = new Map<string, (event: unknown) => void>();
  class FakeEventTarget {
    addEventListener(type: string, fn: (event: unknown) => void) {
      listeners.set(type, fn);
    }
    removeEventListener() {}
  }
  const parent = {};
  const written: string[] = [];
  const win: Record<string, unknown> = { parent, scrollY: 0, scrollTo: () => {}, ...extra };
  const document = {
    open: () => {},
    write: (html: string) => written.push(html),
    close: () => {},
    getElementById: (id: string) => elements[id] ?? null,
    ...env.document,
  };
  const context = vm.createContext({
    window: win,
    document,
    location: { origin: "null" },
    EventTarget: FakeEventTarget,
    Response,
    Headers,
    DOMException,
    setTimeout,
    clearTimeout,
    ...env.globals,
  });
  vm.runInContext(script, context);
  const channel = new MessageChannel();
  channels.push(channel);
  const received: unknown[] = [];
  channel.port2.onmessage = (e: MessageEvent) => received.push(e.data);
  listeners.get("message")?.({ source: parent, data: { type: "init", html: "<h1>dash</h1>", apiBase: "/api", ...env.init }, ports: [channel.port1] });
  return {
    win,
    written,
    received,
    context,
    host: channel.port2,
    helper: win.dashboardSnapshot as ((panel?: unknown) => { data: unknown; takenAt: string | null } | null) | undefined,
  };
}

const snapshotElement = (json: string, takenAt: string | null): Element => ({
  textContent: json,
  getAttribute: (name) => (name === "data-taken-at" ? takenAt : null),
});

const settle = () => new Promise((r) => setTimeout(r, 20));

describe("the frame bootstrap's snapshot helper", () => {
  it("writes the dashboard and sets the API base", () => {
    const f = frame({});
    expect(f.written).toEqual(["<h1>dash</h1>"]);
    expect(f.win.DASHBOARD_API_BASE).toBe("/api");
    // The API base of the viewer's own data: the frame says it is live.
    expect(f.win.DASHBOARD_DATA_MODE).toBe("live");
    expect(typeof f.helper).toBe("function");
  });

  it("answers the embedded data and its time, and tells the host", async () => {
    const f = frame({ "dashboard-snapshot": snapshotElement('{"rows":[1,2]}', "2026-11-20T06:00:00Z") });
    expect(f.helper?.()).toEqual({ data: { rows: [1, 2] }, takenAt: "2026-11-20T06:00:00Z" });
    await settle();
    expect(f.received).toEqual([{ type: "snapshot", takenAt: "2026-11-20T06:00:00Z" }]);
    expect(parseFrameMessage(f.received[0])).toEqual({ type: "snapshot", takenAt: "2026-11-20T06:00:00Z" });
  });

  it("leaves out a time the host would refuse, so the notice still appears", async () => {
    const times = ["2026-11-20T06:00:00", "2026-02-31", "yesterday", "", null];
    for (const t of times) {
      const f = frame({ "dashboard-snapshot": snapshotElement("[]", t) });
      expect(f.helper?.(), String(t)).toEqual({ data: [], takenAt: null });
      await settle();
      expect(f.received, String(t)).toEqual([{ type: "snapshot" }]);
      expect(parseFrameMessage(f.received[0])).toEqual({ type: "snapshot" });
      expect(isSnapshotTime(t)).toBe(false);
    }
  });

  it("names the panel falling back, as text the host cleans and clips", async () => {
    const long = "p".repeat(SNAPSHOT_PANEL_SENT_MAX + 50);
    const cases: [unknown, string | undefined][] = [
      ["Open tickets", "Open tickets"],
      ["  Open\n\ttickets \u202e", "Open tickets"],
      [42, undefined],
      [long, `${"p".repeat(SNAPSHOT_PANEL_MAX - 1)}\u2026`],
      ["\u0000\u200b", undefined],
      [Symbol("x"), undefined],
      [{ toString: () => { throw new Error("no"); } }, undefined],
      [null, undefined],
    ];
    for (const [panel, shown] of cases) {
      const f = frame({ "dashboard-snapshot": snapshotElement("[]", "2026-11-20") });
      expect(f.helper?.(panel), String(shown)).toEqual({ data: [], takenAt: "2026-11-20" });
      await settle();
      const sent = f.received[0] as { panel?: string };
      expect((sent.panel ?? "").length).toBeLessThanOrEqual(SNAPSHOT_PANEL_SENT_MAX);
      expect(parseFrameMessage(f.received[0]), String(shown)).toEqual(shown === undefined ? { type: "snapshot", takenAt: "2026-11-20" } : { type: "snapshot", takenAt: "2026-11-20", panel: shown });
    }
    // Sent by anything but the bootstrap: a name that is not text or is longer than it sends is refused.
    expect(parseFrameMessage({ type: "snapshot", panel: 7 })).toBeNull();
    expect(parseFrameMessage({ type: "snapshot", panel: long })).toBeNull();
  });

  it("answers null, and says nothing, without a snapshot or with one that is not JSON", async () => {
    for (const elements of [{}, { "dashboard-snapshot": snapshotElement("{not json", "2026-11-20") }]) {
      const f = frame(elements);
      expect(f.helper?.()).toBeNull();
      await settle();
      expect(f.received).toEqual([]);
    }
  });
});

describe("the frame bootstrap's render notices", () => {
  it("tells the host of a write the fetch shim refused, and still rejects it", async () => {
    const f = frame({});
    const fetchIn = f.win.fetch as (input: string, init?: { method?: string }) => Promise<unknown>;
    await expect(fetchIn("/api/me", { method: "post" })).rejects.toThrow("fetch with POST is not allowed");
    await expect(fetchIn("/api/me", { method: "PO ST" })).rejects.toThrow("not allowed");
    await settle();
    expect(f.received).toEqual([
      { type: "refusal", method: "POST", path: "/api/me", error: "method_not_allowed", reason: "Dashboards only read data: fetch with POST is not allowed." },
      { type: "refusal", method: "OTHER", path: "/api/me", error: "method_not_allowed", reason: "Dashboards only read data: fetch with PO ST is not allowed." },
    ]);
    for (const m of f.received) expect(parseFrameMessage(m)).toEqual(m);
  });

  it("passes every console level on to the console, and tells the host each line with its level, up to a bound", async () => {
    const printed: [string, unknown[]][] = [];
    const levels = ["log", "info", "warn", "error", "debug", "table"] as const;
    const consoleIn = Object.fromEntries(levels.map((l) => [l, (...args: unknown[]) => printed.push([l, args])]));
    const f = frame({}, { console: consoleIn });
    const c = f.win.console as Record<(typeof levels)[number], (...a: unknown[]) => void>;
    c.error("could not load", { rows: 3 }, 42);
    c.error(vm.runInContext("new TypeError('bad rows')", f.context));
    c.log("loaded %d rows from %s", 25, "/cx/districts");
    c.info("info");
    c.warn("careful");
    c.debug("details");
    c.table([{ a: 1, b: "x" }, { a: 2 }]);
    for (let i = 0; i < RENDER_NOTICES_MAX + 50; i++) c.error("again", i);
    for (let i = 0; i < CONSOLE_LINES_MAX + 50; i++) c.log("tick", i);
    await settle();
    expect(printed).toHaveLength(2 + 5 + RENDER_NOTICES_MAX + 50 + CONSOLE_LINES_MAX + 50);
    expect(printed[0]).toEqual(["error", ["could not load", { rows: 3 }, 42]]);
    const lines = f.received.filter((m) => (m as { type: string }).type === "console") as { level: string; message: string }[];
    expect(lines.slice(0, 7)).toEqual([
      { type: "console", level: "error", message: "could not load {rows: 3} 42" },
      { type: "console", level: "error", message: "TypeError: bad rows" },
      { type: "console", level: "log", message: "loaded 25 rows from /cx/districts" },
      { type: "console", level: "info", message: "info" },
      { type: "console", level: "warn", message: "careful" },
      { type: "console", level: "debug", message: "details" },
      { type: "console", level: "log", message: "(index) | a | b\n0 | 1 | \"x\"\n1 | 2 | " },
    ]);
    // console.error lines and the other levels have bounds of their own: a chatty log hides no error.
    expect(lines.filter((l) => l.level === "error")).toHaveLength(RENDER_NOTICES_MAX);
    expect(lines.filter((l) => l.level !== "error")).toHaveLength(CONSOLE_LINES_MAX);
    for (const l of lines) expect(parseFrameMessage(l)).toEqual(l);
  });

  it("answers the host's paint request", async () => {
    const f = frame({});
    f.host.postMessage({ type: "paint", id: 7 });
    await settle();
    expect(f.received).toContainEqual({ type: "painted", id: 7 });
  });
});

describe("the console's formatting", () => {
  const realm = vm.createContext({});
  const { fmtArgs, fmtTable } = vm.runInContext(`${CONSOLE_FORMAT}; ({ fmtArgs, fmtTable })`, realm) as {
    fmtArgs: (args: unknown[]) => string;
    fmtTable: (data: unknown, columns?: unknown) => string;
  };
  const inRealm = (code: string) => vm.runInContext(code, realm) as unknown;

  it("prints values as a browser's console does", () => {
    const cases: [string, string][] = [
      [`["text", 1, -0, 10n, true, null, undefined, Symbol("s")]`, "text 1 -0 10n true null undefined Symbol(s)"],
      [`[{ a: 1, "b-c": "x", nested: { deep: { deeper: 1 } } }]`, '{a: 1, "b-c": "x", nested: {deep: {…}}}'],
      [`[[1, , "two", [3, [4]]]]`, '[1, empty, "two", [3, Array(1)]]'],
      [`[new Map([["k", 1]]), new Set([1, 2])]`, 'Map(1) {"k" => 1} Set(2) {1, 2}'],
      [`[function load() {}, () => 1, new RangeError("out")]`, "ƒ load() ƒ anonymous() RangeError: out"],
      [`[new Date(Date.UTC(2026, 10, 27)), /a+/g, new Date(NaN)]`, "2026-11-27T00:00:00.000Z /a+/g Invalid Date"],
      [`(() => { class Row { constructor() { this.id = 7; } } return [new Row()]; })()`, "Row {id: 7}"],
      [`(() => { const o = { name: "loop" }; o.self = o; return [o]; })()`, '{name: "loop", self: [Circular]}'],
      [`[Array.from({ length: 25 }, (_, i) => i)]`, "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, … 5 more]"],
      [`[{ get boom() { throw new Error("no"); } }]`, "{boom: [threw]}"],
      [`["%s has %d rows (%i%%), %f avg %o %c", "book", "25.9", 7.5, "3.25", { a: [1] }, "color: red", "extra"]`, 'book has 25 rows (7%), 3.25 avg {a: [1]}  extra'],
      [`["%s and %s", "only one"]`, "only one and %s"],
    ];
    for (const [args, printed] of cases) expect(fmtArgs(inRealm(args) as unknown[]), args).toBe(printed);
  });

  it("prints a table as text, bounded in rows and columns", () => {
    expect(fmtTable(inRealm(`({ alice: { score: 3 }, bob: 4 })`))).toBe("(index) | score | Value\nalice | 3 | \nbob |  | 4");
    expect(fmtTable(inRealm(`[{ a: 1, b: 2 }]`), ["b"])).toBe("(index) | b\n0 | 2");
    const big = fmtTable(inRealm(`Array.from({ length: 80 }, (_, i) => ({ i }))`)).split("\n");
    expect(big).toHaveLength(1 + 50 + 1);
    expect(big.at(-1)).toBe("… 30 more rows");
    expect(fmtTable(inRealm(`"plain"`))).toBe("plain");
  });
});

describe("the render helpers", () => {
  const helpers = vm.runInNewContext(`${RENDER_HELPERS}; ({ sha256Hex, lineColumn, placeInSource })`) as {
    sha256Hex: (bytes: Uint8Array) => string;
    lineColumn: (source: string, offset: number) => { line: number; column: number };
    placeInSource: (source: string, text: string, nth: number, line: number, column: number) => { line: number; column: number } | null;
  };

  it("hash as V8 names a script: SHA-256 of its UTF-8", () => {
    const inputs = [Buffer.alloc(0), Buffer.from("abc"), ...[55, 56, 63, 64, 65, 119, 120].map((n) => Buffer.alloc(n, 0x61)), Buffer.from("naïve — 𝔘 ✓"), randomBytes(300_000)];
    for (const bytes of inputs) {
      expect(helpers.sha256Hex(new Uint8Array(bytes)), `${bytes.length} bytes`).toBe(createHash("sha256").update(bytes).digest("hex"));
    }
  });

  it("place a position in a script at its place in the document", () => {
    const source = ["<!doctype html>", "<p>hi</p>", "<script>", "var a = 1;", "boom();", "</script>", "<script>x()</SCRIPT>", "<script>x()</script>"].join("\n");
    const first = "\nvar a = 1;\nboom();\n";
    expect(helpers.placeInSource(source, first, 0, 3, 1)).toEqual({ line: 5, column: 1 });
    expect(helpers.placeInSource(source, first, 0, 1, 1)).toEqual({ line: 3, column: 9 });
    // The same text twice: the nth script of that text is the nth place it is written.
    expect(helpers.placeInSource(source, "x()", 0, 1, 2)).toEqual({ line: 7, column: 10 });
    expect(helpers.placeInSource(source, "x()", 1, 1, 2)).toEqual({ line: 8, column: 10 });
    expect(helpers.placeInSource(source, "x()", 2, 1, 2)).toBeNull();
    // Text that is only part of a script, or not in the document at all, is not placed.
    expect(helpers.placeInSource(source, "boom();", 0, 1, 1)).toBeNull();
    expect(helpers.placeInSource(source, "made by the dashboard", 0, 1, 1)).toBeNull();
    expect(helpers.placeInSource(source, "", 0, 1, 1)).toBeNull();
    expect(helpers.lineColumn("a\nbc\n", 3)).toEqual({ line: 2, column: 2 });
  });
});

describe("the frame bootstrap's height notices", () => {
  // A layout the test sets: the root's box height, and whether the body overflows it.
  function laidOut() {
    const size = { root: 0, body: 0 };
    let resized: (() => void) | null = null;
    class FakeElement {
      constructor(private readonly which: "root" | "body") {}
      getBoundingClientRect() {
        return { height: this.which === "root" ? size.root : 0 };
      }
      get scrollHeight() {
        return this.which === "body" ? size.body : 0;
      }
      // The bootstrap's link guard reads these off Element.prototype.
      get localName() {
        return this.which === "root" ? "html" : "body";
      }
      getAttribute() {
        return null;
      }
    }
    class FakeResizeObserver {
      constructor(callback: () => void) {
        resized = callback;
      }
      observe() {}
    }
    // Timers fire on the next microtask: these tests are about what is sent, not how often.
    const soon = (fn: () => void) => {
      queueMicrotask(fn);
      return 1;
    };
    const env: FrameEnv = {
      globals: { Element: FakeElement, ResizeObserver: FakeResizeObserver, setTimeout: soon, clearTimeout: () => {} },
      document: { documentElement: new FakeElement("root"), body: new FakeElement("body") },
    };
    return { size, env, resize: () => resized?.() };
  }
  const heights = (received: unknown[]) => received.map(parseFrameMessage).filter((m) => m?.type === "height");

  it("tells the host the document's height in whole pixels, and again when it changes", async () => {
    const layout = laidOut();
    layout.size.root = 1517.2;
    const f = frame({}, { innerHeight: 600 }, layout.env);
    await settle();
    layout.size.body = 1800;
    layout.resize();
    await settle();
    layout.resize();
    await settle();
    expect(heights(f.received)).toEqual([
      { type: "height", height: 1518 },
      { type: "height", height: 1800 },
    ]);
  });

  it("tells nothing while the frame is not shown (no viewport), and tells the height once it is", async () => {
    const layout = laidOut();
    layout.size.root = 0;
    const f = frame({}, { innerHeight: 0 }, layout.env);
    await settle();
    expect(heights(f.received)).toEqual([]);
    // Shown: the viewport appears, the document is laid out, and a resize says so.
    f.win.innerHeight = 800;
    layout.size.root = 3100;
    layout.resize();
    await settle();
    expect(heights(f.received)).toEqual([{ type: "height", height: 3100 }]);
  });

  it("does not chase content that grows with the frame itself", async () => {
    const layout = laidOut();
    // body { min-height: 100vh } and its 8px margins: always 16px taller than the viewport.
    layout.size.root = 436;
    const f = frame({}, { innerHeight: 420 }, layout.env);
    await settle();
    f.win.innerHeight = 436;
    layout.size.root = 452;
    layout.resize();
    await settle();
    expect(heights(f.received)).toEqual([{ type: "height", height: 436 }]);
    // A change of its own (rows arriving) is told again.
    layout.size.root = 900;
    layout.resize();
    await settle();
    expect(heights(f.received)).toEqual([
      { type: "height", height: 436 },
      { type: "height", height: 900 },
    ]);
  });

  it("never asks for more than FRAME_HEIGHT_MAX, however tall the dashboard makes itself", async () => {
    const layout = laidOut();
    layout.size.root = 10 ** 9;
    const f = frame({}, { innerHeight: 600 }, layout.env);
    await settle();
    expect(f.received).toEqual([{ type: "height", height: FRAME_HEIGHT_MAX }]);
  });
});

describe("the frame bootstrap's address parameters", () => {
  const paramsOf = (params: unknown) => frame({}, {}, { init: { params } }).win.DASHBOARD_PARAMS as Record<string, unknown>;

  it("hands the dashboard the host's parameters as a frozen object with no prototype", () => {
    const got = paramsOf({ days: "90", from: "2026-01-01" });
    expect({ ...got }).toEqual({ days: "90", from: "2026-01-01" });
    expect(Object.getPrototypeOf(got)).toBeNull();
    expect(Object.isFrozen(got)).toBe(true);
    // An absent name is absent, not something inherited.
    expect(got.constructor).toBeUndefined();
  });

  it("is an empty object when the host sends none, so a dashboard reads a default without checking", () => {
    expect({ ...paramsOf(undefined) }).toEqual({});
    expect({ ...paramsOf("days=90") }).toEqual({});
  });

  it("keeps to the parser's bounds even when the init message does not", () => {
    const given: Record<string, unknown> = { ok: "1", Bad: "x", n: 5, long: "v".repeat(201), "__proto__x": "y" };
    for (let i = 0; i < 30; i++) given[`k${i}`] = String(i);
    const got = paramsOf(given);
    expect(got.ok).toBe("1");
    expect(Object.keys(got)).not.toContain("Bad");
    expect(Object.keys(got)).not.toContain("n");
    expect(Object.keys(got)).not.toContain("long");
    expect(Object.keys(got).length).toBe(20);
  });
});
