import { describe, expect, it } from "vitest";
import { Hub, type HeartbeatTimer } from "./hub";
import { draftFrame } from "./sse";
import { SocketStandIn } from "./testing";

const limits = { perDraftPerAddress: 100, perAddress: 100, total: 1_000 };

/** A heartbeat timer the test fires by hand, counting how many were started. */
function handTimer() {
  const ticks: (() => void)[] = [];
  let stopped = 0;
  const timer: HeartbeatTimer = {
    start(tick) {
      ticks.push(tick);
      return ticks.length;
    },
    stop: () => void stopped++,
  };
  return { timer, ticks, stopped: () => stopped };
}

function connect(hub: Hub, n: number, draftId = "d1") {
  return Array.from({ length: n }, (_, i) => {
    const o = hub.open(draftId, `a${i % 7}`, limits);
    if (!o.ok) throw new Error("not opened");
    const res = new SocketStandIn();
    o.watch.writeTo(res);
    return { watch: o.watch, res };
  });
}

/** Two watchers of one draft. */
function two(hub: Hub) {
  const [a, b] = connect(hub, 2);
  return [a!, b!] as const;
}

describe("watchers", () => {
  it("are all sent a heartbeat from one shared timer, started with the first and stopped with the last", () => {
    const { timer, ticks, stopped } = handTimer();
    const hub = new Hub({ timer });
    const watchers = [...connect(hub, 40, "d1"), ...connect(hub, 10, "d2")];
    expect(ticks).toHaveLength(1);
    // The opening frame is a comment too.
    for (const { res } of watchers) expect(res.parser.comments).toBe(1);
    const tick = ticks[0]!;
    tick();
    tick();
    for (const { res } of watchers) expect(res.parser.comments).toBe(3);
    for (const { watch } of watchers) watch.close();
    expect(stopped()).toBe(1);
    connect(hub, 1);
    expect(ticks).toHaveLength(2);
    hub.close();
  });

  it("share the listeners on their responses: a watcher brings no functions of its own", () => {
    const hub = new Hub({ timer: handTimer().timer });
    const [a, b] = two(hub);
    for (const event of ["drain", "error", "close"]) {
      expect(a.res.listeners(event)).toHaveLength(1);
      expect(a.res.listeners(event)).toEqual(b.res.listeners(event));
    }
    // The watch the route holds is the watcher itself, its methods on the prototype.
    expect(Object.getOwnPropertyNames(a.watch).filter((k) => typeof (a.watch as unknown as Record<string, unknown>)[k] === "function")).toEqual([]);
    hub.close();
  });

  it("are released when their client goes: out of the registry, their slots free, nothing sent after", () => {
    const hub = new Hub({ timer: handTimer().timer });
    let ended = 0;
    const caps = { perDraftPerAddress: 1, perAddress: 1, total: 1 };
    const o = hub.open("d1", "a", caps, () => ended++);
    if (!o.ok) throw new Error("not opened");
    const res = new SocketStandIn();
    o.watch.writeTo(res);
    expect(hub.open("d1", "a", caps).ok).toBe(false);
    res.emit("error");
    res.emit("close");
    expect(ended).toBe(1);
    expect(hub.subscriberCount("d1")).toBe(0);
    expect(hub.watchedDrafts()).toEqual([]);
    expect(hub.bookkeepingSize()).toEqual({ addresses: 0, pairs: 0, drafts: 0 });
    expect(hub.stats.closed).toBe(1);
    hub.publish("d1", 2, () => draftFrame({ revision: 2, scenario: "s", examples: {}, dash: null, html: "<p>2</p>" }));
    hub.tick();
    expect(res.writes).toBe(1);
    expect(hub.open("d1", "a", caps).ok).toBe(true);
    hub.close();
  });

  it("keep the revision each has: a reconnecting client is sent only what is newer, and shutdown hints each to reconnect", () => {
    const hub = new Hub({ timer: handTimer().timer, retryMs: 4_000 });
    const frame = (revision: number) => () => draftFrame({ revision, scenario: "s", examples: {}, dash: null, html: `<p>${revision}</p>` });
    const [fresh, behind] = two(hub);
    fresh.watch.start(3, frame(3), 3);
    behind.watch.start(3, frame(3), 2);
    hub.publish("d1", 3, frame(3));
    expect(fresh.res.messages).toEqual([]);
    expect(behind.res.messages.map((m) => m.lastEventId)).toEqual(["3"]);
    expect(fresh.res.parser.retry).toBe(4_000);
    expect(hub.reconnectAll(1_000)).toBe(2);
    for (const { res } of [fresh, behind]) {
      expect(res.ended).toBe(true);
      expect(res.parser.retry).toBeGreaterThanOrEqual(500);
      expect(res.parser.retry).toBeLessThanOrEqual(1_500);
    }
    expect(hub.open("d1", "a", limits).ok).toBe(false);
    expect(hub.total()).toBe(0);
  });
});
