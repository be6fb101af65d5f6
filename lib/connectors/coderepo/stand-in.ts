import "server-only";
import { demoUsers } from "@/demo/users";
import { hashString, type Repository, type Tenant } from "@/demo/tenant";
import type { StandIn, StandInDeps } from "@/lib/connectors/types";
import { Faults } from "@/lib/connectors/stand-in/faults";
import { StandInOAuth, type StandInCaller } from "@/lib/connectors/stand-in/oauth";

// A stand-in of the GitHub REST API endpoints the client uses, GET /user and GET /user/repos, in
// the shapes GitHub's published OpenAPI description requires (private-user, repository, basic-error
// and validation-error), with Link-header paging and GitHub's rate-limit headers on every answer.
// Its tokens are a GitHub App's user tokens: ghu_ access tokens living eight hours, with ghr_
// refresh tokens that rotate on use and live six months. Each person sees the tenant's
// repositories visible to them. The API's own URLs in the answers point at wherever the stand-in
// is reached, as GitHub Enterprise's point at its own host.

const CODEREPO_TOKEN_PREFIX = "ghu";
const CODEREPO_REFRESH_PREFIX = "ghr";
const DOCS = "https://docs.github.com/rest";
const RATE_DOCS = "https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api";
const ORG_ID = 91_400_001;
/** A GitHub App's user token: eight hours; its refresh token: six months (15,811,200 s). */
const ACCESS_TTL_MS = 8 * 3_600_000;
const REFRESH_TTL_MS = 15_811_200_000;
/** GitHub's primary limit for a user token, and its window. */
const DEFAULT_RATE_LIMIT = 5_000;
const DEFAULT_RATE_WINDOW_MS = 3_600_000;
/** What GitHub allows an address without credentials; reported on answers to such requests. */
const ANONYMOUS_LIMIT = 60;

export interface CoderepoStandInOptions {
  /** Requests one account may make per window before GitHub's primary limit answers (default 5,000). */
  rateLimit?: number;
  /** The primary limit's window (default an hour), from the account's first request in it. */
  rateWindowMs?: number;
  /** How the primary limit is answered: 403 (GitHub's usual) or 429; both are documented. */
  rateLimitStatus?: 403 | 429;
}

/** The next answers GitHub's secondary limit gives instead of the data. */
interface SecondaryLimit {
  /** Seconds sent as Retry-After; absent, GitHub asks for at least a minute without saying so. */
  retryAfter?: number;
  status?: 403 | 429;
}

function kebab(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/**
 * GitHub logins for the tenant's people: their name in kebab case ("Casey Morgan" →
 * "casey-morgan", which owns the tenant's personal repository), else the email's local part.
 */
export function githubLogins(tenant: Tenant): Map<string, string> {
  const names = new Map<string, string>();
  for (const s of tenant.staff) names.set(s.email, `${s.firstName} ${s.lastName}`);
  for (const u of demoUsers) if (!names.has(u.email)) names.set(u.email, u.name);
  const logins = new Map<string, string>();
  const taken = new Set<string>();
  for (const [email, name] of names) {
    const base = kebab(name) || kebab(email.split("@")[0] ?? "") || "user";
    let login = base;
    for (let n = 2; taken.has(login); n++) login = `${base}${n}`;
    taken.add(login);
    logins.set(email, login);
  }
  return logins;
}

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "x-github-media-type": "github.v3; format=json", ...headers },
  });
}

/** GitHub writes timestamps to the second. */
function ghTime(msOrIso: number | string): string {
  return new Date(msOrIso).toISOString().replace(/\.\d{3}Z$/, "Z");
}

function positiveInt(v: string | null, fallback: number): number {
  const n = v !== null && /^\d+$/.test(v) ? Number(v) : Number.NaN;
  return Number.isSafeInteger(n) && n >= 1 ? n : fallback;
}

/** GitHub's global node ids are base64 of a type tag and the database id. */
function nodeId(kind: string, id: number): string {
  return Buffer.from(`0${kind.length}:${kind}${id}`).toString("base64");
}

