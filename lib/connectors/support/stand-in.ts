import "server-only";
import { demoUsers } from "@/demo/users";
import { hashString, type SupportConversation, type Tenant } from "@/demo/tenant";
import { Faults } from "@/lib/connectors/stand-in/faults";
import { StandInOAuth, type StandInCaller } from "@/lib/connectors/stand-in/oauth";
import type { StandIn, StandInDeps } from "@/lib/connectors/types";

// A stand-in of the Intercom REST API (2.11) for the parts the client reads: GET /me and
// GET /conversations. A workspace's conversations are visible to every teammate, so any valid
// token sees the whole list. Paging follows Intercom: `per_page` and an opaque `starting_after`
// cursor, newest update first.

const WORKSPACE_NAME = "Demo Schools";
const MAX_PER_PAGE = 150;
const DEFAULT_PER_PAGE = 20;
/** Intercom's default app limit, per minute. */
const RATE_LIMIT = 10_000;
const RATE_WINDOW_MS = 60_000;
/** Versions Intercom accepts in Intercom-Version; the stand-in answers each in the 2.11 shape. */
const KNOWN_VERSIONS = new Set(["1.0", "1.1", "1.2", "1.3", "1.4", "2.0", "2.1", "2.2", "2.3", "2.4", "2.5", "2.6", "2.7", "2.8", "2.9", "2.10", "2.11", "Unstable"]);

interface Teammate {
  email: string;
  name: string;
}

function adminId(email: string): string {
  return String(100_000_000 + (hashString(`intercom-admin:${email}`) % 900_000_000));
}

function encodeCursor(id: string): string {
  return Buffer.from(`conv:${id}`, "utf8").toString("base64url");
}

/** The conversation id a cursor names, or null when it is not one this stand-in issued. */
function decodeCursor(cursor: string): string | null {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  return text.startsWith("conv:") ? text.slice("conv:".length) : null;
}

function teammates(tenant: Tenant): Teammate[] {
  const byEmail = new Map<string, Teammate>();
  for (const u of demoUsers) byEmail.set(u.email, { email: u.email, name: u.name });
  for (const s of tenant.staff) if (!byEmail.has(s.email)) byEmail.set(s.email, { email: s.email, name: `${s.firstName} ${s.lastName}` });
  return [...byEmail.values()];
}

class SupportStandIn implements StandIn {
  readonly oauth: StandInOAuth;
  readonly faults = new Faults();
  private readonly teammates: Map<string, Teammate>;
  private readonly ordered: SupportConversation[];
  private readonly positionById: Map<string, number>;
  private readonly appIdCode: string;
  private requestSeq = 0;
  private window = { start: 0, used: 0 };

  constructor(private readonly tenant: Tenant, deps: StandInDeps) {
    this.teammates = new Map(teammates(tenant).map((t) => [t.email, t]));
    this.oauth = new StandInOAuth({
      slug: "support",
      product: "Intercom",
      tokenPrefix: "tok",
      sealer: deps.sealer,
      accounts: () => [...this.teammates.keys()],
      consent: true,
      now: deps.now,
      memory: deps.oauthMemory,
    });
    this.ordered = [...tenant.conversations].sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    this.positionById = new Map(this.ordered.map((c, i) => [c.id, i]));
    this.appIdCode = hashString(`intercom-app:${tenant.seed}`).toString(36).padStart(8, "0").slice(0, 8);
  }

  async handle(request: Request, path: string, caller?: StandInCaller): Promise<Response> {
    const fault = await this.faults.apply(request, path);
    if (fault) return this.vendorFault(fault);

    const oauth = await this.oauth.serve(request, path, caller);
    if (oauth) return oauth;

    if (request.method !== "GET" || (path !== "/me" && path !== "/conversations")) {
      return this.error(404, "not_found", "Resource Not Found");
    }
    const token = await this.oauth.inspect(request.headers.get("authorization"));
    const teammate = token.ok ? this.teammates.get(token.email) : undefined;
    // Intercom's tokens do not expire; a workspace admin can revoke one.
    if (!teammate) return token.ok || token.reason !== "revoked" ? this.error(401, "unauthorized", "Access Token Invalid") : this.error(401, "token_revoked", "Token revoked");
    const version = request.headers.get("intercom-version");
    if (version !== null && !KNOWN_VERSIONS.has(version)) {
      return this.error(400, "intercom_version_invalid", "The requested version could not be found");
    }

    const limited = this.spendRateLimit();
    if (limited) return limited;
    if (path === "/me") return this.json(200, this.me(teammate));
    return this.conversations(new URL(request.url).searchParams);
  }

