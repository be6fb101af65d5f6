import { expect, test, type APIRequestContext } from "@playwright/test";
import { z } from "zod";
import { endpoints } from "../lib/contract/endpoints";
import { draftCreated, draftEvent, draftInput, draftUpdated } from "../lib/contract/playground";
import { cxBookRow } from "../lib/contract/resources";

// llms.txt as the production server serves it: the shapes an agent codes against must be the
// contract's own, not `unknown`. The unit tests render the text in-process; only this suite sees
// what `next start` answers.

type Json = { [key: string]: unknown };
const isObj = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** The JSON Schema of a zod schema, every `$ref` replaced by the `$defs` entry it names. */
function inlined(schema: z.ZodType, io: "input" | "output" = "output"): Json {
  const raw = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Json;
  const defs = isObj(raw.$defs) ? raw.$defs : {};
  const expand = (v: unknown, seen: readonly string[]): unknown => {
    if (Array.isArray(v)) return v.map((x) => expand(x, seen));
    if (!isObj(v)) return v;
    if (typeof v.$ref === "string") {
      const name = v.$ref.replace(/^#\/\$defs\//, "");
      if (seen.includes(name)) return {};
      const { $ref: _ref, ...beside } = v;
      return expand({ ...(defs[name] as Json), ...beside }, [...seen, name]);
    }
    return Object.fromEntries(Object.entries(v).filter(([k]) => k !== "$defs").map(([k, x]) => [k, expand(x, seen)]));
  };
  return expand(raw, []) as Json;
}

/** A schema that admits anything: the only place where `unknown` is the contract's meaning. */
const SHAPE_KEYWORDS = ["type", "anyOf", "oneOf", "allOf", "enum", "const", "properties", "items", "$ref", "not"];
const admitsAnything = (s: Json) => !SHAPE_KEYWORDS.some((k) => k in s);

/** Property names (and `[key: string]` for record values) whose schema holds an "anything". */
function namesMeaningUnknown(schema: Json): Set<string> {
  const names = new Set<string>();
  const visit = (s: unknown, name: string): void => {
    if (!isObj(s)) return;
    if (admitsAnything(s) && name) names.add(name);
    for (const key of ["anyOf", "oneOf", "allOf"]) if (Array.isArray(s[key])) (s[key] as unknown[]).forEach((b) => visit(b, name));
    if (isObj(s.items)) visit(s.items, name);
    if (isObj(s.additionalProperties)) visit(s.additionalProperties, "[key: string]");
    if (isObj(s.properties)) for (const [k, v] of Object.entries(s.properties)) visit(v, k);
  };
  visit(schema, "");
  return names;
}

/** Every schema llms.txt prints. */
const printed: Json[] = [
  inlined(draftInput, "input"),
  inlined(draftCreated),
  inlined(draftUpdated),
  inlined(draftEvent),
  ...endpoints.map((e) => inlined(e.response)),
];

/** The TypeScript blocks of the text, trailing `// …` comments removed. */
function typeBlocks(text: string): string[] {
  return [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => (m[1] ?? "").replace(/\s*\/\/.*$/gm, ""));
}

/** The TypeScript block right after a heading. */
function blockAfter(text: string, heading: string): string {
  const at = text.indexOf(`\n${heading}\n`);
  expect(at, heading).toBeGreaterThan(-1);
  const block = /```ts\n([\s\S]*?)```/.exec(text.slice(at))?.[1];
  expect(block, `a ts block after ${heading}`).toBeDefined();
  return block ?? "";
}

/** The whole protocol, where llms.txt (the index) points for every shape. */
async function llms(request: APIRequestContext): Promise<string> {
  const res = await request.get("/dashboards/playground/llms-full.txt");
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toContain("text/plain");
  return res.text();
}

test("llms.txt is an index an agent reads in one pass, linking the whole protocol and each endpoint's page", async ({ request }) => {
  const res = await request.get("/dashboards/playground/llms.txt");
  expect(res.headers()["content-type"]).toContain("text/plain");
  const index = await res.text();
  expect(Buffer.byteLength(index)).toBeLessThanOrEqual(15 * 1024);
  const full = /(https?:\/\/\S+\/dashboards\/playground\/llms-full\.txt)/.exec(index)?.[1];
  expect(full).toBeTruthy();
  expect((await request.get(new URL(full!).pathname)).status()).toBe(200);
  // Each endpoint's line links its own Markdown page, which answers.
  for (const e of endpoints) expect(index, e.path).toMatch(new RegExp(`^- \\[\`${e.path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}[?\`][^\\]]*\\]\\(/docs/[a-z0-9-]+\\.md\\)`, "m"));
  const page = /\]\((\/docs\/get-cx-book\.md)\)/.exec(index)?.[1];
  expect((await request.get(page!)).status()).toBe(200);
});

test("llms.txt prints the contract's shapes: no `unknown` the contract does not mean", async ({ request }) => {
  const text = await llms(request);
  const allowed = new Set(printed.flatMap((s) => [...namesMeaningUnknown(s)]));
  const blocks = typeBlocks(text);
  expect(blocks.length).toBeGreaterThanOrEqual(endpoints.length + 2);
  const stray = blocks
    .flatMap((b) => b.split("\n"))
    .filter((line) => /\bunknown\b/.test(line))
    .filter((line) => !allowed.has(line.trim().replace(/\??:.*$/, "")));
  expect(stray, `unknown where the contract has a shape (allowed: ${[...allowed].join(", ") || "none"})`).toEqual([]);
});

