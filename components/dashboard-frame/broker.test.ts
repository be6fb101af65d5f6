import { afterEach, describe, expect, it } from "vitest";
import { PLAYGROUND_API_BASE } from "@/lib/contract/playground";
import { BROKER_BODY_MAX, type HeightNotice, type RenderNotice, type ResponseMessage, type ScrollNotice, type SnapshotNotice } from "@/lib/frame/protocol";
import { decideLive, type LiveGrant } from "@/lib/consent/live";
import { openBroker, RequestLimiter, type BrokerConfig, type RequestLogEntry } from "./broker";

const P = PLAYGROUND_API_BASE;

/** A grant as the one deciding module gives it: for nobody signed in, the paths the code names. */
function grantFor(paths: string[] | "all"): LiveGrant {
  const decision =
    paths === "all"
      ? decideLive({ signedIn: true, author: { kind: "viewer" }, reads: { paths: [], complete: true }, agreement: null })
      : decideLive({ signedIn: false, author: { kind: "draft" }, reads: { paths, complete: true }, agreement: null });
  if (decision.kind !== "run") throw new Error("expected a grant");
  return decision.grant;
}

interface Call {
  url: string;
  init: RequestInit;
}

/** A fetch that records each call and answers what `answer` gives, or waits for `release`. */
function fakeFetch(answer: (url: string) => Response | Promise<Response> = () => Response.json({ ok: true })) {
  const calls: Call[] = [];
  const impl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(input), init: init ?? {} });
    return answer(String(input));
  }) as typeof fetch;
  return { impl, calls };
}

const open: (() => void)[] = [];
afterEach(() => {
  for (const close of open.splice(0)) close();
});

/** A scroll notice no test sends: the mark `flush` posts. */
const FLUSH_Y = 987_654;
const BACK_MARK = { backMark: true };

/** A broker on one end of a real MessageChannel, and the frame's side of it on the other. */
function setup(options: { config?: BrokerConfig; fetchImpl?: typeof fetch; limiter?: RequestLimiter; now?: () => number } = {}) {
  let config: BrokerConfig = options.config ?? { mode: "demo" };
  const channel = new MessageChannel();
  const log: RequestLogEntry[] = [];
  const notices: (ScrollNotice | HeightNotice | SnapshotNotice | RenderNotice)[] = [];
  const waiting = new Map<number, (m: ResponseMessage) => void>();
  const received: ResponseMessage[] = [];
  const flushed: (() => void)[] = [];
  channel.port2.onmessage = (e: MessageEvent<ResponseMessage>) => {
    if (typeof e.data === "object" && e.data !== null && "backMark" in e.data) return flushed.shift()?.();
    received.push(e.data);
    waiting.get(e.data.id)?.(e.data);
  };
  // Every relay the broker starts, so a test can wait until each has been answered (or dropped).
  const limiter = options.limiter ?? new RequestLimiter();
  const relays: Promise<unknown>[] = [];
  const run = limiter.run.bind(limiter);
  limiter.run = <T>(task: () => Promise<T>): Promise<T> => {
    const relay = run(task);
    relays.push(relay);
    return relay;
  };
  const close = openBroker(channel.port1, {
    config: () => config,
    limiter,
    onRequest: (entry) => log.push(entry),
    onNotice: (n) => {
      // The broker has handled every message posted before the mark; what it answered on the
      // spot is on its way, ahead of a mark sent back on the same port.
      if (n.type === "scroll" && n.y === FLUSH_Y) channel.port1.postMessage(BACK_MARK);
      else notices.push(n);
    },
    fetchImpl: options.fetchImpl ?? fakeFetch().impl,
    now: options.now,
  });
  open.push(() => {
    close();
    channel.port2.close();
  });
  let nextId = 1;
  return {
    log,
    notices,
    received,
    close,
    /** Resolves once the broker has handled everything posted so far, and its answers on the spot have arrived. */
    flush: () =>
      new Promise<void>((resolve) => {
        flushed.push(resolve);
        channel.port2.postMessage({ type: "scroll", y: FLUSH_Y });
      }),
    /** Resolves once every relay started so far has ended and been answered or, once closed, dropped. */
    relaysDone: () => Promise.allSettled(relays).then(() => {}),
    /** Resolves once the channel is shut, after which nothing more can arrive on either side. */
    shut: () => new Promise<void>((resolve) => (channel.port2 as unknown as NodeMessagePort).once("close", () => resolve())),
    setConfig: (c: BrokerConfig) => {
      config = c;
    },
    /** Sends raw data down the port, as dashboard code could. */
    post: (data: unknown) => channel.port2.postMessage(data),
    ask: (path: string, method = "GET") => {
      const id = nextId++;
      const answered = new Promise<ResponseMessage>((resolve) => waiting.set(id, resolve));
      channel.port2.postMessage({ type: "fetch", id, method, path, headers: { accept: "application/json" } });
      return answered;
    },
  };
}

