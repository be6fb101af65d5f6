import "server-only";
import { z } from "zod";
import { hashString, type CallParty, type RecordedCall, type TranscriptSegment } from "@/demo/tenant";
import { Faults } from "@/lib/connectors/stand-in/faults";
import { StandInOAuth, type StandInCaller } from "@/lib/connectors/stand-in/oauth";
import type { StandIn, StandInDeps } from "@/lib/connectors/types";

// A stand-in of the Gong API v2 for the call reads the connector uses: the call list, the
// extensive call list with parties, and transcripts, each cursor-paged the way Gong pages
// (`records.cursor`, absent on the last page). The credential is the shared donor's, which sees
// every call of the workspace. As Gong does, a filter that matches no call answers 404.
//
// Gong serves each customer's API on a host of its own and names it in the OAuth token answer
// (`api_base_url_for_customer`). Here the customer's "host" is a path under the stand-in,
// `<mount>/<customer>`, and the API is served there only: anywhere else (the mount's root
// included) a token is refused with Gong's 401, as a host that is not the customer's refuses it.

interface CallsStandInOptions {
  /** Records per page; small by default so a tenant's calls span several pages. */
  pageSize?: number;
  /** The customer's host name, as Gong's "us-12345"; default one derived from the tenant. */
  customer?: string;
}

/** The token answer's field naming where the customer's API is. */
export const GONG_API_BASE_FIELD = "api_base_url_for_customer";

const DEFAULT_PAGE_SIZE = 20;
const NO_CALLS = "No calls found corresponding to the provided filters";
const WORKSPACE_ID = "623457276584334";

const isoDateTime = z.string().refine((s) => /^\d{4}-\d{2}-\d{2}T/.test(s) && !Number.isNaN(Date.parse(s)), "must be an ISO-8601 date-time");

const filterSchema = z.object({
  fromDateTime: isoDateTime.optional(),
  toDateTime: isoDateTime.optional(),
  callIds: z.array(z.string().regex(/^\d{1,24}$/, "call ids are numeric")).max(1000).optional(),
});

const extensiveBody = z.object({
  filter: filterSchema,
  contentSelector: z
    .object({ exposedFields: z.object({ parties: z.boolean().optional() }).partial().optional() })
    .partial()
    .optional(),
  cursor: z.string().optional(),
});

const transcriptBody = z.object({ filter: filterSchema, cursor: z.string().optional() });

type Filter = z.infer<typeof filterSchema>;

interface CursorBody {
  /** Offset of the next page. */
  o: number;
  /** The query the cursor belongs to. */
  q: string;
}

class HttpProblem extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function b64(s: string): string {
  return Buffer.from(s, "utf8").toString("base64url");
}

/** A dial-in shows at Gong as a phone number, not a name. */
function isPhoneNumber(name: string): boolean {
  return /^\+[\d\s-]+$/.test(name);
}

/** Splits a turn into sentences the way a recorder's transcript does. */
function sentencesOf(text: string): string[] {
  return text.split(/(?<=[.!?])\s+/).filter((s) => s.length > 0);
}

/** Where the stand-in is mounted, as the request reached it: its origin and the path above `path`. */
function mountOf(request: Request, path: string): string {
  const url = new URL(request.url);
  const mount = url.pathname.endsWith(path) ? url.pathname.slice(0, url.pathname.length - path.length) : "";
  return `${url.origin}${mount.replace(/\/+$/, "")}`;
}

class GongStandIn implements StandIn {
  readonly oauth: StandInOAuth;
  readonly faults = new Faults();
  /** The customer's path segment, e.g. "us-40512". */
  readonly customer: string;
  private readonly pageSize: number;
  private requests = 0;
  private accountList: readonly string[] | null = null;

