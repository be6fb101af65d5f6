import vm from "node:vm";
import { afterEach, describe, expect, it } from "vitest";
import { bootstrapHtml } from "./bootstrap";
import { isSnapshotTime, parseFrameMessage } from "./protocol";

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

function frame(elements: Record<string, Element | undefined>) {
  const listeners = new Map<string, (event: unknown) => void>();
  class FakeEventTarget {
    addEventListener(type: string, fn: (event: unknown) => void) {
      listeners.set(type, fn);
    }
    removeEventListener() {}
  }
  const parent = {};
  const written: string[] = [];
  const win: Record<string, unknown> = { parent, scrollY: 0, scrollTo: () => {} };
  const document = {
    open: () => {},
    write: (html: string) => written.push(html),
    close: () => {},
    getElementById: (id: string) => elements[id] ?? null,
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
  });
  vm.runInContext(script, context);
  const channel = new MessageChannel();
  channels.push(channel);
  const received: unknown[] = [];
  channel.port2.onmessage = (e: MessageEvent) => received.push(e.data);
  listeners.get("message")?.({ source: parent, data: { type: "init", html: "<h1>dash</h1>", apiBase: "/api" }, ports: [channel.port1] });
  return { win, written, received, helper: win.dashboardSnapshot as (() => { data: unknown; takenAt: string | null } | null) | undefined };
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

  it("answers null, and says nothing, without a snapshot or with one that is not JSON", async () => {
    for (const elements of [{}, { "dashboard-snapshot": snapshotElement("{not json", "2026-11-20") }]) {
      const f = frame(elements);
      expect(f.helper?.()).toBeNull();
      await settle();
      expect(f.received).toEqual([]);
    }
  });
});