/** Where the stand-in is reached: the request's origin and the mount above the API path. */
function apiBaseOf(request: Request, path: string): string {
  const url = new URL(request.url);
  const mount = url.pathname.endsWith(path) ? url.pathname.slice(0, url.pathname.length - path.length) : "";
  return `${url.origin}${mount.replace(/\/+$/, "")}`;
}

interface Window {
  start: number;
  used: number;
}

export class CoderepoStandIn implements StandIn {
  readonly faults = new Faults();
  readonly oauth: StandInOAuth;
  private readonly logins: Map<string, string>;
  private readonly names: Map<string, string>;
  private readonly userIds: Map<string, number>;
  private readonly emailByLogin: Map<string, string>;
  private readonly now: () => number;
  private readonly rateLimit: number;
  private readonly rateWindowMs: number;
  private readonly rateLimitStatus: 403 | 429;
  private readonly windows = new Map<string, Window>();
  private readonly secondary: SecondaryLimit[] = [];
  private requestSeq = 0;

  constructor(
    private readonly deps: StandInDeps,
    options: CoderepoStandInOptions = {},
  ) {
    this.now = deps.now ?? Date.now;
    this.rateLimit = options.rateLimit ?? DEFAULT_RATE_LIMIT;
    this.rateWindowMs = options.rateWindowMs ?? DEFAULT_RATE_WINDOW_MS;
    this.rateLimitStatus = options.rateLimitStatus ?? 403;
    if (!Number.isInteger(this.rateLimit) || this.rateLimit < 1) throw new RangeError(`rateLimit must be a positive integer, got ${this.rateLimit}`);
    this.logins = githubLogins(deps.tenant);
    this.names = new Map(deps.tenant.staff.map((s) => [s.email, `${s.firstName} ${s.lastName}`]));
    for (const u of demoUsers) this.names.set(u.email, u.name);
    this.userIds = new Map([...this.logins.keys()].map((email, i) => [email, 5_810_001 + i * 37]));
    this.emailByLogin = new Map([...this.logins].map(([email, login]) => [login, email]));
    const accounts = [...this.logins.keys()];
    this.oauth = new StandInOAuth({
      slug: "coderepo",
      product: "GitHub",
      tokenPrefix: CODEREPO_TOKEN_PREFIX,
      refreshPrefix: CODEREPO_REFRESH_PREFIX,
      refreshTokenExpiresIn: true,
      refreshTtlMs: REFRESH_TTL_MS,
      // A GitHub App's user token carries the app's permissions; its token answer names no scope.
      grantedScope: "",
      sealer: deps.sealer,
      accounts: () => accounts,
      consent: true,
      tokenTtlMs: deps.tokenTtlMs ?? ACCESS_TTL_MS,
      refreshRefusal: "github",
      now: deps.now,
      memory: deps.oauthMemory,
    });
  }

  /** The next `count` authenticated requests meet GitHub's secondary rate limit. */
  throttleNext(limit: SecondaryLimit = {}, count = 1): void {
    for (let i = 0; i < count; i++) this.secondary.push(limit);
  }

  async handle(request: Request, path: string, caller?: StandInCaller): Promise<Response> {
    const fault = await this.faults.apply(request, path);
    if (fault) return fault;

    const oauth = await this.oauth.serve(request, path, caller);
    if (oauth) return oauth;

    const route = path.replace(/\/+$/, "");
    const common = { "x-github-request-id": this.requestId(), ...this.anonymousRate() };
    if (request.method !== "GET" || (route !== "/user" && route !== "/user/repos")) {
      return json({ message: "Not Found", documentation_url: DOCS, status: "404" }, 404, common);
    }

    const email = await this.oauth.verify(request.headers.get("authorization"));
    if (!email) {
      // GitHub answers a missing token on /user with 401 too ("Requires authentication").
      const message = request.headers.get("authorization") ? "Bad credentials" : "Requires authentication";
      return json({ message, documentation_url: DOCS, status: "401" }, 401, common);
    }

    const limited = this.spend(email);
    const headers = { ...common, ...limited.headers, "x-github-api-version-selected": "2022-11-28" };
    if (limited.refused) return limited.refused(headers);
    const base = apiBaseOf(request, path);
    return route === "/user" ? json(this.userBody(email, base), 200, headers) : this.repos(request, email, base, headers);
  }

