import fc from "fast-check";
import { endpoints } from "../../lib/contract/endpoints";
import { variantGlossary } from "../../lib/demo-api/data";

// What the fuzz suite sends: generated requests to every route family of the HTTP edge. A
// generated request is plain data, so a failure prints as it was made; the values that only
// exist at run time (the lane's session, CSRF token, draft tokens, handle) are placeholders,
// filled in when the request is sent (see `resolve`).
//
//   path/query: {READ} {WRITE} the lane's own draft, {OREAD} {OWRITE} another lane's,
//               {ME} the lane's handle, {THEM} another person's, {OWNER} a CSM owner id,
//               {CURSOR} a cursor the API issued
//   headers:    {SESSION} the lane's session token, {CSRF} its CSRF token,
//               {ORIGIN} the server's origin, {HOST} its host

export type BodySpec =
  | { kind: "none" }
  | { kind: "text"; text: string }
  | { kind: "bytes"; base64: string }
  | { kind: "huge"; bytes: number; fill: string }
  | { kind: "nested"; depth: number };

export interface Shape {
  family: string;
  method: string;
  /** Raw path, possibly malformed, with placeholders. */
  path: string;
  /** Raw query string without `?` ("" for none). */
  query: string;
  headers: [string, string][];
  body: BodySpec;
}

export const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

// ---------------------------------------------------------------------------------------------
// Pieces

/** Percent-encoding that never throws: lone surrogates become their (invalid) WTF-8 bytes. */
export function enc(s: string): string {
  let out = "";
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const isHigh = c >= 0xd800 && c <= 0xdbff;
    const next = s.charCodeAt(i + 1);
    if (isHigh && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(s.slice(i, i + 2));
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      out += `%${(0xe0 | (c >> 12)).toString(16).toUpperCase()}%${(0x80 | ((c >> 6) & 0x3f)).toString(16).toUpperCase()}%${(0x80 | (c & 0x3f)).toString(16).toUpperCase()}`;
    } else {
      out += encodeURIComponent(s[i]!);
    }
  }
  return out;
}

/** Percent-sequences that do not decode, or decode to something surprising. */
const MALFORMED = [
  "%E0%A4%A", // truncated three-byte sequence
  "%E0%A4",
  "%",
  "%%",
  "%zz",
  "%u0041",
  "a%E0%A4%Ab",
  "%C0%AF", // overlong "/"
  "%C0%80", // overlong NUL
  "%E0%80%AF", // overlong "/" in three bytes
  "%ED%A0%80", // a UTF-16 surrogate as UTF-8
  "%F8%88%80%80%80", // a five-byte form
  "%FF",
  "%fe%ff",
  "%25E0", // double-encoded: decodes to a malformed escape
  "%25E0%25A4%25A",
  "%2525",
  "%00",
  "%0A",
  "%0D%0A",
  "%2F",
  "%5C",
  "%2e%2e",
  "%2E",
  "%3F",
  "%23",
] as const;

const malformed = fc.constantFrom(...MALFORMED);
const asciiSegment = fc.stringMatching(/^[A-Za-z0-9._~!$&'()*+,;=:@-]{1,24}$/);
const unicodeSegment = fc.oneof(fc.string({ unit: "grapheme", minLength: 1, maxLength: 8 }), fc.string({ unit: "binary", minLength: 1, maxLength: 8 })).map(enc);
const longSegment = fc.constantFrom(300, 2_000, 6_000).chain((n) => fc.constantFrom("a", "%41", "%E0%A4%A", "-").map((u) => u.repeat(Math.ceil(n / u.length))));
const lowerSlug = fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,70}$/);

/** Any one path segment. */
export const segment = fc.oneof(
  { weight: 4, arbitrary: asciiSegment },
  { weight: 3, arbitrary: malformed },
  { weight: 2, arbitrary: unicodeSegment },
  { weight: 1, arbitrary: longSegment },
  { weight: 1, arbitrary: fc.constantFrom("", ".", "..", "~", "%20", "+", "null", "undefined", "__proto__", "constructor") },
);

const pick = <T>(values: readonly T[], weight: number, others: fc.Arbitrary<T>, otherWeight: number) =>
  fc.oneof({ weight, arbitrary: fc.constantFrom(...values) }, { weight: otherWeight, arbitrary: others });

