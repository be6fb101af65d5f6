import "server-only";
import { randomUUID } from "node:crypto";
import { demoUsers } from "@/demo/users";
import { conversationStarter, conversationThread, hashString, type SupportConversation, type Tenant, type ThreadPart } from "@/demo/tenant";
import { Faults } from "@/lib/connectors/stand-in/faults";
import { StandInOAuth, type StandInCaller } from "@/lib/connectors/stand-in/oauth";
import type { StandIn, StandInDeps } from "@/lib/connectors/types";

// A stand-in of the Intercom REST API for the parts the client reads, GET /me, GET /conversations
// and GET /conversations/{id} (with its conversation parts), in the shapes Intercom's published OpenAPI description (2.11) requires:
// admin_with_app, paginated_conversation_response with conversation_list_item and cursor pages,
// and error.list. A workspace's conversations are visible to every teammate, so any valid token
// sees the whole list. Paging follows Intercom: `per_page` and an opaque `starting_after` cursor,
// newest update first. Every version Intercom documents is accepted in Intercom-Version and
// answered in the 2.11 shapes. Rate limits are Intercom's: an allowance per ten-second window,
// reported in X-RateLimit-Limit/-Remaining/-Reset on authenticated answers, and a 429 with those
// headers (and no Retry-After) once it is spent.

const WORKSPACE_NAME = "Demo Schools";
const MAX_PER_PAGE = 150;
const DEFAULT_PER_PAGE = 20;
/** Intercom's default private-app allowance, 10,000 a minute, spread over ten-second windows. */
const DEFAULT_RATE_LIMIT = 1_667;
const DEFAULT_RATE_WINDOW_MS = 10_000;
/**
 * Versions Intercom documents for Intercom-Version (its API changelog and references: 1.0 to
 * 2.17, Unstable, and Preview as the 2.11 description names it); each is answered in 2.11's shapes.
 */
export const INTERCOM_VERSIONS: readonly string[] = [
  ...["1.0", "1.1", "1.2", "1.3", "1.4"],
  ...Array.from({ length: 18 }, (_, i) => `2.${i}`),
  "Unstable",
  "Preview",
];
const KNOWN_VERSIONS = new Set(INTERCOM_VERSIONS);

export interface SupportStandInOptions {
  /** Authenticated requests allowed per window before Intercom's 429 (default 1,667). */
  rateLimit?: number;
  /** The rate limit's window (default ten seconds). */
  rateWindowMs?: number;
}

interface Teammate {
  email: string;
  name: string;
  jobTitle: string;
  teamIds: number[];
}

function adminId(email: string): string {
  return String(100_000_000 + (hashString(`intercom-admin:${email}`) % 900_000_000));
}

function teamId(team: string): number {
  return 5_000_000 + (hashString(`intercom-team:${team}`) % 900_000);
}

/** Intercom's contact ids are 24 hexadecimal characters. */
function contactId(seed: string): string {
  return [0, 1, 2].map((i) => hashString(`intercom-contact:${i}:${seed}`).toString(16).padStart(8, "0")).join("");
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
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
  for (const u of demoUsers) byEmail.set(u.email, { email: u.email, name: u.name, jobTitle: u.groups.includes("admin") ? "Workspace admin" : "", teamIds: [] });
  for (const s of tenant.staff) {
    const known = byEmail.get(s.email);
    if (known) known.teamIds = [teamId(s.team)];
    else byEmail.set(s.email, { email: s.email, name: `${s.firstName} ${s.lastName}`, jobTitle: s.team, teamIds: [teamId(s.team)] });
  }
  return [...byEmail.values()];
}

class SupportStandIn implements StandIn {
  readonly oauth: StandInOAuth;
  readonly faults = new Faults();
  private readonly teammates: Map<string, Teammate>;
  private readonly ordered: SupportConversation[];
  private readonly positionById: Map<string, number>;
  private readonly appIdCode: string;
  private readonly now: () => number;
  private readonly rateLimit: number;
  private readonly rateWindowMs: number;
  private window = { start: Number.NEGATIVE_INFINITY, used: 0 };