/** Node's MessagePort also says when its channel closes. */
type NodeMessagePort = import("node:worker_threads").MessagePort;
/** Resolves after every promise reaction already queued, and those they queue, have run. */
const microtasksDone = () => new Promise<void>((resolve) => setImmediate(resolve));
const bodyOf = (m: ResponseMessage) => JSON.parse(m.body) as { error?: string; hint?: string };

describe("RequestLimiter", () => {
  it("allows a burst, then refills at its rate", () => {
    let t = 0;
    const limiter = new RequestLimiter(10, 30, 8, 32, () => t);
    for (let i = 0; i < 30; i++) expect(limiter.take(), `take ${i}`).toBe(true);
    expect(limiter.take()).toBe(false);
    t += 99;
    expect(limiter.take()).toBe(false);
    t += 1; // 100 ms at 10/s is one token
    expect(limiter.take()).toBe(true);
    expect(limiter.take()).toBe(false);
    t += 60_000;
    for (let i = 0; i < 30; i++) expect(limiter.take()).toBe(true);
    expect(limiter.take(), "never more than the burst").toBe(false);
  });

  it("runs at most maxInFlight tasks at once; the rest wait their turn in order", async () => {
    const limiter = new RequestLimiter(100, 100, 2, 32);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    const releases: (() => void)[] = [];
    const task = (n: number) => () =>
      new Promise<number>((resolve) => {
        running++;
        peak = Math.max(peak, running);
        order.push(n);
        releases.push(() => {
          running--;
          resolve(n);
        });
      });
    const all = [1, 2, 3, 4].map((n) => limiter.run(task(n)));
    await microtasksDone();
    expect(order).toEqual([1, 2]);
    releases.shift()?.();
    await microtasksDone();
    expect(order).toEqual([1, 2, 3]);
    while (releases.length) {
      releases.shift()?.();
      await microtasksDone();
    }
    expect(await Promise.all(all)).toEqual([1, 2, 3, 4]);
    expect(peak).toBe(2);
  });

  it("refuses once its queue is full, even with tokens left", async () => {
    const limiter = new RequestLimiter(100, 100, 1, 2);
    const never = () => new Promise<void>(() => {});
    for (let i = 0; i < 3; i++) {
      expect(limiter.take()).toBe(true);
      void limiter.run(never);
    }
    await microtasksDone();
    expect(limiter.take()).toBe(false);
  });
});