// ---------------------------------------------------------------------------------------------
// Queries

const BAD_DATES = ["2024-02-30", "2024-13-01", "0000-01-01", "0099-12-31", "1969-12-31", "99999-01-01", "2024-1-1", "2024-01-01T00:00:00Z", "-2024-01-01", "+002024-01-01", "1970-01-01", "9999-12-31", "2024-02-29", "2023-02-29"];
const BIG_NUMBERS = ["0", "-1", "1e309", "1e3", "99999999999999999999999", "9007199254740993", "NaN", "Infinity", "-0", "0x10", "1.5", " 5", "5 ", "٣", "１", "200", "201", "365", "366", "1"];

const queryValue = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...BAD_DATES).map(enc) },
  { weight: 3, arbitrary: fc.constantFrom(...BIG_NUMBERS).map(enc) },
  { weight: 2, arbitrary: fc.constantFrom("true", "false", "TRUE", "1", "yes", "real", "activity", "rich", "empty", "default", "signed-out", "{OWNER}", "{CURSOR}", "{READ}") },
  { weight: 2, arbitrary: fc.constantFrom(...Object.keys(variantGlossary)) },
  { weight: 2, arbitrary: malformed },
  { weight: 2, arbitrary: unicodeSegment },
  { weight: 1, arbitrary: fc.constantFrom("", "=", "a=b", "%26", "&", "+") },
  { weight: 1, arbitrary: longSegment },
  { weight: 2, arbitrary: asciiSegment },
);

const KNOWN_KEYS = ["limit", "cursor", "days", "from", "to", "owner", "basis", "activeOnly", "project", "scenario", "variant", "revision", "dataMode", "dash", "baseRevision"];
const queryKey = pick(KNOWN_KEYS, 6, fc.oneof(asciiSegment, malformed, unicodeSegment, fc.constantFrom("", "__proto__", "constructor", "a[b]", "limit[]")), 2);

/** A query built from the keys a route knows (given first) and any others, repeated or not. */
function query(known: readonly string[]): fc.Arbitrary<string> {
  const key = known.length ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: queryKey }) : queryKey;
  const pair = fc.tuple(key, queryValue, fc.constantFrom("=", "=", "=", "")).map(([k, v, eq]) => (eq ? `${k}=${v}` : k));
  return fc
    .array(pair, { maxLength: 4 })
    .chain((pairs) => fc.tuple(fc.constant(pairs), fc.boolean(), fc.nat({ max: 9 })))
    .map(([pairs, repeat, n]) => (repeat && pairs.length ? [...pairs, pairs[n % pairs.length]!] : pairs).join("&"));
}

// ---------------------------------------------------------------------------------------------
// Headers

const oddChars = fc.string({ unit: "binary-ascii", maxLength: 40 }).map((s) => s.replace(/[^\t\x20-\x7e\x80-\xff]/g, ""));
const headerText = fc.oneof(asciiSegment, oddChars, fc.constantFrom("", " ", "%E0%A4%A", "null", "a".repeat(3000)));

const CONTENT_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "application/json;charset=UTF-8",
  'application/json; charset="utf-8"',
  "application/json; charset=utf-16le",
  "application/json; charset=iso-8859-1",
  "application/json; charset=",
  "application/json;;;",
  "Application/JSON",
  "application/json, text/html",
  "application/jsonp",
  "text/html",
  "text/html; charset=utf-8",
  "text/html; charset=utf8",
  "text/html; charset=latin1",
  "text/html; charset=UTF-16",
  'text/html; charset="unicode-1-1-utf-8"',
  "text/html;charset",
  "text/plain",
  "multipart/form-data",
  "multipart/form-data; boundary=x",
  "application/x-www-form-urlencoded",
  "*/*",
  "json",
];

const cookie = fc.oneof(
  { weight: 5, arbitrary: fc.constant("dd_session={SESSION}") },
  { weight: 1, arbitrary: fc.constant("dd_session={SESSION}; dd_session=x") },
  { weight: 1, arbitrary: fc.constant("other=1; dd_session={SESSION}") },
  { weight: 2, arbitrary: headerText.map((v) => `dd_session=${v}`) },
  { weight: 1, arbitrary: headerText },
  { weight: 1, arbitrary: fc.constantFrom("dd_session=", "dd_session", "=;;=", "dd_session=%E0%A4%A", `dd_session=${"A".repeat(4000)}`, "dd_session=\"quoted\"") },
);