  private login(email: string): string {
    return this.logins.get(email) ?? email;
  }

  private requestId(): string {
    this.requestSeq++;
    const h = hashString(`${this.deps.tenant.seed}:gh:${this.requestSeq}`).toString(16).toUpperCase().padStart(8, "0");
    return `${h.slice(0, 4)}:${h.slice(4)}:${this.requestSeq.toString(16).toUpperCase()}`;
  }

  // ── rate limits ──────────────────────────────────────────────────────────────────────────

  /** Headers of an answer to a request without (valid) credentials: the address's allowance. */
  private anonymousRate(): Record<string, string> {
    const reset = Math.ceil((this.now() + DEFAULT_RATE_WINDOW_MS) / 1000);
    return rateHeaders(ANONYMOUS_LIMIT, 0, reset);
  }

  /**
   * Counts the request against the account's primary limit; answers the headers to send, and a
   * refusal when the limit (or a queued secondary limit) stops the request.
   */
  private spend(email: string): { headers: Record<string, string>; refused?: (headers: Record<string, string>) => Response } {
    const now = this.now();
    let w = this.windows.get(email);
    if (!w || now - w.start >= this.rateWindowMs) {
      w = { start: now, used: 0 };
      this.windows.set(email, w);
    }
    const reset = Math.ceil((w.start + this.rateWindowMs) / 1000);
    if (w.used >= this.rateLimit) {
      const id = this.userIds.get(email) ?? 0;
      return {
        headers: rateHeaders(this.rateLimit, w.used, reset),
        refused: (headers) => json({ message: `API rate limit exceeded for user ID ${id}.`, documentation_url: RATE_DOCS, status: String(this.rateLimitStatus) }, this.rateLimitStatus, headers),
      };
    }
    w.used++;
    const headers = rateHeaders(this.rateLimit, w.used, reset);
    const secondary = this.secondary.shift();
    if (!secondary) return { headers };
    const status = secondary.status ?? 403;
    return {
      headers,
      refused: (h) =>
        json(
          { message: "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.", documentation_url: `${RATE_DOCS}#about-secondary-rate-limits`, status: String(status) },
          status,
          secondary.retryAfter === undefined ? h : { ...h, "retry-after": String(secondary.retryAfter) },
        ),
    };
  }

  // ── shapes ───────────────────────────────────────────────────────────────────────────────

  /** The account's own profile (GitHub's private-user: what the owner of the token sees). */
  private userBody(email: string, api: string) {
    const login = this.login(email);
    const id = this.userIds.get(email) ?? 0;
    const owned = this.deps.tenant.repos.filter((r) => r.owner === login);
    const createdAt = this.deps.tenant.now - (4 * 365 + (hashString(`gh-user:${login}`) % 900)) * 86_400_000;
    return {
      ...this.simpleUser(login, id, "User", api),
      user_view_type: "private",
      name: this.names.get(email) ?? null,
      company: null,
      blog: "",
      location: null,
      email,
      notification_email: email,
      hireable: null,
      bio: null,
      twitter_username: null,
      public_repos: owned.filter((r) => !r.isPrivate).length,
      public_gists: 0,
      followers: 0,
      following: 0,
      created_at: ghTime(createdAt),
      updated_at: ghTime(this.deps.tenant.now - 86_400_000),
      private_gists: 0,
      total_private_repos: owned.filter((r) => r.isPrivate).length,
      owned_private_repos: owned.filter((r) => r.isPrivate).length,
      disk_usage: owned.reduce((sum, r) => sum + this.size(r), 0),
      collaborators: 0,
      two_factor_authentication: true,
      plan: { name: "pro", space: 976_562_499, collaborators: 0, private_repos: 9_999 },
    };
  }