describe("openBroker: refusals", () => {
  it("refuses every method but GET and HEAD without fetching", async () => {
    const f = fakeFetch();
    const b = setup({ fetchImpl: f.impl });
    for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
      const r = await b.ask(`${P}/me`, method);
      expect(r.status, method).toBe(405);
      expect(bodyOf(r).error).toBe("method_not_allowed");
    }
    expect(f.calls).toEqual([]);
  });

  it("refuses traversal, encoded traversal, absolute and protocol-relative URLs, and paths outside the registry", async () => {
    const f = fakeFetch();
    const b = setup({ fetchImpl: f.impl });
    const cases: [string, number][] = [
      [`${P}/../draft`, 400],
      [`${P}/%2e%2e/draft`, 400],
      [`${P}/me%2f..%2f..%2fdraft`, 400],
      [`https://evil.example${P}/me`, 400],
      [`//evil.example${P}/me`, 400],
      ["/dashboards/playground/draft", 400],
      ["/api/me", 400],
      [`${P}/nope`, 404],
      [`${P}/me?scenario=outage`, 400],
    ];
    for (const [path, status] of cases) {
      const r = await b.ask(path);
      expect(r.status, path).toBe(status);
      expect(r.headers["content-type"]).toBe("application/json");
      expect(typeof bodyOf(r).error, path).toBe("string");
    }
    expect(f.calls).toEqual([]);
    expect(b.log.map((e) => e.status)).toEqual(cases.map(([, s]) => s));
  });

  it("throttles: past the bucket, reads are answered 429 without fetching", async () => {
    const f = fakeFetch();
    const b = setup({ fetchImpl: f.impl, limiter: new RequestLimiter(0, 2, 8, 32) });
    const answers = await Promise.all([1, 2, 3, 4].map(() => b.ask(`${P}/me`)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 429, 429]);
    const refused = answers.find((a) => a.status === 429);
    expect(refused && bodyOf(refused).error).toBe("rate_limited");
    expect(f.calls).toHaveLength(2);
  });

  it("holds reads past the concurrency cap until one finishes", async () => {
    const releases: (() => void)[] = [];
    const f = fakeFetch(() => new Promise<Response>((resolve) => releases.push(() => resolve(Response.json({})))));
    const b = setup({ fetchImpl: f.impl, limiter: new RequestLimiter(100, 100, 1, 32) });
    const first = b.ask(`${P}/me`);
    const second = b.ask(`${P}/me/home`);
    await b.flush();
    await microtasksDone();
    expect(f.calls.map((c) => c.url)).toEqual([`${P}/me`]);
    releases.shift()?.();
    expect((await first).status).toBe(200);
    // The second read started as the first ended, before its answer was sent.
    expect(f.calls.map((c) => c.url)).toEqual([`${P}/me`, `${P}/me/home`]);
    releases.shift()?.();
    expect((await second).status).toBe(200);
  });
});

describe("openBroker: routing", () => {
  it("answers demo drafts from the playground's demo API with the draft's scenario and variants, without cookies", async () => {
    const f = fakeFetch();
    const b = setup({
      fetchImpl: f.impl,
      config: { mode: "demo", scenario: "outage", examples: { "/vendors/tracker/issues": "empty", "/crm/:instance/deals": "not_synced" } },
    });
    await b.ask(`${P}/vendors/tracker/issues?project=Platform`);
    await b.ask(`${P}/crm/customers/deals?limit=5`);
    await b.ask(`${P}/me`);
    expect(f.calls.map((c) => c.url)).toEqual([
      `${P}/vendors/tracker/issues?project=Platform&scenario=outage&variant=empty`,
      `${P}/crm/customers/deals?limit=5&scenario=outage&variant=not_synced`,
      `${P}/me?scenario=outage`,
    ]);
    for (const c of f.calls) {
      expect(c.init).toMatchObject({ method: "GET", credentials: "omit", redirect: "error", cache: "no-store", referrerPolicy: "no-referrer" });
    }
  });

  it("a concrete path's variant wins over its pattern's", async () => {
    const f = fakeFetch();
    const b = setup({ fetchImpl: f.impl, config: { mode: "demo", examples: { "/crm/:instance/summary": "empty", "/crm/users/summary": "forbidden" } } });
    await b.ask(`${P}/crm/users/summary`);
    await b.ask(`${P}/crm/customers/summary`);
    expect(f.calls.map((c) => c.url)).toEqual([`${P}/crm/users/summary?variant=forbidden`, `${P}/crm/customers/summary?variant=empty`]);
  });

  it("answers live drafts from /api as the viewer, with no playground parameters", async () => {
    const f = fakeFetch();
    const b = setup({ fetchImpl: f.impl, config: { mode: "live", grant: grantFor("all") } });
    await b.ask("/api/cx/book?owner=o1&days=7");
    await b.ask("/api/me", "HEAD");
    expect(f.calls.map((c) => c.url)).toEqual(["/api/cx/book?owner=o1&days=7", "/api/me"]);
    expect(f.calls[0]?.init).toMatchObject({ method: "GET", credentials: "same-origin", redirect: "error" });
    expect(f.calls[1]?.init.method).toBe("HEAD");
    expect(b.log.every((e) => e.mode === "live")).toBe(true);
  });

  it("reads its configuration at each request, so a new scenario applies at once", async () => {
    const f = fakeFetch();
    const b = setup({ fetchImpl: f.impl, config: { mode: "demo", scenario: "empty" } });
    await b.ask(`${P}/me`);
    b.setConfig({ mode: "demo", scenario: "signed-out" });
    await b.ask(`${P}/me`);
    expect(f.calls.map((c) => c.url)).toEqual([`${P}/me?scenario=empty`, `${P}/me?scenario=signed-out`]);
  });
});