  constructor(
    private readonly tenant: Tenant,
    deps: StandInDeps,
    options: SupportStandInOptions,
  ) {
    this.now = deps.now ?? Date.now;
    this.rateLimit = options.rateLimit ?? DEFAULT_RATE_LIMIT;
    this.rateWindowMs = options.rateWindowMs ?? DEFAULT_RATE_WINDOW_MS;
    if (!Number.isInteger(this.rateLimit) || this.rateLimit < 1) throw new RangeError(`rateLimit must be a positive integer, got ${this.rateLimit}`);
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

    const one = /^\/conversations\/([^/]+)$/.exec(path);
    if (request.method !== "GET" || (path !== "/me" && path !== "/conversations" && !one)) {
      return this.error(404, "not_found", "Resource Not Found");
    }
    const token = await this.oauth.inspect(request.headers.get("authorization"));
    const teammate = token.ok ? this.teammates.get(token.email) : undefined;
    // Intercom's tokens do not expire; a workspace admin can revoke one.
    if (!teammate) return token.ok || token.reason !== "revoked" ? this.error(401, "unauthorized", "Access Token Invalid") : this.error(401, "token_revoked", "Token revoked");
    const version = request.headers.get("intercom-version");
    if (version !== null && !KNOWN_VERSIONS.has(version)) {
      return this.error(400, "intercom_version_invalid", "The requested version could not be found", this.spend().headers);
    }

    const { headers, limited } = this.spend();
    if (limited) return this.error(429, "rate_limit_exceeded", `Exceeded rate limit of ${this.rateLimit} in ${Math.round(this.rateWindowMs / 1000)}_seconds`, headers);
    if (path === "/me") return this.json(200, this.me(teammate), headers);
    const params = new URL(request.url).searchParams;
    if (one) return this.conversationWithParts(decodeURIComponent(one[1] ?? ""), params, headers);
    return this.conversations(params, headers);
  }

  private me(t: Teammate): unknown {
    return {
      type: "admin",
      id: adminId(t.email),
      email: t.email,
      name: t.name,
      job_title: t.jobTitle,
      away_mode_enabled: false,
      away_mode_reassign: false,
      has_inbox_seat: true,
      team_ids: t.teamIds,
      email_verified: true,
      avatar: { type: "avatar", image_url: `https://static.intercomassets.test/avatars/${adminId(t.email)}/square_128.png` },
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
    };
  }

  private conversations(params: URLSearchParams, headers: Record<string, string>): Response {
    const perPageRaw = params.get("per_page");
    let perPage = DEFAULT_PER_PAGE;
    if (perPageRaw !== null) {
      if (!/^\d+$/.test(perPageRaw) || Number(perPageRaw) < 1) return this.error(400, "parameter_invalid", "per_page must be a positive integer", headers);
      perPage = Math.min(Number(perPageRaw), MAX_PER_PAGE);
    }
    let start = 0;
    const cursor = params.get("starting_after");
    if (cursor !== null) {
      const id = decodeCursor(cursor);
      const at = id === null ? undefined : this.positionById.get(id);
      if (at === undefined) return this.error(400, "parameter_invalid", "starting_after is invalid", headers);
      start = at + 1;
    }

    const slice = this.ordered.slice(start, start + perPage);
    const total = this.ordered.length;
    const last = slice.at(-1);
    const page = Math.floor(start / perPage) + 1;
    const pages: Record<string, unknown> = { type: "pages", page, per_page: perPage, total_pages: Math.max(1, Math.ceil(total / perPage)) };
    if (last && start + slice.length < total) pages.next = { page: page + 1, starting_after: encodeCursor(last.id), per_page: perPage };

    return this.json(
      200,
      {
        type: "conversation.list",
        conversations: slice.map((c) => this.conversation(c)),
        total_count: total,
        pages,
      },
      headers,
    );
  }

  /** The customer who started a conversation, with the contact id Intercom gives them. */
  private starter(c: SupportConversation): { id: string; external: string | null; name: string; email: string } {
    const s = conversationStarter(this.tenant, c);
    return { id: contactId(s.contactId ?? c.id), external: s.contactId, name: s.name, email: s.email };
  }

  /**
   * GET /conversations/{id}: the conversation as the list gives it, with its parts after the
   * opening message (which is the `source`), at most 500 as Intercom documents. `display_as=
   * plaintext` answers bodies as text; otherwise they are HTML.
   */
  private conversationWithParts(id: string, params: URLSearchParams, headers: Record<string, string>): Response {
    const at = this.positionById.get(id);
    const c = at === undefined ? undefined : this.ordered[at];
    if (!c) return this.error(404, "not_found", "Resource Not Found", headers);
    const plain = params.get("display_as") === "plaintext";
    const [opening, ...rest] = conversationThread(this.tenant, c);
    const body = (text: string) => (plain ? text : text ? `<p>${escapeHtml(text)}</p>` : null);
    const conversation = this.conversation(c) as { source: Record<string, unknown> };
    if (opening) conversation.source = { ...conversation.source, body: body(opening.body) };
    const parts = rest.slice(0, 500).map((p) => this.part(p, c, body));
    return this.json(200, { ...conversation, conversation_parts: { type: "conversation_part.list", conversation_parts: parts, total_count: rest.length } }, headers);
  }

