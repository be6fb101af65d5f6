import { describe, expect, it } from "vitest";
import pg from "pg";
import { draftEvent, draftUpdated } from "@/lib/contract/playground";
import { channelFor, parseNote } from "@/lib/live/fanout";
import { PG_URL } from "../support/backends";
import { create, onApp, openStream, postJson, twoInstancesOnPostgres, until } from "../playground/support";

// Two app instances on one PostgreSQL database, each with its own storage handle, hub and
// LISTEN connection, as two servers behind a load balancer would be.

describe("draft fan-out across instances (PostgreSQL)", () => {
  const settings = { createsPerMinute: 10_000, updatesPerMinute: 10_000 };
  const two = twoInstancesOnPostgres(settings);

  it("delivers an update made on one instance to a watcher on the other", async () => {
    const created = await create(two.a, { html: "<p>1</p>" });
    const onB = await openStream(onApp(two.b, created.eventsUrl));
    const onA = await openStream(created.eventsUrl);
    expect(JSON.parse((await onB.next()).data).revision).toBe(1);
    await onA.next();

    const html = "<p>two</p>\r\n\r\nevent: x\ndata: y\n";
    const res = await postJson(created.postUrl, { html });
    expect(draftUpdated.parse(await res.json()).revision).toBe(2);
    for (const s of [onB, onA]) {
      const m = await s.next();
      expect(m.lastEventId).toBe("2");
      expect(draftEvent.parse(JSON.parse(m.data)).html).toBe(html);
    }

    // And the other way round: written through b, seen on a.
    const back = await postJson(onApp(two.b, created.postUrl), { html: "<p>three</p>" });
    expect(back.status).toBe(200);
    expect(JSON.parse((await onA.next()).data).html).toBe("<p>three</p>");
    expect(JSON.parse((await onB.next()).data).html).toBe("<p>three</p>");
    onA.kill();
    onB.kill();
  });

  it("brings a remote watcher to the newest revision after a burst, in order and without repeats", async () => {
    const created = await create(two.a);
    const onB = await openStream(onApp(two.b, created.eventsUrl));
    await onB.next();
    const revisions = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => draftUpdated.parse(await (await postJson(created.postUrl, { html: `<p>${i}</p>` })).json()).revision),
    );
    expect(Math.max(...revisions)).toBe(21);
    let last = 0;
    while (last < 21) {
      const m = await onB.next();
      const revision = Number(m.lastEventId);
      expect(revision).toBeGreaterThan(last);
      last = revision;
    }
    onB.kill();
  });

  it("ends a remote watcher's stream when the draft expires and is swept on another instance", async () => {
    const created = await create(two.a);
    const onB = await openStream(onApp(two.b, created.eventsUrl));
    await onB.next();
    // Age the draft past the idle limit, as time would.
    await two.first.db.updateTable("playground_drafts").set({ updated_at: Date.now() - 40 * 86_400_000 }).where("id", "=", created.id).execute();
    const swept = await two.a.playground.sweep();
    expect(swept).toContain(created.id);
    expect(await onB.ended).toBe("end");
    await until(() => two.b.playground.hub.subscriberCount(created.id) === 0, "the remote stream to be forgotten");
  });

  it("sends only the draft id and revision in the notice, on a channel of its own schema", async () => {
    const created = await create(two.a);
    const schema = two.first.storage.kind === "postgres" ? two.first.storage.schema : undefined;
    const listener = new pg.Client({ connectionString: PG_URL });
    await listener.connect();
    try {
      const notes: string[] = [];
      listener.on("notification", (n) => notes.push(n.payload ?? ""));
      await listener.query(`listen "${channelFor(schema ?? "public")}"`);
      await postJson(created.postUrl, { html: "<p>secret-ish html</p>" });
      await until(() => notes.length > 0, "the notice");
      expect(notes.map((n) => JSON.parse(n))).toEqual([{ id: created.id, revision: 2 }]);
      expect(parseNote(notes[0])).toEqual({ id: created.id, revision: 2 });
      expect(notes[0]).not.toContain("secret-ish");
    } finally {
      await listener.end();
    }
  });

  it("catches up after its listening connection is lost", async () => {
    const created = await create(two.a);
    const onB = await openStream(onApp(two.b, created.eventsUrl));
    await onB.next();
    // Kill b's LISTEN connection from the server side, then update while it is away.
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    try {
      const schema = two.first.storage.kind === "postgres" ? two.first.storage.schema! : "public";
      const killed = await admin.query<{ n: string }>(
        "select count(pg_terminate_backend(pid))::text as n from pg_stat_activity where query = $1 and pid <> pg_backend_pid()",
        [`listen "${channelFor(schema)}"`],
      );
      expect(Number(killed.rows[0]?.n)).toBeGreaterThanOrEqual(1);
    } finally {
      await admin.end();
    }
    await postJson(created.postUrl, { html: "<p>while away</p>" });
    const m = await onB.next(10_000);
    expect(JSON.parse(m.data).html).toBe("<p>while away</p>");
    onB.kill();
  });
});