describe("openBroker: answers", () => {
  it("passes status, content type and body through, and nothing else of the headers", async () => {
    const body = JSON.stringify({ error: "crm_not_synced", hint: "Wait for the first sync." });
    const f = fakeFetch(
      () => new Response(body, { status: 503, headers: { "content-type": "application/json; charset=utf-8", "set-cookie": "a=b", "x-secret": "s" } }),
    );
    const b = setup({ fetchImpl: f.impl });
    const r = await b.ask(`${P}/crm/customers/companies`);
    expect(r).toEqual({ type: "response", id: 1, status: 503, headers: { "content-type": "application/json; charset=utf-8" }, body });
  });

  it("defaults the content type to JSON and keeps 2xx bodies byte for byte", async () => {
    const text = '{"email":"ada@example.test","emoji":"📈"}';
    // Bytes, so the Response has no content type of its own.
    const f = fakeFetch(() => new Response(new TextEncoder().encode(text), { status: 200 }));
    const b = setup({ fetchImpl: f.impl });
    const r = await b.ask(`${P}/me`);
    expect(r.status).toBe(200);
    expect(r.body).toBe(text);
    expect(r.headers).toEqual({ "content-type": "application/json" });
  });

  it("answers 502 in the error envelope when the API cannot be reached", async () => {
    const f = fakeFetch(() => Promise.reject(new TypeError("network down")));
    const b = setup({ fetchImpl: f.impl });
    const r = await b.ask(`${P}/me`);
    expect(r.status).toBe(502);
    expect(bodyOf(r)).toMatchObject({ error: "upstream_unreachable" });
  });

  it("refuses to hand over a body larger than the limit", async () => {
    const f = fakeFetch(() => new Response("x".repeat(BROKER_BODY_MAX + 1)));
    const b = setup({ fetchImpl: f.impl });
    const r = await b.ask(`${P}/me`);
    expect(r.status).toBe(502);
    expect(bodyOf(r).error).toBe("response_too_large");
  });

  it("logs each read with its path relative to the base, status, time taken and mode", async () => {
    let t = 1_000;
    const f = fakeFetch(() => {
      t += 42;
      return Response.json({}, { status: 404 });
    });
    const b = setup({ fetchImpl: f.impl, now: () => t });
    await b.ask(`${P}/connections/tracker/check`);
    expect(b.log).toEqual([{ path: "/connections/tracker/check", status: 404, ms: 42, mode: "demo", at: 1_042, method: "GET" }]);
  });

  it("says which answers the broker gave itself, so a render report can tell a refusal from the API's own 4xx", async () => {
    const f = fakeFetch(() => Response.json({ error: "tracker_not_connected" }, { status: 401 }));
    const b = setup({ fetchImpl: f.impl });
    await b.ask(`${P}/vendors/tracker/issues`);
    await b.ask(`${P}/../me`);
    await b.ask("https://elsewhere.example/x");
    await b.ask(`${P}/me`, "delete");
    expect(b.log[0]).toEqual(expect.objectContaining({ path: "/vendors/tracker/issues", status: 401, method: "GET" }));
    expect(b.log[0]?.refused).toBeUndefined();
    expect(b.log.slice(1).map((e) => [e.method, e.path, e.status, e.refused?.error])).toEqual([
      ["GET", `${P}/../me`, 400, "invalid_path"],
      ["GET", "https://elsewhere.example/x", 400, "invalid_path"],
      ["DELETE", `${P}/me`, 405, "method_not_allowed"],
    ]);
    expect(b.log[1]?.refused?.reason).toMatch(/segments/);
    expect(f.calls).toHaveLength(1);
  });

  it("logs the error code of the API's own refusals, read only from a small envelope", async () => {
    const answers = [
      () => Response.json({ error: "support_not_connected", hint: "Connect Intercom at /connections." }, { status: 401 }),
      () => Response.json({ error: "Support_Not_Connected" }, { status: 401 }),
      () => Response.json({ error: 7 }, { status: 403 }),
      () => new Response("<html>bad gateway</html>", { status: 502 }),
      () => Response.json({ error: "support_not_connected", pad: "x".repeat(5000) }, { status: 401 }),
      () => Response.json({ error: "support_not_connected" }, { status: 200 }),
    ];
    let n = 0;
    const f = fakeFetch(() => (answers[n++] ?? answers[0]!)());
    const b = setup({ fetchImpl: f.impl });
    for (let i = 0; i < answers.length; i++) await b.ask(`${P}/vendors/support/conversations`);
    expect(b.log.map((e) => e.error)).toEqual(["support_not_connected", undefined, undefined, undefined, undefined, undefined]);
  });
});

