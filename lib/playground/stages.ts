import "server-only";
import type { z } from "zod";
import { ApiError } from "@/lib/contract/errors";
import { DRAFT_HTML_MAX_BYTES, draftInput, draftRevisionsQuery, draftUpdate, type DraftInput, type DraftUpdate } from "@/lib/contract/playground";
import { REPORT_BODY_MAX_BYTES, REPORT_TEXT_MAX, renderReportInput, renderReportsQuery } from "@/lib/contract/reports";
import { renderInput, type RenderInput } from "@/lib/contract/renders";
import { sha256Hex } from "@/lib/auth/tokens";
import { dashboardParamsProblem } from "@/lib/frame/params";
import { contentType, readBodyCapped } from "@/lib/http/body";
import { addressMatcher, clientAddress, type AddressMatcher } from "@/lib/http/client-address";
import { parseWith, readJsonBody, readTextBody } from "@/lib/http/edge";
import { notCrossSite, trustedOrigin } from "@/lib/http/origin";
import { RateLimiter, type Take } from "@/lib/limits/buckets";
import type { Limiter } from "@/lib/limits/shared";
import type { PlaygroundSettings } from "./settings";

// The stages a playground operation's caller goes through before the operation runs, each one a
// plain function of the caller's Request: where a write may come from, the origin the answer's
// URLs are written under, the allowance the request spends, and the body and query read into
// the operation's typed input. The route modules run them as defineRoute's stages; an MCP tool
// runs the same ones on the MCP request (its caller's address, Host and browser headers), so a
// tool call meets the same refusals and spends the same allowances as the HTTP request would.

/** Read ids and write tokens are base64url; anything else cannot be one and answers 404 at once. */
const CAPABILITY_SHAPE = /^[A-Za-z0-9_-]{16,128}$/;

/** Allowances counted per client address. */
type ByAddress = "creates" | "checks" | "reads" | "reports";

/** What each allowance's refusal says there are too many of. */
const WHAT: Record<ByAddress | "updates", string> = {
  creates: "draft creations from your address",
  checks: "checks from your address",
  reads: "reads of drafts from your address",
  reports: "render reports from your address",
  updates: "updates of this draft",
};

export interface PlaygroundStages {
  /** The client's address, as every limit counts it. */
  address(request: Request): string;
  /** A read id or write token that cannot be one: 404, before anything is looked up. */
  capability(token: string): void;
  /** A draft's creation or update: not from another site, and the origin its answer's URLs are written under. */
  draftWrite(request: Request): string;
  /** A check: not from another site. */
  draftCheck(request: Request): void;
  /** A render: not from another site, and the origin its picture's URL is written under. */
  render(request: Request): string;
  /** A render report: not from another site. */
  reportWrite(request: Request): void;
  /** Spends one of the address's creations, checks, anonymous reads or render reports. */
  spend(allowance: ByAddress, request: Request): Promise<void>;
  /** A read by read id: one of the address's reads spent, then an id that cannot be one is 404 (a probe costs a read too). */
  read(request: Request, readId: string): Promise<void>;
  /** A render report: one of the address's reports spent, then an id that cannot be one is 404. */
  report(request: Request, readId: string): Promise<void>;
  /** An update: a write token that cannot be one is 404 and spends nothing; else one of the draft's updates. */
  update(writeToken: string): Promise<void>;
}

interface StagesDeps {
  publicOrigin?: string;
  allowedHosts?: readonly string[];
  trusted: AddressMatcher;
  limiters: Record<ByAddress | "updates", Limiter>;
  /** 404 for a capability that cannot be one, in the playground's words. */
  noSuchDraft: () => ApiError;
  /** Counts a refusal by the named limit. */
  refused: (limit: string) => void;
}

export function createStages(deps: StagesDeps): PlaygroundStages {
  const address = (request: Request) => clientAddress(request, deps.trusted);
  const sameSite = (request: Request, hint: string) => {
    if (!notCrossSite(request, deps.publicOrigin)) throw new ApiError("cross_site_write", hint);
  };
  const origin = (request: Request) => trustedOrigin(request, deps.publicOrigin, deps.allowedHosts);
  const take = async (allowance: ByAddress | "updates", key: string) => {
    const taken = await deps.limiters[allowance].take(key);
    if (!taken.ok) deps.refused(allowance);
    limited(taken, WHAT[allowance]);
  };
  const capability = (token: string) => {
    if (!CAPABILITY_SHAPE.test(token)) throw deps.noSuchDraft();
  };
  const stages: PlaygroundStages = {
    address,
    capability,
    draftWrite(request) {
      sameSite(request, "Drafts are written by agents and by the playground's own pages, not from other sites.");
      // Before anything is written: the answer's URLs must be ones the server can stand behind.
      return origin(request);
    },
    draftCheck: (request) => sameSite(request, "Drafts are written by agents and by the playground's own pages, not from other sites."),
    render(request) {
      sameSite(request, "Renders are asked for by agents and the playground's own pages, not from other sites.");
      // Before anything is drawn: the answer's URL must be one the server can stand behind.
      return origin(request);
    },
    reportWrite: (request) => sameSite(request, "Render reports are sent by the playground's own pages and by agents, not from other sites."),
    spend: (allowance, request) => take(allowance, address(request)),
    async read(request, readId) {
      await stages.spend("reads", request);
      capability(readId);
    },
    async report(request, readId) {
      await stages.spend("reports", request);
      capability(readId);
    },
    async update(writeToken) {
      capability(writeToken);
      await take("updates", sha256Hex(writeToken));
    },
  };
  return stages;
}