const humanHeaders = fc.oneof(
  { weight: 3, arbitrary: fc.constant<[string, string][]>([]) },
  // What the site's own pages send: every write check passes.
  { weight: 4, arbitrary: fc.constant<[string, string][]>([["x-csrf-token", "{CSRF}"], ["sec-fetch-site", "same-origin"], ["origin", "{ORIGIN}"]]) },
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.option(fc.oneof(fc.constant("{CSRF}"), headerText), { nil: undefined }),
        fc.option(fc.constantFrom("same-origin", "same-site", "cross-site", "none", "SAME-ORIGIN", ""), { nil: undefined }),
        fc.option(fc.oneof(fc.constantFrom("{ORIGIN}", "null", "http://evil.test", "http://127.0.0.1", "{ORIGIN}/", "HTTP://127.0.0.1"), headerText), { nil: undefined }),
      )
      .map(([csrf, site, origin]) => {
        const h: [string, string][] = [];
        if (csrf !== undefined) h.push(["x-csrf-token", csrf]);
        if (site !== undefined) h.push(["sec-fetch-site", site]);
        if (origin !== undefined) h.push(["origin", origin]);
        return h;
      }),
  },
);

const extraHeader = fc.oneof(
  fc.tuple(fc.constant("accept"), fc.constantFrom("application/json", "text/html", "text/markdown", "text/event-stream", "*/*", "text/markdown;q=0", "image/png")),
  fc.tuple(fc.constant("host"), fc.constantFrom("localhost:{PORT}", "evil.test", "[::1]:{PORT}", "127.0.0.1:99999", "a..b", "EVIL.TEST:80", "x_y:1", "127.0.0.1")),
  fc.tuple(fc.constantFrom("x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "last-event-id", "if-none-match", "range", "x-save-note", "x-middleware-subrequest", "x-invoke-path", "rsc", "next-router-prefetch", "next-action"), headerText),
);

// ---------------------------------------------------------------------------------------------
// Bodies

const hugeBody = fc.record({ kind: fc.constant("huge" as const), bytes: fc.constantFrom(16 * 1024 + 1, 2 * 1024 * 1024 + 1, 64 * 1024), fill: fc.constantFrom("a", "{", "\u00ff") });
const INVALID_UTF8 = ["ff", "fe", "c0af", "c080", "eda080", "e0a4", "f88880808080", "80", "c3", "efbbbf"];
const invalidUtf8 = fc
  .tuple(fc.constantFrom(...INVALID_UTF8), fc.constantFrom('{"html":"', "<p>", "", '{"op":"add","href":"/~/x","label":"'), fc.constantFrom('"}', "</p>", ""))
  .map(([bad, pre, post]) => ({ kind: "bytes" as const, base64: Buffer.concat([Buffer.from(pre), Buffer.from(bad, "hex"), Buffer.from(post)]).toString("base64") }));
const randomBytes = fc.uint8Array({ maxLength: 2048 }).map((b) => ({ kind: "bytes" as const, base64: Buffer.from(b).toString("base64") }));

const htmlDoc = fc.oneof(
  fc.constant("<!doctype html><title>fz</title><p>fuzz</p>"),
  fc.constant("<p>x</p>"),
  fc.constant("   "),
  fc.constant("<script>new RTCPeerConnection()</script>"),
  fc.string({ unit: "grapheme", maxLength: 40 }),
);

const validish = fc.oneof(
  htmlDoc.map((html) => ({ html })),
  fc.record({ html: htmlDoc, dash: fc.oneof(lowerSlug, asciiSegment), baseRevision: fc.oneof(fc.integer({ min: -2, max: 5 }), fc.constant(1e308)) }, { requiredKeys: ["html"] }),
  fc.record({ html: htmlDoc, dataMode: fc.constantFrom("demo", "live", "LIVE", ""), scenario: fc.constantFrom("default", "new-customer", "nope") }, { requiredKeys: ["html"] }),
  fc.record({ html: htmlDoc, examples: fc.dictionary(fc.constantFrom("/me", "/crm/:instance/deals", "/nope", ""), fc.constantFrom(...Object.keys(variantGlossary), "nope")) }),
  fc.record({ op: fc.constantFrom("add", "remove"), href: fc.constantFrom("/~/{ME}/fz-a", "/", "//evil.test", "/~/{THEM}/x", "javascript:alert(1)", "/\\evil"), label: fc.string({ maxLength: 30 }) }, { requiredKeys: ["op", "href"] }),
  fc.record({ op: fc.constant("order"), hrefs: fc.array(fc.constantFrom("/~/{ME}/fz-a", "/", "/x"), { maxLength: 4 }) }),
  fc.record({ path: fc.oneof(fc.constant(null), fc.constantFrom("/~/{ME}/fz-a", "/", "/~/", "/~/{THEM}/x", "//x")) }),
  fc.record({ op: fc.constantFrom("add", "remove", "ADD"), handle: fc.oneof(fc.constantFrom("{THEM}", "{ME}", "nobody", ""), asciiSegment) }),
);

/** Values of the wrong type where the routes expect their fields. */
const wrongShape = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.record({ html: fc.jsonValue({ maxDepth: 2 }) }),
  fc.record({ op: fc.jsonValue({ maxDepth: 1 }), href: fc.jsonValue({ maxDepth: 1 }), hrefs: fc.jsonValue({ maxDepth: 1 }) }, { requiredKeys: [] }),
  fc.record({ path: fc.jsonValue({ maxDepth: 1 }) }),
  fc.constant(JSON.parse('{"__proto__":{"html":"x"},"html":"<p>x</p>"}') as unknown),
);

const jsonText = (v: fc.Arbitrary<unknown>) => v.map((x) => ({ kind: "text" as const, text: JSON.stringify(x) ?? "null" }));

export const body: fc.Arbitrary<BodySpec> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ kind: "none" as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: "text" as const, text: "" }) },
  { weight: 6, arbitrary: jsonText(validish) },
  { weight: 4, arbitrary: jsonText(wrongShape) },
  { weight: 2, arbitrary: htmlDoc.map((text) => ({ kind: "text" as const, text })) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 200 }).map((text) => ({ kind: "text" as const, text })) },
  { weight: 1, arbitrary: fc.constantFrom('{"html":', "{", "[", "nul", '{"html":"x"}{"html":"y"}', "email=member%40demo.test").map((text) => ({ kind: "text" as const, text })) },
  { weight: 2, arbitrary: randomBytes },
  { weight: 2, arbitrary: invalidUtf8 },
  { weight: 1, arbitrary: fc.constantFrom(64, 10_000).map((depth) => ({ kind: "nested" as const, depth })) },
  { weight: 1, arbitrary: hugeBody },
);