describe("openBroker: the port", () => {
  it("passes a render's notices on as the protocol shapes them", async () => {
    const b = setup();
    b.post({ type: "error", kind: "error", message: "Uncaught TypeError: x", line: 12, column: 3 });
    b.post({ type: "console", level: "warn", message: "a\u0000b" });
    b.post({ type: "refusal", method: "POST", path: `${P}/me`, error: "method_not_allowed", reason: "no" });
    b.post({ type: "painted", id: 2 });
    b.post({ type: "error", kind: "error", message: "m", line: 0, column: 3 });
    b.post({ type: "refusal", method: "post", path: "/x", error: "method_not_allowed", reason: "no" });
    await b.flush();
    expect(b.notices).toEqual([
      { type: "error", kind: "error", message: "Uncaught TypeError: x", line: 12, column: 3 },
      { type: "console", level: "warn", message: "a b" },
      { type: "refusal", method: "POST", path: `${P}/me`, error: "method_not_allowed", reason: "no" },
      { type: "painted", id: 2 },
    ]);
  });

  it("passes scroll and snapshot notices on, and drops what the protocol does not know", async () => {
    const b = setup();
    b.post({ type: "scroll", y: 320 });
    b.post({ type: "snapshot", takenAt: "2026-11-20T09:00:00Z" });
    b.post({ type: "snapshot" });
    b.post({ type: "snapshot", takenAt: "last Tuesday" });
    b.post({ type: "init", html: "<p>x</p>", apiBase: P });
    b.post({ type: "fetch", id: "1", method: "GET", path: `${P}/me` });
    b.post("fetch");
    await b.flush();
    expect(b.notices).toEqual([{ type: "scroll", y: 320 }, { type: "snapshot", takenAt: "2026-11-20T09:00:00Z" }, { type: "snapshot" }]);
    expect(b.received).toEqual([]);
    expect(b.log).toEqual([]);
  });

  it("stops answering once closed", async () => {
    const f = fakeFetch();
    const b = setup({ fetchImpl: f.impl });
    const shut = b.shut();
    b.close();
    b.post({ type: "fetch", id: 9, method: "GET", path: `${P}/me` });
    await shut;
    expect(f.calls).toEqual([]);
    expect(b.received).toEqual([]);
  });

  it("a read still in flight when the broker closes is never answered", async () => {
    let release: () => void = () => {};
    const f = fakeFetch(() => new Promise<Response>((resolve) => (release = () => resolve(Response.json({})))));
    const b = setup({ fetchImpl: f.impl });
    void b.ask(`${P}/me`);
    await b.flush();
    expect(f.calls).toHaveLength(1);
    const shut = b.shut();
    b.close();
    release();
    await b.relaysDone();
    await shut;
    expect(b.received).toEqual([]);
    expect(b.log).toEqual([]);
  });
});

