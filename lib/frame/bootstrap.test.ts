import vm from "node:vm";
import { afterEach, describe, expect, it } from "vitest";
import { CONSOLE_LINES_MAX, RENDER_NOTICES_MAX, bootstrapHtml } from "./bootstrap";
import { FRAME_HEIGHT_MAX, isSnapshotTime, parseFrameMessage, SNAPSHOT_PANEL_MAX, SNAPSHOT_PANEL_SENT_MAX } from "./protocol";

// The bootstrap script, as the frame receives it, runs in a small stand-in of the frame's window:
// enough of the DOM for it to take the init message, write the dashboard and give it
// window.dashboardSnapshot(). Its parts are tested on their own beside their sources
// (lib/frame/scripts/).

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
  const flushed: (() => void)[] = [];
  const waiting: { wanted: (m: unknown) => boolean; found: (m: unknown) => void }[] = [];
  channel.port2.onmessage = (e: MessageEvent) => {
    if (isFlushMark(e.data)) return flushed.shift()?.();
    received.push(e.data);
    for (const w of waiting.filter((w) => w.wanted(e.data))) {
      waiting.splice(waiting.indexOf(w), 1);
      w.found(e.data);
    }
  };
  listeners.get("message")?.({ source: parent, data: { type: "init", html: "<h1>dash</h1>", apiBase: "/api", ...env.init }, ports: [channel.port1] });
  return {
    win,
    written,
    received,
    context,
    host: channel.port2,
    helper: win.dashboardSnapshot as ((panel?: unknown) => { data: unknown; takenAt: string | null } | null) | undefined,
    /**
     * Resolves once every message the frame has sent so far has reached the host's side: a mark
     * posted on the frame's own port arrives after them, as a port delivers in order.
     */
    flush: () =>
      new Promise<void>((resolve) => {
        flushed.push(resolve);
        channel.port1.postMessage(FLUSH_MARK);
      }),
    /** The first message from now on that `wanted` picks out. */
    arrival: (wanted: (m: unknown) => boolean) => new Promise<unknown>((found) => waiting.push({ wanted, found })),
  };
}

const FLUSH_MARK = { flushMark: true };
const isFlushMark = (m: unknown) => typeof m === "object" && m !== null && "flushMark" in m;

const snapshotElement = (json: string, takenAt: string | null): Element => ({
  textContent: json,
  getAttribute: (name) => (name === "data-taken-at" ? takenAt : null),
});

describe("the frame's first document", () => {
  it("is one script element, the compiled script called with its settings", () => {
    const html = bootstrapHtml();
    expect(html.match(/<script/gi)).toHaveLength(1);
    expect(html.match(/<\/script/gi)).toHaveLength(1);
    const settings = /\n\((\{.*\})\);$/.exec(script)?.[1] ?? "";
    expect(JSON.parse(settings)).toMatchObject({ heightMax: FRAME_HEIGHT_MAX, noticesMax: RENDER_NOTICES_MAX, linesMax: CONSOLE_LINES_MAX });
  });

  it("does nothing in a window of its own, outside a frame", () => {
    const added: string[] = [];
    const win: Record<string, unknown> = {};
    win.parent = win;
    class FakeEventTarget {
      addEventListener(type: string) {
        added.push(type);
      }
    }
    vm.runInContext(script, vm.createContext({ window: win, document: {}, EventTarget: FakeEventTarget }));
    expect(added).toEqual([]);
    expect(Object.keys(win)).toEqual(["parent"]);
  });
});

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
    await f.flush();
    expect(f.received).toEqual([{ type: "snapshot", takenAt: "2026-11-20T06:00:00Z" }]);
    expect(parseFrameMessage(f.received[0])).toEqual({ type: "snapshot", takenAt: "2026-11-20T06:00:00Z" });
  });

  it("leaves out a time the host would refuse, so the notice still appears", async () => {
    const times = ["2026-11-20T06:00:00", "2026-02-31", "yesterday", "", null];
    for (const t of times) {
      const f = frame({ "dashboard-snapshot": snapshotElement("[]", t) });
      expect(f.helper?.(), String(t)).toEqual({ data: [], takenAt: null });
      await f.flush();
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
      await f.flush();
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
      await f.flush();
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
    await f.flush();
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
    await f.flush();
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
    const painted = f.arrival((m) => (m as { type?: string }).type === "painted");
    f.host.postMessage({ type: "paint", id: 7 });
    expect(await painted).toEqual({ type: "painted", id: 7 });
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
    // Timers fire when the test says, whatever their delay: these tests are about what is sent,
    // not how often.
    const due: (() => void)[] = [];
    const later = (fn: () => void) => due.push(fn);
    const env: FrameEnv = {
      globals: { Element: FakeElement, ResizeObserver: FakeResizeObserver, setTimeout: later, clearTimeout: () => {} },
      document: { documentElement: new FakeElement("root"), body: new FakeElement("body") },
    };
    /** Runs the timers that are due, and those they set. */
    const timers = () => {
      while (due.length) due.shift()?.();
    };
    return { size, env, resize: () => resized?.(), timers };
  }
  const heights = (received: unknown[]) => received.map(parseFrameMessage).filter((m) => m?.type === "height");

  it("tells the host the document's height in whole pixels, and again when it changes", async () => {
    const layout = laidOut();
    layout.size.root = 1517.2;
    const f = frame({}, { innerHeight: 600 }, layout.env);
    layout.timers();
    layout.size.body = 1800;
    layout.resize();
    layout.timers();
    layout.resize();
    layout.timers();
    await f.flush();
    expect(heights(f.received)).toEqual([
      { type: "height", height: 1518 },
      { type: "height", height: 1800 },
    ]);
  });

  it("tells nothing while the frame is not shown (no viewport), and tells the height once it is", async () => {
    const layout = laidOut();
    layout.size.root = 0;
    const f = frame({}, { innerHeight: 0 }, layout.env);
    layout.timers();
    await f.flush();
    expect(heights(f.received)).toEqual([]);
    // Shown: the viewport appears, the document is laid out, and a resize says so.
    f.win.innerHeight = 800;
    layout.size.root = 3100;
    layout.resize();
    layout.timers();
    await f.flush();
    expect(heights(f.received)).toEqual([{ type: "height", height: 3100 }]);
  });

  it("does not chase content that grows with the frame itself", async () => {
    const layout = laidOut();
    // body { min-height: 100vh } and its 8px margins: always 16px taller than the viewport.
    layout.size.root = 436;
    const f = frame({}, { innerHeight: 420 }, layout.env);
    layout.timers();
    f.win.innerHeight = 436;
    layout.size.root = 452;
    layout.resize();
    layout.timers();
    await f.flush();
    expect(heights(f.received)).toEqual([{ type: "height", height: 436 }]);
    // A change of its own (rows arriving) is told again.
    layout.size.root = 900;
    layout.resize();
    layout.timers();
    await f.flush();
    expect(heights(f.received)).toEqual([
      { type: "height", height: 436 },
      { type: "height", height: 900 },
    ]);
  });

  it("never asks for more than FRAME_HEIGHT_MAX, however tall the dashboard makes itself", async () => {
    const layout = laidOut();
    layout.size.root = 10 ** 9;
    const f = frame({}, { innerHeight: 600 }, layout.env);
    layout.timers();
    await f.flush();
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
