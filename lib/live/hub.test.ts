import { setMaxListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { Hub } from "./hub";
import { EventStreamParser, draftFrame, type SseMessage } from "./sse";
import { SocketStandIn } from "./testing";

const limits = { perDraftPerAddress: 10, perAddress: 10, total: 100 };
const frame = (revision: number, html = `<p>${revision}</p>`) => () => draftFrame({ revision, scenario: "s", examples: {}, dash: null, html });

/** Reads a watch's stream in the background, as a connection that keeps up would. */
function reader(stream: ReadableStream<Uint8Array>) {
  const messages: SseMessage[] = [];
  const parser = new EventStreamParser((m) => messages.push(m));
  const r = stream.getReader();
  const done = (async () => {
    for (;;) {
      const { done, value } = await r.read();
      if (done) return "end";
      parser.push(value);
    }
  })().catch(() => "error");
  return { messages, parser, done, cancel: () => r.cancel() };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe("hub", () => {
  it("sends the first revision, then each newer one once, in order", async () => {
    const hub = new Hub();
    const opened = hub.open("d1", "a", limits);
    if (!opened.ok) throw new Error("not opened");
    const c = reader(opened.watch.stream);
    opened.watch.start(1, frame(1), null);
    hub.publish("d1", 2, frame(2));
    hub.publish("d1", 2, frame(2));
    hub.publish("d1", 1, frame(1));
    hub.publish("d1", 3, frame(3));
    await tick();
    expect(c.messages.map((m) => m.lastEventId)).toEqual(["1", "2", "3"]);
    expect(hub.knownRevision("d1")).toBe(3);
    hub.close();
    expect(await c.done).toBe("end");
    expect(hub.total()).toBe(0);
  });

  it("sends nothing at start when the client already has the current revision", async () => {
    const hub = new Hub();
    const opened = hub.open("d1", "a", limits);
    if (!opened.ok) throw new Error("not opened");
    const c = reader(opened.watch.stream);
    opened.watch.start(4, frame(4), 4);
    await tick();
    expect(c.messages).toHaveLength(0);
    hub.publish("d1", 5, frame(5));
    await tick();
    expect(c.messages.map((m) => m.lastEventId)).toEqual(["5"]);
    hub.close();
  });

  it("frames a revision once for every watcher", async () => {
    const hub = new Hub();
    let framed = 0;
    const readers = [0, 1, 2].map(() => {
      const o = hub.open("d1", "a", limits);
      if (!o.ok) throw new Error("not opened");
      return reader(o.watch.stream);
    });
    hub.publish("d1", 2, () => {
      framed++;
      return frame(2)();
    });
    await tick();
    expect(framed).toBe(1);
    for (const r of readers) expect(r.messages).toHaveLength(1);
    hub.close();
  });

  it("counts per draft and address, per address and in total, and refuses alike past any of them", () => {
    const hub = new Hub();
    const caps = { perDraftPerAddress: 2, perAddress: 3, total: 5 };
    expect(hub.open("d1", "a", caps).ok).toBe(true);
    expect(hub.open("d1", "a", caps).ok).toBe(true);
    expect(hub.open("d1", "a", caps)).toEqual({ ok: false });
    // Other addresses still watch the same draft.
    expect(hub.open("d1", "b", caps).ok).toBe(true);
    expect(hub.open("d1", "c", caps).ok).toBe(true);
    expect(hub.open("d2", "a", caps).ok).toBe(true);
    expect(hub.open("d3", "a", caps)).toEqual({ ok: false });
    expect(hub.open("d2", "d", caps)).toEqual({ ok: false });
    expect(hub.subscriberCount("d1")).toBe(4);
    expect(hub.addressCount("a")).toBe(3);
    expect(hub.total()).toBe(5);
    hub.close();
    expect(hub.total()).toBe(0);
    expect(hub.addressCount("a")).toBe(0);
    expect(hub.bookkeepingSize()).toEqual({ addresses: 0, pairs: 0, drafts: 0 });
  });

  it("forgets a watcher whose stream is cancelled", async () => {
    const hub = new Hub();
    const o = hub.open("d1", "a", limits);
    if (!o.ok) throw new Error("not opened");
    const c = reader(o.watch.stream);
    await c.cancel();
    expect(hub.total()).toBe(0);
    expect(hub.subscriberCount("d1")).toBe(0);
    expect(hub.publish("d1", 2, frame(2))).toBe(0);
  });

  it("drops a watcher that never reads once its queue passes the bound", async () => {
    const hub = new Hub({ maxPendingFrames: 2 });
    const stalled = hub.open("d1", "a", limits);
    const live = hub.open("d1", "b", limits);
    if (!stalled.ok || !live.ok) throw new Error("not opened");
    const c = reader(live.watch.stream);
    const errored = stalled.watch.stream.getReader().closed.then(() => "closed", () => "errored");
    await tick();
    // The stalled one holds the opening frame and revision 2; revision 3 passes the bound.
    for (let rev = 2; rev <= 4; rev++) {
      hub.publish("d1", rev, frame(rev));
      expect(hub.stats.dropped).toBe(rev < 3 ? 0 : 1);
      await tick();
    }
    expect(hub.subscriberCount("d1")).toBe(1);
    expect(c.messages.map((m) => m.lastEventId)).toEqual(["2", "3", "4"]);
    hub.close();
    expect(await errored).toBe("errored");
  });

  it("allows one frame of any size, but not a second past the byte bound", async () => {
    const hub = new Hub({ maxPendingFrames: 10, maxPendingBytes: 1000 });
    const o = hub.open("d1", "a", limits);
    if (!o.ok) throw new Error("not opened");
    // The opening frame is queued (nobody reads); a large frame on top passes the byte bound.
    hub.publish("d1", 2, frame(2, "x".repeat(5000)));
    expect(hub.stats.dropped).toBe(1);
    const p = hub.open("d2", "a", limits);
    if (!p.ok) throw new Error("not opened");
    p.watch.stream
      .getReader()
      .read()
      .catch(() => {});
    await tick();
    // Its opening frame went to the waiting read; the large frame is the only one queued.
    hub.publish("d2", 2, frame(2, "x".repeat(5000)));
    expect(hub.stats.dropped).toBe(1);
    hub.close();
  });

  it("heartbeats idle streams and drops ones that take nothing for too long", async () => {
    let now = 0;
    const hub = new Hub({ heartbeatMs: 60_000, stallMs: 1000, now: () => now });
    const live = hub.open("d1", "a", limits);
    const stalled = hub.open("d1", "b", limits);
    if (!live.ok || !stalled.ok) throw new Error("not opened");
    const c = reader(live.watch.stream);
    await tick();
    hub.tick();
    await tick();
    expect(c.parser.comments).toBeGreaterThanOrEqual(2);
    now = 2000;
    hub.tick();
    expect(hub.stats.dropped).toBe(1);
    expect(hub.subscriberCount("d1")).toBe(1);
    hub.close();
  });

  it("ends the streams of a draft that is gone", async () => {
    const hub = new Hub();
    const o = hub.open("d1", "a", limits);
    const other = hub.open("d2", "a", limits);
    if (!o.ok || !other.ok) throw new Error("not opened");
    const c = reader(o.watch.stream);
    expect(hub.endDraft("d1")).toBe(1);
    expect(await c.done).toBe("end");
    expect(hub.total()).toBe(1);
    hub.close();
  });

  it("on shutdown sends every watcher what it has waiting and a retry hint, ends its stream, and opens no more", async () => {
    const hub = new Hub({ retryMs: 5_000 });
    const o = hub.open("d1", "a", limits);
    const p = hub.open("d2", "b", limits);
    if (!o.ok || !p.ok) throw new Error("not opened");
    o.watch.start(1, frame(1), null);
    const c = reader(o.watch.stream);
    const d = reader(p.watch.stream);
    await tick();
    expect(hub.reconnectAll(1_000)).toBe(2);
    expect(await c.done).toBe("end");
    expect(await d.done).toBe("end");
    expect(c.messages.map((m) => m.lastEventId)).toEqual(["1"]);
    // The hint replaces the opening 5 s with about a second, spread so a crowd does not return at once.
    for (const r of [c, d]) {
      expect(r.parser.retry).toBeGreaterThanOrEqual(500);
      expect(r.parser.retry).toBeLessThanOrEqual(1_500);
    }
    expect(hub.total()).toBe(0);
    expect(hub.closing).toBe(true);
    expect(hub.open("d1", "c", limits).ok).toBe(false);
  });
});

describe("hub, writing to Node responses", () => {
  it("sends what was published before the hand-over first, then each newer revision once, in order", () => {
    const hub = new Hub({ retryMs: 3_000 });
    const o = hub.open("d1", "a", limits);
    if (!o.ok) throw new Error("not opened");
    o.watch.start(1, frame(1), null);
    hub.publish("d1", 2, frame(2));
    const res = new SocketStandIn();
    o.watch.writeTo(res);
    hub.publish("d1", 2, frame(2));
    hub.publish("d1", 1, frame(1));
    hub.publish("d1", 3, frame(3));
    expect(res.parser.retry).toBe(3_000);
    expect(res.messages.map((m) => m.lastEventId)).toEqual(["1", "2", "3"]);
    expect(hub.onSocket()).toBe(1);
    hub.close();
    expect(res.ended).toBe(true);
    expect(hub.onSocket()).toBe(0);
  });

  it("writes nothing more while the socket is full, then what waits once it drains", () => {
    const hub = new Hub();
    const o = hub.open("d1", "a", limits);
    if (!o.ok) throw new Error("not opened");
    const res = new SocketStandIn();
    res.full = true;
    o.watch.writeTo(res);
    // The opening frame filled it: revision 2 waits in the queue.
    hub.publish("d1", 2, frame(2));
    expect(res.writes).toBe(1);
    res.drain();
    expect(res.messages.map((m) => m.lastEventId)).toEqual(["2"]);
    hub.publish("d1", 3, frame(3));
    expect(res.messages.map((m) => m.lastEventId)).toEqual(["2", "3"]);
    hub.close();
  });

  it("drops a watcher whose socket stays full past the queue bound, destroying its connection", () => {
    const hub = new Hub({ maxPendingFrames: 2 });
    let ended = 0;
    const stalled = hub.open("d1", "a", limits, () => ended++);
    const live = hub.open("d1", "b", limits);
    if (!stalled.ok || !live.ok) throw new Error("not opened");
    const full = new SocketStandIn();
    full.full = true;
    const fine = new SocketStandIn();
    stalled.watch.writeTo(full);
    live.watch.writeTo(fine);
    for (let rev = 2; rev <= 4; rev++) {
      hub.publish("d1", rev, frame(rev));
      expect(hub.stats.dropped).toBe(rev < 4 ? 0 : 1);
    }
    expect(full.destroyed).toBe(true);
    expect(ended).toBe(1);
    expect(hub.subscriberCount("d1")).toBe(1);
    expect(hub.onSocket()).toBe(1);
    expect(fine.messages.map((m) => m.lastEventId)).toEqual(["2", "3", "4"]);
    hub.close();
  });

  it("heartbeats idle sockets and drops one that takes nothing for too long", () => {
    let now = 0;
    const hub = new Hub({ heartbeatMs: 60_000, stallMs: 1000, now: () => now });
    const live = hub.open("d1", "a", limits);
    const stalled = hub.open("d1", "b", limits);
    if (!live.ok || !stalled.ok) throw new Error("not opened");
    const fine = new SocketStandIn();
    const full = new SocketStandIn();
    full.full = true;
    live.watch.writeTo(fine);
    stalled.watch.writeTo(full);
    hub.tick();
    expect(fine.parser.comments).toBe(2);
    now = 2000;
    hub.tick();
    expect(full.destroyed).toBe(true);
    expect(fine.parser.comments).toBe(3);
    expect(hub.subscriberCount("d1")).toBe(1);
    hub.close();
  });

  it("forgets a watcher whose client went away, releasing its place under the caps", () => {
    const hub = new Hub();
    let ended = 0;
    const o = hub.open("d1", "a", { ...limits, perAddress: 1 }, () => ended++);
    if (!o.ok) throw new Error("not opened");
    const res = new SocketStandIn();
    o.watch.writeTo(res);
    res.emit("close");
    expect(ended).toBe(1);
    expect(hub.total()).toBe(0);
    expect(hub.onSocket()).toBe(0);
    expect(hub.bookkeepingSize()).toEqual({ addresses: 0, pairs: 0, drafts: 0 });
    expect(hub.publish("d1", 2, frame(2))).toBe(0);
    expect(res.writes).toBe(1);
    expect(hub.open("d1", "a", { ...limits, perAddress: 1 }).ok).toBe(true);
    hub.close();
  });

  it("on shutdown writes what waits and a retry hint, then ends the response", () => {
    const hub = new Hub({ retryMs: 5_000 });
    const o = hub.open("d1", "a", limits);
    if (!o.ok) throw new Error("not opened");
    const res = new SocketStandIn();
    res.full = true;
    o.watch.writeTo(res);
    hub.publish("d1", 2, frame(2));
    expect(hub.reconnectAll(1_000)).toBe(1);
    expect(res.messages.map((m) => m.lastEventId)).toEqual(["2"]);
    expect(res.parser.retry).toBeGreaterThanOrEqual(500);
    expect(res.parser.retry).toBeLessThanOrEqual(1_500);
    expect(res.ended).toBe(true);
    expect(hub.total()).toBe(0);
  });

  it("ends a response handed over after its watch ended: normally, with a retry hint on shutdown, or torn down when dropped", () => {
    const hub = new Hub({ maxPendingFrames: 1, maxPendingBytes: 1 });
    const closed = hub.open("d1", "a", limits);
    const reconnecting = hub.open("d2", "a", limits);
    if (!closed.ok || !reconnecting.ok) throw new Error("not opened");
    closed.watch.close();
    hub.reconnectAll(1_000);
    const a = new SocketStandIn();
    const b = new SocketStandIn();
    closed.watch.writeTo(a);
    reconnecting.watch.writeTo(b);
    expect(a.ended && a.writes === 0).toBe(true);
    expect(b.ended).toBe(true);
    expect(b.parser.retry).toBeLessThanOrEqual(1_500);
    expect(hub.onSocket()).toBe(0);

    const other = new Hub({ maxPendingFrames: 1 });
    const dropped = other.open("d1", "a", limits);
    if (!dropped.ok) throw new Error("not opened");
    // The opening frame waits; a second frame passes the bound before any sink exists.
    other.publish("d1", 2, frame(2));
    const c = new SocketStandIn();
    dropped.watch.writeTo(c);
    expect(c.destroyed).toBe(true);
    expect(c.writes).toBe(0);
  });
});

describe("a caller waiting for a draft's next revision", () => {
  it("is answered by the first newer revision published, with no watcher open, and only then", async () => {
    const hub = new Hub();
    const next = hub.nextRevision("d1", 2, 60_000);
    expect(hub.followed("d1")).toBe(true);
    let answered: number | null | undefined;
    void next.then((r) => (answered = r));
    hub.publish("d1", 2, frame(2));
    hub.publish("d2", 5, frame(5));
    await tick();
    expect(answered).toBeUndefined();
    hub.publish("d1", 3, frame(3));
    expect(await next).toBe(3);
    expect(hub.followed("d1")).toBe(false);
  });

  it("is answered null when its time is up, when its caller goes, and when the hub closes", async () => {
    const hub = new Hub();
    expect(await hub.nextRevision("d1", 1, 5)).toBeNull();
    const gone = new AbortController();
    const waiting = hub.nextRevision("d1", 1, 60_000, gone.signal);
    gone.abort();
    expect(await waiting).toBeNull();
    const open = hub.nextRevision("d1", 1, 60_000);
    hub.close();
    expect(await open).toBeNull();
    expect(hub.followed("d1")).toBe(false);
  });

  it("is answered at once when too many wait already, so waiting callers cannot pile up", async () => {
    const hub = new Hub();
    const stop = new AbortController();
    // One signal for every waiter here, where a caller has one each: Node would warn of a leak.
    setMaxListeners(2_000, stop.signal);
    const waiting = Array.from({ length: 2_000 }, (_, i) => hub.nextRevision(`d${i}`, 0, 60_000, stop.signal));
    expect(await hub.nextRevision("one-more", 0, 60_000)).toBeNull();
    stop.abort();
    expect(new Set(await Promise.all(waiting))).toEqual(new Set([null]));
  });
});