describe("the agreed reads on live data", () => {
  it("answers only the paths the viewer agreed to, and logs the refusal", async () => {
    const f = fakeFetch();
    const b = setup({ config: { mode: "live", grant: grantFor(["/me", "/crm/:instance/deals"]) }, fetchImpl: f.impl });
    expect((await b.ask("/api/me")).status).toBe(200);
    expect((await b.ask("/api/crm/users/deals?limit=5")).status).toBe(200);
    const refused = await b.ask("/api/crm/users/contacts");
    expect(refused.status).toBe(403);
    expect(bodyOf(refused).error).toBe("read_not_agreed");
    expect(bodyOf(refused).hint).toContain("/crm/users/contacts");
    expect(f.calls.map((c) => c.url)).toEqual(["/api/me", "/api/crm/users/deals?limit=5"]);
    expect(b.log.map((e) => [e.path, e.status])).toContainEqual(["/crm/users/contacts", 403]);
  });

  it("refuses everything when the manifest is empty, and leaves demo data alone", async () => {
    const f = fakeFetch();
    const live = setup({ config: { mode: "live", grant: grantFor([]) }, fetchImpl: f.impl });
    expect((await live.ask("/api/me")).status).toBe(403);
    expect(f.calls).toEqual([]);
    const demo = setup({ config: { mode: "demo" }, fetchImpl: f.impl });
    expect((await demo.ask(`${P}/me`)).status).toBe(200);
  });

  it("serves no live data without a genuine grant: a missing one, a copy or a look-alike is refused", async () => {
    const f = fakeFetch();
    const real = grantFor("all");
    const lookalikes: unknown[] = [
      undefined,
      null,
      { paths: null, allows: () => true },
      Object.create(Object.getPrototypeOf(real) as object),
      { ...real },
      structuredClone({ paths: null }),
    ];
    for (const grant of lookalikes) {
      // What a page could hand over only by getting past the types.
      const b = setup({ config: { mode: "live", grant } as unknown as BrokerConfig, fetchImpl: f.impl });
      const refused = await b.ask("/api/me");
      expect(refused.status).toBe(403);
      expect(bodyOf(refused).error).toBe("live_not_granted");
      expect(b.log.at(-1)?.refused?.error).toBe("live_not_granted");
    }
    expect(f.calls).toEqual([]);
    const granted = setup({ config: { mode: "live", grant: real }, fetchImpl: f.impl });
    expect((await granted.ask("/api/me")).status).toBe(200);
    expect(f.calls.map((c) => c.url)).toEqual(["/api/me"]);
  });
});

describe("links", () => {
  it("decides a link against the addresses answered on this port, and nothing the frame says", async () => {
    const channel = new MessageChannel();
    const decided: { href: string; ok: boolean }[] = [];
    const got = new Promise<void>((resolve) => {
      const close = openBroker(channel.port1, {
        config: () => ({ mode: "demo" }),
        limiter: new RequestLimiter(),
        origin: "https://dash.example",
        fetchImpl: fakeFetch((url) =>
          url.includes("/vendors/tracker/issues") ? Response.json({ issues: [{ url: "https://tracker.demo.test/issue/ENG-1" }] }) : Response.json({ error: "not_found", hint: "https://leak.example/x" }, { status: 404 }),
        ).impl,
        onLink: (request, decision) => {
          decided.push({ href: request.href, ok: decision.ok });
          if (decided.length === 4) resolve();
        },
      });
      open.push(() => {
        close();
        channel.port2.close();
      });
    });
    const answered = (id: number) =>
      new Promise<void>((resolve) => {
        const prev = channel.port2.onmessage;
        channel.port2.onmessage = (e: MessageEvent<ResponseMessage>) => {
          if (e.data.id === id) resolve();
          else prev?.call(channel.port2, e);
        };
      });
    // Asked for before any answer named it: refused.
    channel.port2.postMessage({ type: "link", href: "https://tracker.demo.test/issue/ENG-1", via: "click" });
    const first = answered(1);
    channel.port2.postMessage({ type: "fetch", id: 1, method: "GET", path: `${P}/vendors/tracker/issues` });
    await first;
    const second = answered(2);
    channel.port2.postMessage({ type: "fetch", id: 2, method: "GET", path: `${P}/me` });
    await second;
    channel.port2.postMessage({ type: "link", href: "https://tracker.demo.test/issue/ENG-1", via: "click" });
    // A refusal's text names an address, but a refusal is not an answer.
    channel.port2.postMessage({ type: "link", href: "https://leak.example/x", via: "click" });
    channel.port2.postMessage({ type: "link", href: "/docs", via: "click" });
    await got;
    expect(decided).toEqual([
      { href: "https://tracker.demo.test/issue/ENG-1", ok: false },
      { href: "https://tracker.demo.test/issue/ENG-1", ok: true },
      { href: "https://leak.example/x", ok: false },
      { href: "/docs", ok: true },
    ]);
  });
});
