import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { draftEvent, draftUpdated } from "@/lib/contract/playground";
import { backends } from "../support/backends";
import { DRAFT, TRICKY_HTML, create, onApp, openStream, postJson, startApp, until, type App } from "../playground/support";

// The live draft stream over real HTTP, read the way a browser's EventSource reads it.

const DAY = 86_400_000;

describe.each(backends)("draft events on $name", (backend) => {
  let open: Awaited<ReturnType<typeof backend.open>>;
  let app: App;

  beforeAll(async () => {
    open = await backend.open();
    app = await startApp(open, {
      settings: { createsPerMinute: 10_000, updatesPerMinute: 10_000, streamsPerDraft: 1000, streamsPerAddress: 1000 },
      hub: { heartbeatMs: 15_000 },
    });
  });
  afterAll(async () => {
    await app.close();
    await open.close();
  });

  it("runs the agent loop: create, watch, ten updates arrive in order with byte-identical HTML", async () => {
    const created = await create(app, { html: TRICKY_HTML, scenario: "outage", dash: "loop" });
    const stream = await openStream(created.eventsUrl);
    expect(stream.status).toBe(200);
    expect(stream.headers["content-type"]).toBe("text/event-stream");
    expect(stream.headers["cache-control"]).toContain("no-cache");
    expect(stream.headers["cache-control"]).toContain("no-transform");
    expect(stream.headers["x-accel-buffering"]).toBe("no");
    expect(stream.headers["referrer-policy"]).toBe("no-referrer");
    expect(stream.headers["access-control-allow-origin"]).toBeUndefined();

    const first = await stream.next();
    expect(first.type).toBe("draft");
    expect(first.lastEventId).toBe("1");
    expect(draftEvent.parse(JSON.parse(first.data))).toEqual({ revision: 1, scenario: "outage", examples: {}, dash: "loop", html: TRICKY_HTML });

    const sent: string[] = [];
    for (let i = 1; i <= 10; i++) {
      const html = `${TRICKY_HTML}\nrevision ${i + 1}\r\n\n\nevent: draft\nid: ${i}\r`;
      sent.push(html);
      const res = await postJson(created.postUrl, { html });
      expect(draftUpdated.parse(await res.json()).revision).toBe(i + 1);
    }
    for (let i = 0; i < 10; i++) {
      const m = await stream.next();
      const data = draftEvent.parse(JSON.parse(m.data));
      expect(m.type).toBe("draft");
      expect(m.lastEventId).toBe(String(i + 2));
      expect(data.revision).toBe(i + 2);
      expect(Buffer.from(data.html, "utf8").equals(Buffer.from(sent[i]!, "utf8"))).toBe(true);
    }
    expect(stream.messages).toHaveLength(11);
    stream.kill();
    await until(() => app.playground.hub.subscriberCount(created.id) === 0, "the stream to be cleaned up");
  });

  it("takes HTML sent as text/html to watchers unchanged", async () => {
    const created = await create(app);
    const stream = await openStream(created.eventsUrl);
    await stream.next();
    const res = await fetch(created.postUrl, { method: "POST", headers: { "content-type": "text/html" }, body: TRICKY_HTML });
    expect(res.status).toBe(200);
    const m = await stream.next();
    expect(draftEvent.parse(JSON.parse(m.data)).html).toBe(TRICKY_HTML);
    stream.kill();
  });

  it("resumes with Last-Event-ID: nothing when current, the current draft when stale or garbage", async () => {
    const created = await create(app);
    await postJson(created.postUrl, { html: "<p>2</p>" });
    await postJson(created.postUrl, { html: "<p>3</p>" });

    const current = await openStream(created.eventsUrl, { "last-event-id": "3" });
    expect(current.status).toBe(200);
    await expect(current.next(300)).rejects.toThrow(/no event/);
    expect(current.parser.comments).toBeGreaterThanOrEqual(1);

    for (const lastEventId of ["1", "2", "0", "4", "999999999", "abc", "", "-1", "3.0", "9".repeat(200)]) {
      const s = await openStream(created.eventsUrl, { "last-event-id": lastEventId });
      const m = await s.next();
      expect({ lastEventId, id: m.lastEventId, revision: JSON.parse(m.data).revision }).toEqual({ lastEventId, id: "3", revision: 3 });
      s.kill();
    }

    await postJson(created.postUrl, { html: "<p>4</p>" });
    const next = await current.next();
    expect(next.lastEventId).toBe("4");
    expect(JSON.parse(next.data).html).toBe("<p>4</p>");
    current.kill();
  });

  it("cleans up 200 clients killed mid-stream", async () => {
    const created = await create(app);
    const before = app.playground.hub.total();
    const streams = await Promise.all(Array.from({ length: 200 }, () => openStream(created.eventsUrl)));
    await Promise.all(streams.map((s) => s.next()));
    expect(app.playground.hub.subscriberCount(created.id)).toBe(200);
    await postJson(created.postUrl, { html: "<p>2</p>" });
    // Killed in the middle of the stream: some have read the update, some not yet.
    for (const s of streams) s.kill();
    await until(() => app.playground.hub.subscriberCount(created.id) === 0, "every killed stream to be cleaned up");
    expect(app.playground.hub.total()).toBe(before);
    // The draft still works for the next watcher.
    const fresh = await openStream(created.eventsUrl);
    expect(JSON.parse((await fresh.next()).data).revision).toBe(2);
    fresh.kill();
  });

  it("cleans up a stream whose request is aborted or whose body is cancelled", async () => {
    const created = await create(app);
    const aborter = new AbortController();
    const res = await fetch(onApp(app, created.eventsUrl), { signal: aborter.signal });
    expect(res.status).toBe(200);
    await until(() => app.playground.hub.subscriberCount(created.id) === 1, "the stream to open");
    aborter.abort();
    await until(() => app.playground.hub.subscriberCount(created.id) === 0, "the aborted stream to be cleaned up");

    // Straight at the route module: the request's signal, then the body's cancel.
    const direct = new AbortController();
    const answer = await app.routes.events.GET(new Request(created.eventsUrl, { signal: direct.signal }), { params: { token: created.id } });
    expect(app.playground.hub.subscriberCount(created.id)).toBe(1);
    direct.abort();
    expect(app.playground.hub.subscriberCount(created.id)).toBe(0);
    await answer.body?.cancel();
    const other = await app.routes.events.GET(new Request(created.eventsUrl), { params: { token: created.id } });
    expect(app.playground.hub.subscriberCount(created.id)).toBe(1);
    await other.body?.cancel();
    expect(app.playground.hub.subscriberCount(created.id)).toBe(0);
  });

  it("sends heartbeat comments to idle streams", async () => {
    const quick = await startApp(open, { hub: { heartbeatMs: 50 } });
    try {
      const created = await create(quick);
      const s = await openStream(onApp(quick, created.eventsUrl));
      await s.next();
      const seen = s.parser.comments;
      await until(() => s.parser.comments >= seen + 3, "three heartbeats");
      expect(s.messages).toHaveLength(1);
      s.kill();
    } finally {
      await quick.close();
    }
  });

  it("drops a reader that stops reading instead of buffering for it", async () => {
    const strict = await startApp(open, {
      settings: { updatesPerMinute: 10_000 },
      hub: { maxPendingFrames: 2, maxPendingBytes: 2 * 1024 * 1024 },
    });
    try {
      const created = await create(strict);
      const stalled = await openStream(onApp(strict, created.eventsUrl), {}, { stall: true });
      const reading = await openStream(onApp(strict, created.eventsUrl));
      await reading.next();
      expect(strict.playground.hub.subscriberCount(created.id)).toBe(2);
      const big = "<p>".padEnd(1024 * 1024, "x");
      let revision = 1;
      // Socket buffers take the first few megabytes; after that the stalled reader's queue
      // fills and it is dropped, while the reading one keeps up.
      while (strict.playground.hub.stats.dropped === 0) {
        if (revision > 80) throw new Error("the stalled reader was never dropped");
        const res = await postJson(created.postUrl, { html: `${big}${revision}` });
        revision = draftUpdated.parse(await res.json()).revision;
        const m = await reading.next(10_000);
        expect(m.lastEventId).toBe(String(revision));
      }
      expect(strict.playground.hub.subscriberCount(created.id)).toBe(1);
      expect(strict.playground.hub.stats.dropped).toBe(1);
      // Its connection was torn down, not ended cleanly and not left open: once it reads again,
      // it finds what the sockets held, then the break.
      stalled.resume();
      expect(await stalled.ended).toBe("error");
      expect(stalled.messages.length).toBeLessThan(revision);
      // The survivor still gets every update.
      const res = await postJson(created.postUrl, { html: "<p>after</p>" });
      const last = draftUpdated.parse(await res.json()).revision;
      let m = await reading.next();
      while (m.lastEventId !== String(last)) m = await reading.next();
      expect(JSON.parse(m.data).html).toBe("<p>after</p>");
      reading.kill();
    } finally {
      await strict.close();
    }
  });

  it("ends the streams of a draft that expires, and answers 404 to a reconnect", async () => {
    let now = Date.now();
    const clocked = await startApp(open, { now: () => now });
    try {
      const created = await create(clocked);
      const s = await openStream(onApp(clocked, created.eventsUrl));
      await s.next();
      now += 31 * DAY;
      const swept = await clocked.playground.sweep();
      expect(swept).toContain(created.id);
      expect(await s.ended).toBe("end");
      expect(clocked.playground.hub.subscriberCount(created.id)).toBe(0);
      const again = await openStream(onApp(clocked, created.eventsUrl));
      expect(again.status).toBe(404);
      expect(JSON.parse(await again.text())).toEqual({ error: "no_such_draft", hint: expect.any(String) });
    } finally {
      await clocked.close();
    }
  });

  it("answers an unknown stream with the JSON 404, not an event stream", async () => {
    const s = await openStream(`${app.url}${DRAFT}/${"C".repeat(22)}/events`);
    expect(s.status).toBe(404);
    expect(s.headers["content-type"]).toContain("application/json");
    expect(JSON.parse(await s.text())).toMatchObject({ error: "no_such_draft" });
  });
});