  constructor(
    private readonly deps: StandInDeps,
    options: CallsStandInOptions,
  ) {
    const size = options.pageSize ?? DEFAULT_PAGE_SIZE;
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`pageSize must be a positive integer, got ${size}`);
    this.pageSize = size;
    this.customer = options.customer ?? `us-${10_000 + (hashString(`gong-customer:${deps.tenant.seed}`) % 90_000)}`;
    if (!/^[a-z0-9-]{1,63}$/.test(this.customer)) throw new RangeError(`customer must be a host label, got ${this.customer}`);
    this.oauth = new StandInOAuth({
      slug: "calls",
      product: "Gong",
      tokenPrefix: "gong",
      sealer: deps.sealer,
      accounts: () => this.accounts(),
      // The shared donor credential: the app mints it in-process for the admin who connects it;
      // its refresh token renews it over HTTP like Gong's, whose access tokens live about a day.
      consent: false,
      tokenTtlMs: deps.tokenTtlMs ?? 24 * 3_600_000,
      now: deps.now,
      memory: deps.oauthMemory,
    });
  }

  /** The admin who connects the donor credential, and the staff who have Gong seats. */
  private accounts(): readonly string[] {
    this.accountList ??= [
      ...new Set(["admin@demo.test", ...this.deps.tenant.staff.filter((s) => s.lifecycleStage !== "offboarded").map((s) => s.email)]),
    ];
    return this.accountList;
  }

  /** The customer's API base for a stand-in mounted at `mount`, as the token answer names it. */
  apiBaseFor(mount: string): string {
    return `${mount.replace(/\/+$/, "")}/${this.customer}`;
  }

  async handle(request: Request, path: string, caller?: StandInCaller): Promise<Response> {
    const fault = await this.faults.apply(request, path);
    if (fault) return fault;

    const oauth = await this.oauth.serve(request, path, caller);
    if (oauth) return path === "/oauth/token" && oauth.status === 200 ? this.namingApiBase(oauth, mountOf(request, path)) : oauth;

    const customerRoot = `/${this.customer}`;
    if (path !== customerRoot && !path.startsWith(`${customerRoot}/`)) {
      return this.error(401, "Authentication failed: the access token is not valid on this host; use the API base URL the token answer named");
    }
    const apiPath = path.slice(customerRoot.length);
    const routes: Record<string, { method: "GET" | "POST"; run: (r: Request) => Promise<unknown> }> = {
      "/v2/calls": { method: "GET", run: (r) => Promise.resolve(this.listCalls(new URL(r.url).searchParams)) },
      "/v2/calls/extensive": { method: "POST", run: async (r) => this.extensive(await this.body(r, extensiveBody)) },
      "/v2/calls/transcript": { method: "POST", run: async (r) => this.transcripts(await this.body(r, transcriptBody)) },
    };
    const route = routes[apiPath];
    if (!route) return this.error(404, `No such endpoint: ${apiPath}`);
    if (request.method !== route.method) return this.error(405, `${request.method} is not supported on ${apiPath}`);
    if (!(await this.oauth.verify(request.headers.get("authorization")))) {
      return this.error(401, "Authentication failed: the access token is missing, invalid or expired");
    }
    try {
      return this.json(200, await route.run(request));
    } catch (err) {
      if (err instanceof HttpProblem) return this.error(err.status, err.message);
      throw err;
    }
  }

  /** Gong's token answer names the customer's API base beside the tokens. */
  private async namingApiBase(answer: Response, mount: string): Promise<Response> {
    const body = (await answer.json()) as Record<string, unknown>;
    if (typeof body.access_token !== "string") return Response.json(body, { status: answer.status, headers: answer.headers });
    return Response.json({ ...body, [GONG_API_BASE_FIELD]: this.apiBaseFor(mount) }, { status: answer.status, headers: answer.headers });
  }

  // ── endpoints ────────────────────────────────────────────────────────────────────────────

  private listCalls(params: URLSearchParams): unknown {
    const raw = { fromDateTime: params.get("fromDateTime") ?? undefined, toDateTime: params.get("toDateTime") ?? undefined };
    const parsed = filterSchema.safeParse(raw);
    if (!parsed.success) throw new HttpProblem(400, this.describe(parsed.error));
    const matches = this.select(parsed.data);
    const page = this.page("calls", parsed.data, matches, params.get("cursor") ?? undefined);
    return { requestId: this.requestId(), records: page.records, calls: page.items.map((c) => this.metaData(c)) };
  }

  private extensive(body: z.infer<typeof extensiveBody>): unknown {
    const withParties = body.contentSelector?.exposedFields?.parties === true;
    const matches = this.select(body.filter);
    const page = this.page(`extensive:${withParties}`, body.filter, matches, body.cursor);
    return {
      requestId: this.requestId(),
      records: page.records,
      calls: page.items.map((c) => ({ metaData: this.metaData(c), ...(withParties ? { parties: c.parties.map((p) => this.party(p)) } : {}) })),
    };
  }

  private transcripts(body: z.infer<typeof transcriptBody>): unknown {
    const matches = this.select(body.filter);
    const page = this.page("transcript", body.filter, matches, body.cursor);
    return {
      requestId: this.requestId(),
      records: page.records,
      callTranscripts: page.items.map((c) => ({ callId: c.id, transcript: this.monologues(c.transcript) })),
    };
  }

  // ── shapes ───────────────────────────────────────────────────────────────────────────────

  private metaData(c: RecordedCall): Record<string, unknown> {
    const external = c.parties.some((p) => p.affiliation === "External");
    return {
      id: c.id,
      url: c.url,
      title: c.title,
      scheduled: c.started,
      started: c.started,
      duration: c.durationSec,
      primaryUserId: c.parties[0]?.id ?? null,
      direction: "Conference",
      system: "Zoom",
      scope: external ? "External" : "Internal",
      media: "Video",
      language: "eng",
      workspaceId: WORKSPACE_ID,
      sdrDisposition: null,
      clientUniqueId: null,
      customData: null,
      purpose: null,
      meetingUrl: `https://zoom.demo.test/j/${c.id.slice(-10)}`,
      isPrivate: false,
      calendarEventId: null,
    };
  }

  private party(p: CallParty): Record<string, unknown> {
    const phone = isPhoneNumber(p.name);
    return {
      id: p.id,
      ...(phone ? { phoneNumber: p.name } : { name: p.name }),
      ...(p.emailAddress ? { emailAddress: p.emailAddress } : {}),
      ...(p.speakerId ? { speakerId: p.speakerId } : {}),
      affiliation: p.affiliation,
      methods: p.speakerId ? ["Invitee", "Attendee"] : ["Invitee"],
      context: [],
    };
  }

  /** Each turn is a monologue of timed sentences, in milliseconds from the call's start. */
  private monologues(turns: TranscriptSegment[]): unknown[] {
    let clock = 1_500;
    return turns.map((turn, i) => {
      const sentences = sentencesOf(turn.text).map((text) => {
        const start = clock;
        clock += 400 + text.length * 55;
        return { start, end: clock, text };
      });
      clock += 700;
      return { speakerId: turn.speakerId, topic: i === 0 ? "Call Setup" : null, sentences };
    });
  }

  // ── filtering and paging ─────────────────────────────────────────────────────────────────

  /** Gong's window: `fromDateTime` inclusive, `toDateTime` exclusive; oldest first. */
  private select(filter: Filter): RecordedCall[] {
    const from = filter.fromDateTime ? Date.parse(filter.fromDateTime) : -Infinity;
    const to = filter.toDateTime ? Date.parse(filter.toDateTime) : Infinity;
    if (from >= to) throw new HttpProblem(400, "fromDateTime must be earlier than toDateTime");
    const ids = filter.callIds ? new Set(filter.callIds) : null;
    const found = this.deps.tenant.calls.filter((c) => {
      const at = Date.parse(c.started);
      return at >= from && at < to && (!ids || ids.has(c.id));
    });
    if (found.length === 0) throw new HttpProblem(404, NO_CALLS);
    return found.sort((a, b) => Date.parse(a.started) - Date.parse(b.started) || (a.id < b.id ? -1 : 1));
  }

  private page<T>(kind: string, filter: Filter, all: T[], cursor: string | undefined) {
    const query = JSON.stringify([kind, filter.fromDateTime ?? null, filter.toDateTime ?? null, filter.callIds ?? null]);
    const offset = cursor === undefined ? 0 : this.openCursor(cursor, query);
    if (offset >= all.length) throw new HttpProblem(400, "The cursor is invalid or has expired");
    const items = all.slice(offset, offset + this.pageSize);
    const next = offset + items.length;
    const records: Record<string, unknown> = {
      totalRecords: all.length,
      currentPageSize: items.length,
      currentPageNumber: Math.floor(offset / this.pageSize),
    };
    if (next < all.length) records.cursor = this.sealCursor({ o: next, q: query });
    return { items, records };
  }

  private sealCursor(c: CursorBody): string {
    const body = b64(JSON.stringify(c));
    return `${body}.${this.deps.sealer.mac(body, "stand-in-cursor:calls")}`;
  }

  /** The offset a cursor stands for; a forged cursor, or one from another query, is refused. */
  private openCursor(cursor: string, query: string): number {
    const invalid = new HttpProblem(400, "The cursor is invalid or has expired");
    const [body, mac] = cursor.split(".");
    if (!body || !mac || this.deps.sealer.mac(body, "stand-in-cursor:calls") !== mac) throw invalid;
    let raw: unknown;
    try {
      raw = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
    } catch {
      throw invalid;
    }
    const parsed = z.object({ o: z.number().int().positive(), q: z.string() }).safeParse(raw);
    if (!parsed.success || parsed.data.q !== query) throw invalid;
    return parsed.data.o;
  }

  // ── plumbing ─────────────────────────────────────────────────────────────────────────────

  private async body<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
    let raw: unknown;
    try {
      raw = await request.json();
    } catch {
      throw new HttpProblem(400, "The request body is not valid JSON");
    }
    const parsed = schema.safeParse(raw);
    if (!parsed.success) throw new HttpProblem(400, this.describe(parsed.error));
    return parsed.data;
  }

  private describe(error: z.ZodError): string {
    const issue = error.issues[0];
    return issue ? `Invalid request: ${issue.path.join(".") || "body"} ${issue.message}` : "Invalid request";
  }

  private requestId(): string {
    this.requests += 1;
    return `5ggf${(1_000_000 + this.requests).toString(36)}q0n1s`;
  }

  private json(status: number, body: unknown): Response {
    return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8" } });
  }

  private error(status: number, message: string): Response {
    return this.json(status, { requestId: this.requestId(), errors: [message] });
  }
}

export function createCallsStandIn(deps: StandInDeps, options: CallsStandInOptions = {}): StandIn {
  return new GongStandIn(deps, options);
}