// ---------------------------------------------------------------------------------------------
// Paths, by route family

const TOKENS = ["{READ}", "{WRITE}", "{OREAD}", "{OWRITE}"];
const token = pick(TOKENS, 5, segment, 2);
const handle = pick(["{ME}", "{THEM}", "member", "csm", "admin"], 4, segment, 2);
const slug = pick(["fz-a", "fz-b", "my-book"], 3, fc.oneof(lowerSlug, segment), 3);

const method = (weights: Partial<Record<string, number>>) =>
  fc.oneof(...Object.entries(weights).map(([m, weight]) => ({ weight: weight ?? 1, arbitrary: fc.constant(m) })));
const readMethods = method({ GET: 12, HEAD: 2, POST: 2, PUT: 1, PATCH: 1, DELETE: 1, OPTIONS: 1 });
const writeMethods = method({ POST: 12, GET: 2, HEAD: 1, PUT: 1, PATCH: 1, DELETE: 1, OPTIONS: 1 });

interface PathPart {
  family: string;
  method: string;
  path: string;
  query: string;
}

function paramValue(values: readonly string[] | undefined): fc.Arbitrary<string> {
  const ids = fc.constantFrom("{OWNER}", "call-1", "1", "0", "-1");
  return values?.length ? pick(values, 5, fc.oneof(segment, ids), 2) : fc.oneof(ids, segment);
}