  /** GitHub's simple-user: an account as other objects refer to it. */
  private simpleUser(login: string, id: number, type: "User" | "Organization", api: string) {
    const users = `${api}/users/${login}`;
    return {
      login,
      id,
      node_id: nodeId(type, id),
      avatar_url: `https://avatars.code.demo.test/u/${id}?v=4`,
      gravatar_id: "",
      url: users,
      html_url: `https://code.demo.test/${login}`,
      followers_url: `${users}/followers`,
      following_url: `${users}/following{/other_user}`,
      gists_url: `${users}/gists{/gist_id}`,
      starred_url: `${users}/starred{/owner}{/repo}`,
      subscriptions_url: `${users}/subscriptions`,
      organizations_url: `${users}/orgs`,
      repos_url: `${users}/repos`,
      events_url: `${users}/events{/privacy}`,
      received_events_url: `${users}/received_events`,
      type,
      user_view_type: "public",
      site_admin: false,
    };
  }

  private size(r: Repository): number {
    return 120 + (hashString(`gh-size:${r.id}`) % 48_000);
  }

  /** GitHub's repository, as GET /user/repos lists it for `viewer`. */
  private repoBody(r: Repository, viewer: string, api: string) {
    const ownerEmail = this.emailByLogin.get(r.owner);
    const owner = ownerEmail ? this.simpleUser(r.owner, this.userIds.get(ownerEmail) ?? 0, "User", api) : this.simpleUser(r.owner, ORG_ID, "Organization", api);
    const id = Number(r.id);
    const repo = `${api}/repos/${r.nameWithOwner}`;
    const web = new URL(r.url);
    const pushed = Date.parse(r.pushedAt);
    const created = pushed - (30 + (hashString(`gh-created:${r.id}`) % 900)) * 86_400_000;
    const isOwner = r.owner === viewer;
    return {
      id,
      node_id: nodeId("Repository", id),
      name: r.name,
      full_name: r.nameWithOwner,
      private: r.isPrivate,
      owner,
      html_url: r.url,
      description: r.description || null,
      fork: false,
      url: repo,
      archive_url: `${repo}/{archive_format}{/ref}`,
      assignees_url: `${repo}/assignees{/user}`,
      blobs_url: `${repo}/git/blobs{/sha}`,
      branches_url: `${repo}/branches{/branch}`,
      collaborators_url: `${repo}/collaborators{/collaborator}`,
      comments_url: `${repo}/comments{/number}`,
      commits_url: `${repo}/commits{/sha}`,
      compare_url: `${repo}/compare/{base}...{head}`,
      contents_url: `${repo}/contents/{+path}`,
      contributors_url: `${repo}/contributors`,
      deployments_url: `${repo}/deployments`,
      downloads_url: `${repo}/downloads`,
      events_url: `${repo}/events`,
      forks_url: `${repo}/forks`,
      git_commits_url: `${repo}/git/commits{/sha}`,
      git_refs_url: `${repo}/git/refs{/sha}`,
      git_tags_url: `${repo}/git/tags{/sha}`,
      git_url: `git://${web.host}/${r.nameWithOwner}.git`,
      issue_comment_url: `${repo}/issues/comments{/number}`,
      issue_events_url: `${repo}/issues/events{/number}`,
      issues_url: `${repo}/issues{/number}`,
      keys_url: `${repo}/keys{/key_id}`,
      labels_url: `${repo}/labels{/name}`,
      languages_url: `${repo}/languages`,
      merges_url: `${repo}/merges`,
      milestones_url: `${repo}/milestones{/number}`,
      notifications_url: `${repo}/notifications{?since,all,participating}`,
      pulls_url: `${repo}/pulls{/number}`,
      releases_url: `${repo}/releases{/id}`,
      ssh_url: `git@${web.host}:${r.nameWithOwner}.git`,
      stargazers_url: `${repo}/stargazers`,
      statuses_url: `${repo}/statuses/{sha}`,
      subscribers_url: `${repo}/subscribers`,
      subscription_url: `${repo}/subscription`,
      tags_url: `${repo}/tags`,
      teams_url: `${repo}/teams`,
      trees_url: `${repo}/git/trees{/sha}`,
      clone_url: `${r.url}.git`,
      mirror_url: null,
      hooks_url: `${repo}/hooks`,
      svn_url: r.url,
      homepage: null,
      language: "TypeScript",
      forks_count: 0,
      stargazers_count: 0,
      watchers_count: 0,
      size: this.size(r),
      default_branch: "main",
      open_issues_count: 0,
      is_template: false,
      topics: [],
      has_issues: true,
      has_projects: true,
      has_wiki: !r.isPrivate,
      has_pages: false,
      has_downloads: true,
      has_discussions: false,
      archived: false,
      disabled: false,
      visibility: r.isPrivate ? "private" : "public",
      pushed_at: ghTime(pushed),
      created_at: ghTime(created),
      updated_at: ghTime(pushed),
      permissions: { admin: isOwner, maintain: isOwner, push: true, triage: true, pull: true },
      allow_forking: !r.isPrivate,
      web_commit_signoff_required: false,
      license: null,
      forks: 0,
      open_issues: 0,
      watchers: 0,
    };
  }