test("llms.txt shows the CX book row field by field, and where the draft's URLs are", async ({ request }) => {
  const text = await llms(request);

  const book = blockAfter(text, "### GET /cx/book");
  const row = inlined(cxBookRow);
  const required = new Set(row.required as string[]);
  for (const key of Object.keys(row.properties as Json)) {
    expect(book, `/cx/book row field ${key}`).toMatch(new RegExp(`^\\s*${key}${required.has(key) ? "" : "\\?"}: `, "m"));
  }
  expect(book).toMatch(/^\s*companyId: string; \/\/ CRM portal company id; the join key$/m);
  expect(book).toMatch(/^\s*arr\?: number \| null; \/\/ DISTRICT GRAIN/m);
  expect(book).toMatch(/^\s*band: "STRONG" \| "GOOD" \| "MODERATE" \| "POOR" \| "NO_BASELINE";$/m);
  expect(book).toMatch(/^\s*byKind: Record<"call" \| "meeting" \| "email", number>; \/\/ Counts within the window$/m);
  expect(book).toMatch(/^\s*basis: "real" \| "activity";$/m);
  expect(book).toMatch(/^\s*waitingOn: string; \/\/ Render this text, not zeroes$/m);

  const created = blockAfter(text, "2. The answer (201):");
  expect(created).toMatch(/^\s*postUrl: string; \/\/ Carries the secret write token/m);
  expect(created).toMatch(/^\s*watchUrl: string; \/\/ Carries only the read id/m);
  expect(created).toMatch(/^\s*severity: "error" \| "warning" \| "info";$/m);

  const me = blockAfter(text, "### GET /me");
  expect(me).toMatch(/^\s*email: string;$/m);
  expect(me).toMatch(/^\s*groups\?: string\[\];$/m);
});

/** The fenced blocks of a language within one H2 section of the text. */
function sectionBlocks(text: string, title: string, lang: string): string[] {
  const start = text.indexOf(`\n## ${title}\n`);
  expect(start, title).toBeGreaterThan(-1);
  const end = text.indexOf("\n## ", start + 1);
  return [...text.slice(start, end).matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)\\n```", "g"))].map((m) => m[1] ?? "");
}

/** Reads a draft's event stream until `until` is in it, then stops reading. */
async function streamUntil(url: string, until: string): Promise<string> {
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), 15_000);
  const res = await fetch(url, { signal: ac.signal });
  expect(res.headers.get("content-type")).toContain("text/event-stream");
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let seen = "";
  try {
    while (!seen.includes(until)) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += decoder.decode(value, { stream: true });
    }
  } finally {
    clearTimeout(timer);
    ac.abort();
  }
  return seen;
}

test("the worked example does what llms.txt says: its bodies, answers and the event a watcher receives", async ({ request, baseURL }) => {
  const text = await llms(request);
  const [createBody, shownCreated, updateBody, shownUpdated] = sectionBlocks(text, "Worked example: create, update, watch", "json").map((b) => JSON.parse(b) as Json);
  const [shownFrame] = sectionBlocks(text, "Worked example: create, update, watch", "text");

  const createRes = await request.post("/dashboards/playground/draft", { data: createBody });
  expect(createRes.status()).toBe(201);
  const created = (await createRes.json()) as Record<string, string | number | unknown[]>;
  // Same fields and findings; only the ids and the URLs that carry them differ.
  const withIds = (body: Json, id: string, token?: string) =>
    JSON.parse(JSON.stringify(body).replaceAll(String(shownCreated?.id), id).replaceAll(String(shownCreated?.postUrl).split("/").pop() ?? "", token ?? "")) as Json;
  const token = String(created.postUrl).split("/").pop() ?? "";
  expect(created).toEqual(withIds(shownCreated ?? {}, String(created.id), token));
  expect(String(created.postUrl).startsWith(String(baseURL))).toBe(true);

  const watching = streamUntil(String(created.eventsUrl), "\nid: 2\n");
  const updateRes = await request.post(new URL(String(created.postUrl)).pathname, { data: updateBody });
  expect(updateRes.status()).toBe(200);
  expect(await updateRes.json()).toEqual(withIds(shownUpdated ?? {}, String(created.id)));

  const stream = await watching;
  expect(stream).toContain(`${shownFrame}\n\n`);
});

test("the CSM book recipe finds the viewer's own book on the demo API", async ({ request }) => {
  const get = async (path: string) => {
    const res = await request.get(`/dashboards/playground/api${path}`);
    expect(res.status(), path).toBe(200);
    return res.json();
  };
  const me = await get("/me");
  const owners = await get("/cx/owners");
  expect(owners.ok).toBe(true);
  const mine = (owners.data.owners as { ownerId: string; email: string }[]).find((o) => o.email.toLowerCase() === String(me.email).toLowerCase());
  expect(mine, `an owner with ${me.email}`).toBeDefined();
  const book = await get(`/cx/book?owner=${encodeURIComponent(mine?.ownerId ?? "")}`);
  expect(book.ok).toBe(true);
  expect(book.data.ownerId).toBe(mine?.ownerId);
  expect(book.data.rows.length).toBeGreaterThan(0);
});