const registry: fc.Arbitrary<PathPart> = fc
  .tuple(fc.constantFrom(...endpoints), fc.constantFrom("/api", "/dashboards/playground/api"))
  .chain(([e, base]) => {
    const names = [...e.path.matchAll(/:([a-z]+)/g)].map((m) => m[1]!);
    const params = (e as { params?: Record<string, { values?: readonly string[] }> }).params ?? {};
    const keys = Object.keys((e.query as unknown as { shape: Record<string, unknown> }).shape);
    const known = base === "/api" ? keys : [...keys, "scenario", "variant"];
    return fc.record({
      family: fc.constant(`registry ${base === "/api" ? "api" : "demo"}`),
      method: readMethods,
      values: fc.tuple(...names.map((n) => paramValue(params[n]?.values))),
      query: query(known),
    }).map(({ family, method, values, query }) => {
      let i = 0;
      return { family, method, path: base + e.path.replace(/:([a-z]+)/g, () => values[i++] ?? ""), query };
    });
  });

const apiJunk: fc.Arbitrary<PathPart> = fc.record({
  family: fc.constant("api unknown"),
  method: readMethods,
  path: fc.tuple(fc.constantFrom("/api", "/dashboards/playground/api"), fc.array(segment, { maxLength: 3 })).map(([b, s]) => [b, ...s].join("/")),
  query: query([]),
});

const drafts: fc.Arbitrary<PathPart> = fc.oneof(
  fc.record({ family: fc.constant("draft create"), method: writeMethods, path: fc.constant("/dashboards/playground/draft"), query: query(["scenario", "dash", "dataMode", "baseRevision"]) }),
  fc.record({ family: fc.constant("draft"), method: method({ POST: 6, GET: 6, HEAD: 1, PUT: 1, DELETE: 1, PATCH: 1, OPTIONS: 1 }), path: token.map((t) => `/dashboards/playground/draft/${t}`), query: query(["scenario", "dash", "baseRevision", "dataMode"]) }),
  fc.record({ family: fc.constant("draft events"), method: readMethods, path: token.map((t) => `/dashboards/playground/draft/${t}/events`), query: query([]) }),
  fc.record({ family: fc.constant("draft revisions"), method: readMethods, path: token.map((t) => `/dashboards/playground/draft/${t}/revisions`), query: query(["limit", "cursor"]) }),
  fc.record({ family: fc.constant("draft check"), method: writeMethods, path: fc.constant("/dashboards/playground/check"), query: query(["scenario", "dash", "dataMode", "baseRevision"]) }),
  fc.record({ family: fc.constant("draft reports"), method: method({ POST: 4, GET: 4, HEAD: 1, PUT: 1, DELETE: 1 }), path: token.map((t) => `/dashboards/playground/draft/${t}/reports`), query: query(["revision"]) }),
  fc.record({ family: fc.constant("mcp"), method: method({ POST: 8, GET: 2, DELETE: 1, PUT: 1, OPTIONS: 1 }), path: fc.constant("/dashboards/playground/mcp"), query: query([]) }),
);

const saved: fc.Arbitrary<PathPart> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ family: fc.constant("saved write"), method: method({ POST: 12, PUT: 1, PATCH: 1, DELETE: 1, OPTIONS: 1, GET: 1 }), path: fc.tuple(handle, slug).map(([h, s]) => `/~/${h}/${s}`), query: query(["revision"]) }) },
  { weight: 2, arbitrary: fc.record({ family: fc.constant("saved source"), method: readMethods, path: fc.tuple(handle, slug).map(([h, s]) => `/~/${h}/${s}/source`), query: query(["revision"]) }) },
);

const account: fc.Arbitrary<PathPart> = fc.record({
  family: fc.constant("account"),
  method: writeMethods,
  path: pick(["favourites", "home", "trust"], 8, segment, 1).map((s) => `/account/${s}`),
  query: query([]),
});

const playgroundMisc: fc.Arbitrary<PathPart> = fc.record({
  family: fc.constant("playground"),
  method: readMethods,
  path: fc.oneof(
    pick(["endpoints", "scenarios", "llms.txt"], 3, segment, 1).map((s) => `/dashboards/playground/${s}`),
    token.map((t) => `/dashboards/playground/watch/${t}`),
    fc.constant("/dashboards/playground"),
  ),
  query: query([]),
});