/** A refusal once a limit is spent: 429 with Retry-After. */
function limited(take: Take, what: string): void {
  if (!take.ok) {
    throw new ApiError("rate_limited", `Too many ${what}; retry in ${take.retryAfterSeconds} s.`, {
      "retry-after": String(take.retryAfterSeconds),
    });
  }
}

/** The demo API's reads per client address; it needs no storage, so the demo API does not wait for the playground (or the database) to start. */
export interface DemoReads {
  /** Spends one of the address's demo-API reads; 429 with Retry-After once spent. */
  spend(request: Request): void;
}

export function demoReadsOf(settings: PlaygroundSettings, now: () => number = Date.now): DemoReads {
  const limiter = new RateLimiter(settings.demoReadsPerMinute, now);
  const trusted = addressMatcher(settings.trustedProxy);
  return { spend: (request) => limited(limiter.take(clientAddress(request, trusted)), "demo API reads from your address") };
}

// ---------------------------------------------------------------------------------------------
// Bodies

/** JSON escaping can take up to six bytes per byte of html; a body past this cannot hold a draft within the limit. */
export const JSON_BODY_MAX = DRAFT_HTML_MAX_BYTES * 6 + 64 * 1024;

/**
 * A draft from either body form: `application/json` (the draft object) or `text/html` (the HTML
 * itself, with scenario, dash, dataMode and baseRevision in the query string).
 */
export const draftInputBody = (request: Request): Promise<DraftInput> => readDraftBody(request, draftInput);

/** An update: the same two forms, every field optional (see draftUpdate). */
export const draftUpdateBody = (request: Request): Promise<DraftUpdate> => readDraftBody(request, draftUpdate);

/** A draft as a JSON value (an MCP tool's arguments), refused in the words a JSON body's would be. */
export const draftInputOf = (value: unknown): DraftInput => parseWith(draftInput, value, "invalid_draft");
export const draftUpdateOf = (value: unknown): DraftUpdate => parseWith(draftUpdate, value, "invalid_draft");

async function readDraftBody<T>(request: Request, schema: z.ZodType<T>): Promise<T> {
  const { essence } = contentType(request);
  if (essence === "application/json") {
    return readJsonBody(request, schema, {
      max: JSON_BODY_MAX,
      tooLarge: tooLarge(JSON_BODY_MAX),
      invalid: "invalid_draft",
      notJson: 'send a JSON object such as {"html": "<!doctype html>…"}, or the HTML itself with Content-Type: text/html.',
    });
  }
  const html = await readTextBody(
    request,
    {
      type: "text/html",
      typeHint: "Send Content-Type: application/json (a draft object) or text/html (the HTML itself; other fields in the query string).",
      max: DRAFT_HTML_MAX_BYTES,
      tooLarge: tooLarge(DRAFT_HTML_MAX_BYTES),
      invalid: "invalid_draft",
    },
    true,
  );
  return parseWith(schema, { ...draftFieldsFromQuery(new URL(request.url).searchParams), html }, "invalid_draft");
}

const tooLarge = (max: number) => ({
  code: "draft_too_large" as const,
  hint: `The body is over ${max} bytes; html may be at most ${DRAFT_HTML_MAX_BYTES} bytes (2 MiB).`,
});

const queryFields = new Set(["scenario", "dash", "dataMode", "baseRevision"]);