  private repos(request: Request, email: string, api: string, headers: Record<string, string>): Response {
    const url = new URL(request.url);
    const q = url.searchParams;
    const login = this.login(email);

    const sort = q.get("sort") ?? "full_name";
    if (!["created", "updated", "pushed", "full_name"].includes(sort)) {
      return json({ message: "Validation Failed", errors: [{ resource: "Repository", field: "sort", code: "invalid" }], documentation_url: DOCS, status: "422" }, 422, headers);
    }
    const direction = q.get("direction") ?? (sort === "full_name" ? "asc" : "desc");
    const affiliation = (q.get("affiliation") ?? "owner,collaborator,organization_member").split(",").map((s) => s.trim());
    const perPage = Math.min(100, positiveInt(q.get("per_page"), 30));
    const page = positiveInt(q.get("page"), 1);

    const visible = this.deps.tenant.repos.filter((r) => {
      if (!r.visibleTo.includes(email)) return false;
      // Own repositories count as "owner"; the organisation's as "organization_member".
      return r.owner === login ? affiliation.includes("owner") : affiliation.includes("organization_member") || affiliation.includes("collaborator");
    });
    const key = (r: Repository) => (sort === "full_name" ? r.nameWithOwner : r.pushedAt);
    const sorted = [...visible].sort((a, b) => {
      const c = key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.nameWithOwner < b.nameWithOwner ? -1 : 1;
      return direction === "asc" ? c : -c;
    });

    const lastPage = Math.max(1, Math.ceil(sorted.length / perPage));
    const body = sorted.slice((page - 1) * perPage, page * perPage).map((r) => this.repoBody(r, login, api));
    const linkTo = (p: number) => {
      const u = new URL(url);
      u.searchParams.set("per_page", String(perPage));
      u.searchParams.set("page", String(p));
      return `<${u.toString()}>`;
    };
    const links: string[] = [];
    if (page > 1) links.push(`${linkTo(Math.min(page - 1, lastPage))}; rel="prev"`);
    if (page < lastPage) links.push(`${linkTo(page + 1)}; rel="next"`, `${linkTo(lastPage)}; rel="last"`);
    if (page > 1) links.push(`${linkTo(1)}; rel="first"`);
    return json(body, 200, links.length ? { ...headers, link: links.join(", ") } : headers);
  }
}

function rateHeaders(limit: number, used: number, resetEpochS: number): Record<string, string> {
  return {
    "x-ratelimit-limit": String(limit),
    "x-ratelimit-remaining": String(Math.max(0, limit - used)),
    "x-ratelimit-used": String(used),
    "x-ratelimit-reset": String(resetEpochS),
    "x-ratelimit-resource": "core",
  };
}

export function createCoderepoStandIn(deps: StandInDeps, options: CoderepoStandInOptions = {}): CoderepoStandIn {
  return new CoderepoStandIn(deps, options);
}