  private part(p: ThreadPart, c: SupportConversation, body: (text: string) => string | null): unknown {
    const starter = this.starter(c);
    const author =
      p.author.kind === "teammate"
        ? { type: "admin", id: adminId(p.author.email), name: p.author.name, email: p.author.email }
        : { type: "user", id: starter.id, name: p.author.name, email: p.author.email };
    return {
      type: "conversation_part",
      id: p.id,
      part_type: p.kind,
      body: p.kind === "close" ? null : body(p.body),
      created_at: p.createdAt,
      updated_at: p.createdAt,
      notified_at: p.createdAt,
      assigned_to: null,
      author,
      attachments: [],
      external_id: null,
      redacted: false,
    };
  }

  private conversation(c: SupportConversation): unknown {
    const starter = this.starter(c);
    const assignee = c.assigneeEmail ? adminId(c.assigneeEmail) : null;
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
      admin_assignee_id: assignee === null ? null : Number(assignee),
      team_assignee_id: null,
      tags: { type: "tag.list", tags: [] },
      source: {
        type: "conversation",
        id: String(400_000_000 + (hashString(`intercom-source:${c.id}`) % 500_000_000)),
        delivered_as: "customer_initiated",
        subject: "",
        body: `<p>${escapeHtml(c.title ?? "Hello")}</p>`,
        author: { type: "user", id: starter.id, name: starter.name, email: starter.email },
        attachments: [],
        url: null,
        redacted: false,
      },
      contacts: { type: "contact.list", contacts: [{ type: "contact", id: starter.id, external_id: starter.external }] },
      teammates: { type: "admin.list", teammates: assignee === null ? [] : [{ type: "admin", id: assignee }] },
      custom_attributes: {},
      topics: { type: "topic.list", topics: [], total_count: 0 },
      first_contact_reply: { type: "conversation", created_at: c.createdAt, url: null },
      sla_applied: null,
      statistics: { type: "conversation_statistics", count_reopens: 0, count_assignments: assignee === null ? 0 : 1, count_conversation_parts: 1 },
      linked_objects: { type: "list", data: [], total_count: 0, has_more: false },
      ai_agent_participated: false,
      ai_agent: null,
    };
  }

  /**
   * Counts an authenticated call against the window's allowance, as Intercom does, and answers
   * the headers every authenticated answer carries; `limited` once the allowance is spent.
   */
  private spend(): { headers: Record<string, string>; limited: boolean } {
    const now = this.now();
    if (now - this.window.start >= this.rateWindowMs) this.window = { start: now, used: 0 };
    const limited = this.window.used >= this.rateLimit;
    if (!limited) this.window.used++;
    return { headers: this.rateHeaders(this.rateLimit - this.window.used, Math.ceil((this.window.start + this.rateWindowMs) / 1000)), limited };
  }

  private rateHeaders(remaining: number, resetEpochS: number): Record<string, string> {
    return { "x-ratelimit-limit": String(this.rateLimit), "x-ratelimit-remaining": String(Math.max(0, remaining)), "x-ratelimit-reset": String(resetEpochS) };
  }

  /**
   * A queued fault, answered in Intercom's error shape. A 429 says when to come back the way
   * Intercom does, in X-RateLimit-Reset, the fault's seconds from now; never in Retry-After.
   */
  private vendorFault(fault: Response): Response {
    const retryAfter = fault.headers.get("retry-after");
    if (fault.status === 401) return this.error(401, "unauthorized", "Access Token Invalid");
    if (fault.status === 403) return this.error(403, "api_plan_restricted", "Active subscription needed.");
    if (fault.status === 429) {
      const resetAt = Math.ceil(this.now() / 1000) + Number(retryAfter ?? "10");
      return this.error(429, "rate_limit_exceeded", `Exceeded rate limit of ${this.rateLimit} in ${Math.round(this.rateWindowMs / 1000)}_seconds`, this.rateHeaders(0, resetAt));
    }
    const extra: Record<string, string> = retryAfter ? { "retry-after": retryAfter } : {};
    if (fault.status === 503) return this.error(503, "service_unavailable", "Service Unavailable", extra);
    return this.error(fault.status, "server_error", "Server Error", extra);
  }

  private error(status: number, code: string, message: string, headers: Record<string, string> = {}): Response {
    return this.json(status, { type: "error.list", request_id: randomUUID(), errors: [{ code, message }] }, headers);
  }

  private json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
    return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8", ...headers } });
  }
}

export function createSupportStandIn(deps: StandInDeps, options: SupportStandInOptions = {}): StandIn {
  return new SupportStandIn(deps.tenant, deps, options);
}