function draftFieldsFromQuery(search: URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of new Set(search.keys())) {
    const values = search.getAll(key);
    if (key === "html") throw new ApiError("invalid_draft", "html: with Content-Type text/html the body is the html.");
    if (key === "examples") throw new ApiError("invalid_draft", "examples: send a JSON body to choose examples.");
    if (!queryFields.has(key)) {
      throw new ApiError("invalid_draft", `Unrecognized query parameter "${key.slice(0, 40)}"; with a text/html body the query string takes scenario, dash, dataMode and baseRevision.`);
    }
    if (values.length > 1) throw new ApiError("invalid_draft", `${key}: given ${values.length} times; give it once.`);
    const value = values[0] ?? "";
    // Numbers in a query string are text: a plain integer becomes a number, anything else is
    // refused here in words about the query, not about JSON types.
    if (key === "baseRevision" && !/^[0-9]{1,15}$/.test(value)) {
      throw new ApiError("invalid_draft", `baseRevision: must be a positive integer: the revision you last read (e.g. ?baseRevision=3), not "${value.slice(0, 20)}".`);
    }
    out[key] = key === "baseRevision" ? Number(value) : value;
  }
  return out;
}

/** A render report, as the watch page sends it. */
export const reportBody = (request: Request): Promise<z.output<typeof renderReportInput>> =>
  readJsonBody(request, renderReportInput, {
    max: REPORT_BODY_MAX_BYTES,
    tooLarge: { code: "report_too_large", hint: `The body is over ${REPORT_BODY_MAX_BYTES} bytes; a report's text fields hold at most ${REPORT_TEXT_MAX} characters together.` },
    invalid: "invalid_report",
    notJson: "send a render report as a JSON object, with revision.",
  });

/** Bytes of a render body: a few small fields. */
const RENDER_BODY_MAX = 16 * 1024;

/** A render's body: a JSON object of the render's fields, or nothing at all (the current revision as it is). */
export async function renderBody(request: Request): Promise<RenderInput> {
  if (request.headers.get("content-type") === null) {
    const bytes = await readBodyCapped(request, RENDER_BODY_MAX);
    if (bytes && bytes.byteLength === 0) return {};
    throw new ApiError("unsupported_media_type", "Send Content-Type: application/json, or no body at all.");
  }
  const text = await readTextBody(request, {
    type: "application/json",
    typeHint: "Send Content-Type: application/json, or no body at all.",
    max: RENDER_BODY_MAX,
    tooLarge: { code: "payload_too_large", hint: `A render's body is at most ${RENDER_BODY_MAX} bytes: revision, viewport, scenario, examples and params.` },
    invalid: "invalid_render",
  });
  if (text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError("invalid_render", "The body is not JSON: send a render as a JSON object (revision, viewport, scenario, examples, params), or no body.");
  }
  return renderInputOf(value);
}

/** A render's fields as a JSON value (a body's, or an MCP tool's arguments). */
export function renderInputOf(value: unknown): RenderInput {
  const input = parseWith(renderInput, value, "invalid_render");
  // Refused rather than dropped: the page would draw without them and say so, which an agent asking for them never sees.
  const problem = input.params ? dashboardParamsProblem(input.params) : null;
  if (problem) throw new ApiError("invalid_render", `params: ${problem}`);
  return input;
}

// ---------------------------------------------------------------------------------------------
// Queries

/** Each key at most once and among `keys`, as the API reads its queries; anything else is invalid_query. */
function onceEach(search: URLSearchParams, keys: readonly string[], takes: string, repeated: (key: string, times: number) => string): Record<string, string> {
  const raw: Record<string, string> = {};
  for (const key of new Set(search.keys())) {
    const values = search.getAll(key);
    if (!keys.includes(key)) throw new ApiError("invalid_query", `Unrecognized query parameter "${key.slice(0, 40)}"; this takes ${takes}.`);
    if (values.length > 1) throw new ApiError("invalid_query", repeated(key, values.length));
    raw[key] = values[0] ?? "";
  }
  return raw;
}

export type RevisionsQuery = z.output<typeof draftRevisionsQuery>;

/** `limit` and `cursor` of a page of revisions. */
export function revisionsQuery(search: URLSearchParams): RevisionsQuery {
  const raw = onceEach(search, ["limit", "cursor"], "limit and cursor", (key, n) => `${key} was given ${n} times; give it once.`);
  // Any cursor the server did not issue, the empty one included, is invalid_cursor.
  if (raw.cursor !== undefined && (raw.cursor === "" || raw.cursor.length > 512)) {
    throw new ApiError("invalid_cursor", "Pass back a nextCursor exactly as this endpoint returned it.");
  }
  return parseWith(draftRevisionsQuery, raw, "invalid_query");
}

type ReportsQuery = z.output<typeof renderReportsQuery>;

/** `revision`, the one whose reports to read. */
export function reportsQuery(search: URLSearchParams): ReportsQuery {
  return parseWith(renderReportsQuery, onceEach(search, ["revision"], "revision", (_, n) => `revision was given ${n} times; give it once.`), "invalid_query");
}