  private me(t: Teammate): unknown {
    return {
      type: "admin",
      id: adminId(t.email),
      email: t.email,
      name: t.name,
      email_verified: true,
      app: {
        type: "app",
        id_code: this.appIdCode,
        name: WORKSPACE_NAME,
        created_at: Math.floor(this.tenant.now / 1000) - 3 * 365 * 86_400,
        secure: false,
        identity_verification: false,
        timezone: "Etc/UTC",
        region: "US",
      },
      avatar: { type: "avatar", image_url: null },
      has_inbox_seat: true,
    };
  }

  private conversations(params: URLSearchParams): Response {
    const perPageRaw = params.get("per_page");
    let perPage = DEFAULT_PER_PAGE;
    if (perPageRaw !== null) {
      if (!/^\d+$/.test(perPageRaw) || Number(perPageRaw) < 1) return this.error(400, "parameter_invalid", "per_page must be a positive integer");
      perPage = Math.min(Number(perPageRaw), MAX_PER_PAGE);
    }
    let start = 0;
    const cursor = params.get("starting_after");
    if (cursor !== null) {
      const id = decodeCursor(cursor);
      const at = id === null ? undefined : this.positionById.get(id);
      if (at === undefined) return this.error(400, "parameter_invalid", "starting_after is invalid");
      start = at + 1;
    }

    const slice = this.ordered.slice(start, start + perPage);
    const total = this.ordered.length;
    const last = slice.at(-1);
    const page = Math.floor(start / perPage) + 1;
    const pages: Record<string, unknown> = { type: "pages", page, per_page: perPage, total_pages: Math.max(1, Math.ceil(total / perPage)) };
    if (last && start + slice.length < total) pages.next = { page: page + 1, starting_after: encodeCursor(last.id) };

    return this.json(200, {
      type: "conversation.list",
      conversations: slice.map((c) => this.conversation(c)),
      total_count: total,
      pages,
    });
  }

  private conversation(c: SupportConversation): unknown {
    return {
      type: "conversation",
      id: c.id,
      title: c.title,
      created_at: c.createdAt,
      updated_at: c.updatedAt,
      waiting_since: c.state === "open" ? c.updatedAt : null,
      snoozed_until: c.state === "snoozed" ? c.updatedAt + 3 * 86_400 : null,
      open: c.open,
      state: c.state,
      read: c.state === "closed",
      priority: "not_priority",
      admin_assignee_id: c.assigneeEmail ? Number(adminId(c.assigneeEmail)) : null,
      team_assignee_id: null,
      tags: { type: "tag.list", tags: [] },
    };
  }

  /** Intercom counts every authenticated call against the app's per-minute allowance. */
  private spendRateLimit(): Response | null {
    const now = Date.now();
    if (now - this.window.start >= RATE_WINDOW_MS) this.window = { start: now, used: 0 };
    if (this.window.used >= RATE_LIMIT) {
      const wait = Math.ceil((this.window.start + RATE_WINDOW_MS - now) / 1000);
      return this.error(429, "rate_limit_exceeded", "Exceeded rate limit", { "retry-after": String(wait) });
    }
    this.window.used++;
    return null;
  }

  private rateHeaders(): Record<string, string> {
    return {
      "x-ratelimit-limit": String(RATE_LIMIT),
      "x-ratelimit-remaining": String(Math.max(0, RATE_LIMIT - this.window.used)),
      "x-ratelimit-reset": String(Math.ceil((this.window.start + RATE_WINDOW_MS) / 1000)),
    };
  }

  /** A queued fault, answered in Intercom's error shape and headers. */
  private vendorFault(fault: Response): Response {
    const retryAfter = fault.headers.get("retry-after");
    const extra: Record<string, string> = retryAfter ? { "retry-after": retryAfter } : {};
    if (fault.status === 401) return this.error(401, "unauthorized", "Access Token Invalid", extra);
    if (fault.status === 403) return this.error(403, "forbidden", "Forbidden", extra);
    if (fault.status === 429) {
      const resetAt = Math.ceil(Date.now() / 1000) + Number(retryAfter ?? "10");
      return this.error(429, "rate_limit_exceeded", "Exceeded rate limit", {
        ...extra,
        "x-ratelimit-limit": String(RATE_LIMIT),
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": String(resetAt),
      });
    }
    if (fault.status === 503) return this.error(503, "service_unavailable", "Service Unavailable", extra);
    return this.error(fault.status, "server_error", "Server Error", extra);
  }

  private error(status: number, code: string, message: string, headers: Record<string, string> = {}): Response {
    return this.json(status, { type: "error.list", request_id: this.requestId(), errors: [{ code, message }] }, headers);
  }

  private requestId(): string {
    this.requestSeq++;
    return `req-${hashString(`${this.tenant.seed}:${this.requestSeq}`).toString(16).padStart(8, "0")}-${this.requestSeq}`;
  }

  private json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
    return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8", ...this.rateHeaders(), ...headers } });
  }
}

export function createSupportStandIn(deps: StandInDeps): StandIn {
  return new SupportStandIn(deps.tenant, deps);
}