const pages: fc.Arbitrary<PathPart> = fc.record({
  family: fc.constant("pages"),
  method: method({ GET: 8, HEAD: 1, POST: 2, DELETE: 1 }),
  path: fc.oneof(
    fc.constantFrom("/", "/signin", "/docs", "/connections", "/dashboards/frame", "/openapi.json", "/docs/api.md", "/healthz", "/readyz", "/metrics"),
    pick(["api", "playground", "index", "conventions"], 1, segment, 1).map((s) => `/docs/${s}`),
    handle.map((h) => `/~/${h}`),
    fc.tuple(handle, slug).map(([h, s]) => `/dashboards/save/${h}/${s}`),
    fc.tuple(handle, slug).map(([h, s]) => `/~/${h}/${s}`),
    pick(["tracker", "crmportal"], 1, segment, 1).map((s) => `/stand-ins/${s}/oauth/authorize`),
  ),
  query: query(["next", "revision"]),
});

// ---------------------------------------------------------------------------------------------
// Path mutations: the spellings of a path a strict router must not trip over

type Mutation = (path: string, arg: string) => string;
const mutations: Record<string, Mutation> = {
  trailingSlash: (p) => `${p}/`,
  doubleSlash: (p) => p.replace(/\/(?=[^/]*$)/, "//"),
  dotSegment: (p, a) => p.replace(/\/(?=[^/]*$)/, a === "up" ? "/x/../" : a === "enc" ? "/x/%2e%2e/" : "/./"),
  appendSegment: (p, a) => `${p}/${a}`,
  replaceSegment: (p, a) => {
    const parts = p.split("/");
    if (parts.length > 2) parts[parts.length - 1 - (a.length % Math.max(1, parts.length - 2))] = a;
    return parts.join("/");
  },
  encodeChar: (p) => p.replace(/[a-z]/, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`),
  upperCase: (p) => p.toUpperCase(),
};
const mutation = fc.tuple(fc.constantFrom(...Object.keys(mutations)), fc.oneof(segment, fc.constantFrom("up", "enc", "dot")));

const pathPart: fc.Arbitrary<PathPart> = fc
  .tuple(
    fc.oneof(
      { weight: 24, arbitrary: registry },
      { weight: 4, arbitrary: apiJunk },
      { weight: 24, arbitrary: drafts },
      { weight: 14, arbitrary: saved },
      { weight: 14, arbitrary: account },
      { weight: 5, arbitrary: playgroundMisc },
      { weight: 5, arbitrary: pages },
    ),
    fc.oneof({ weight: 3, arbitrary: fc.constant([] as [string, string][]) }, { weight: 1, arbitrary: fc.array(mutation, { minLength: 1, maxLength: 2 }) }),
  )
  .map(([part, muts]) => ({ ...part, path: muts.reduce((p, [name, arg]) => mutations[name]!(p, arg), part.path) }));

const matchingType = (b: BodySpec): string | undefined => {
  if (b.kind === "none") return undefined;
  if (b.kind === "text" && /^\s*[[{"]/.test(b.text)) return "application/json";
  return "text/html; charset=utf-8";
};

const anyShape: fc.Arbitrary<Shape> = fc
  .record({
    part: pathPart,
    cookie: fc.option(cookie, { freq: 3, nil: undefined }),
    human: humanHeaders,
    contentType: fc.oneof({ weight: 3, arbitrary: fc.constant("match") }, { weight: 3, arbitrary: fc.constantFrom(...CONTENT_TYPES) }, { weight: 1, arbitrary: fc.constant("none") }),
    extra: fc.array(extraHeader, { maxLength: 2 }),
    body,
  })
  .map(({ part, cookie, human, contentType, extra, body }) => {
    const headers: [string, string][] = [];
    if (cookie !== undefined) headers.push(["cookie", cookie]);
    headers.push(...human);
    const type = contentType === "match" ? matchingType(body) : contentType === "none" ? undefined : contentType;
    if (type !== undefined && body.kind !== "none") headers.push(["content-type", type]);
    headers.push(...extra);
    // A GET or HEAD with a large body the server has no reason to read: it may close the
    // connection with the body unread, and the reset can cut the answer short in transit.
    const readsBig = (part.method === "GET" || part.method === "HEAD") && (body.kind === "huge" || body.kind === "nested");
    return { family: part.family, method: part.method, path: part.path, query: part.query, headers, body: readsBig ? { kind: "none" as const } : body };
  });

/**
 * Requests as the site's pages and agents send them, with one thing possibly off: they get past
 * the session, origin and CSRF checks, so the parsing and storing behind them is reached too.
 */
const HUMAN: [string, string][] = [["cookie", "dd_session={SESSION}"], ["x-csrf-token", "{CSRF}"], ["sec-fetch-site", "same-origin"], ["origin", "{ORIGIN}"]];
const wellFormed: fc.Arbitrary<Shape> = fc.oneof(
  fc.record({ slug, html: htmlDoc, note: fc.option(headerText, { nil: undefined }), handle: pick(["{ME}"], 6, handle, 1), q: query(["revision"]) }).map(({ slug, html, note, handle, q }) => ({
    family: "saved write (well-formed)",
    method: "POST",
    path: `/~/${handle}/${slug}`,
    query: q,
    headers: [...HUMAN, ["content-type", "text/html; charset=utf-8"], ...(note === undefined ? [] : [["x-save-note", note]])] as [string, string][],
    body: { kind: "text" as const, text: html },
  })),
  fc.record({ route: fc.constantFrom("favourites", "home", "trust"), b: validish }).map(({ route, b }) => ({
    family: "account (well-formed)",
    method: "POST",
    path: `/account/${route}`,
    query: "",
    headers: [...HUMAN, ["content-type", "application/json"]] as [string, string][],
    body: { kind: "text" as const, text: JSON.stringify(b) },
  })),
  fc.record({ target: fc.constantFrom("", "/{WRITE}", "/{OWRITE}", "/{READ}"), b: validish, html: fc.boolean(), q: query(["scenario", "dash", "dataMode", "baseRevision"]) }).map(({ target, b, html, q }) => ({
    family: "draft write (well-formed)",
    method: "POST",
    path: `/dashboards/playground/draft${target}`,
    query: html ? q : "",
    headers: [["content-type", html ? "text/html; charset=utf-8" : "application/json"]] as [string, string][],
    body: { kind: "text" as const, text: html ? String((b as { html?: unknown }).html ?? "<p>x</p>") : JSON.stringify(b) },
  })),
);

export const shape: fc.Arbitrary<Shape> = fc
  .oneof({ weight: 4, arbitrary: anyShape }, { weight: 1, arbitrary: wellFormed })
  // Node's HTTP server refuses a request line and headers over 16 KiB (431) before any route sees them.
  .filter((s) => s.path.length + s.query.length + s.headers.reduce((n, [k, v]) => n + k.length + v.length + 4, 0) < 12_000);

// ---------------------------------------------------------------------------------------------
// Filling in the placeholders

export interface Lane {
  name: string;
  port: number;
  session: string;
  csrf: string;
  handle: string;
  otherHandle: string;
  read: string;
  write: string;
  otherRead: string;
  otherWrite: string;
  owner: string;
  cursor: string;
}

export function fill(text: string, lane: Lane): string {
  const values: Record<string, string> = {
    READ: lane.read,
    WRITE: lane.write,
    OREAD: lane.otherRead,
    OWRITE: lane.otherWrite,
    ME: lane.handle,
    THEM: lane.otherHandle,
    OWNER: lane.owner,
    CURSOR: lane.cursor,
    SESSION: lane.session,
    CSRF: lane.csrf,
    ORIGIN: `http://127.0.0.1:${lane.port}`,
    HOST: `127.0.0.1:${lane.port}`,
    PORT: String(lane.port),
  };
  return text.replace(/\{([A-Z]+)\}/g, (m, k: string) => values[k] ?? m);
}

export function bodyBytes(spec: BodySpec, lane: Lane): Buffer | undefined {
  switch (spec.kind) {
    case "none":
      return undefined;
    case "text":
      return Buffer.from(fill(spec.text, lane));
    case "bytes":
      return Buffer.from(spec.base64, "base64");
    case "huge":
      return Buffer.alloc(spec.bytes, spec.fill === "\u00ff" ? 0xff : spec.fill.charCodeAt(0));
    case "nested":
      return Buffer.from(`${'{"html":'.repeat(spec.depth)}"x"${"}".repeat(spec.depth)}`);
  }
}
