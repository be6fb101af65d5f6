import "server-only";
import { demoUsers } from "@/demo/users";
import type { Repository, Tenant } from "@/demo/tenant";
import type { StandIn, StandInDeps } from "@/lib/connectors/types";
import { Faults } from "@/lib/connectors/stand-in/faults";
import { StandInOAuth, type StandInCaller } from "@/lib/connectors/stand-in/oauth";

// A stand-in of the GitHub REST API endpoints the client uses: GET /user and GET /user/repos,
// with GitHub's field names, Link-header paging, error bodies and scope header. Each person
// sees the tenant's repositories visible to them.

export const CODEREPO_TOKEN_PREFIX = "gho";
/** What GitHub reports in X-OAuth-Scopes for a token granted the connector's scope. */
export const STAND_IN_SCOPES = "repo, read:user";
const DOCS = "https://docs.github.com/rest";
const ORG_ID = 91_400_001;

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

const notFound = () => json({ message: "Not Found", documentation_url: DOCS, status: "404" }, 404);

/** GitHub writes timestamps to the second. */
function ghTime(iso: string): string {
  return iso.replace(/\.\d{3}Z$/, "Z");
}

function positiveInt(v: string | null, fallback: number): number {
  const n = v !== null && /^\d+$/.test(v) ? Number(v) : Number.NaN;
  return Number.isSafeInteger(n) && n >= 1 ? n : fallback;
}

class CoderepoStandIn implements StandIn {
  readonly faults = new Faults();
  readonly oauth: StandInOAuth;
  private readonly logins: Map<string, string>;
  private readonly names: Map<string, string>;
  private readonly userIds: Map<string, number>;
  private readonly emailByLogin: Map<string, string>;

  constructor(private readonly deps: StandInDeps) {
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
      sealer: deps.sealer,
      accounts: () => accounts,
      consent: true,
      // A GitHub App's user-to-server tokens expire after eight hours, with a rotating refresh token.
      tokenTtlMs: deps.tokenTtlMs ?? 8 * 3_600_000,
      refreshRefusal: "github",
      now: deps.now,
      memory: deps.oauthMemory,
    });
  }

  async handle(request: Request, path: string, caller?: StandInCaller): Promise<Response> {
    const fault = await this.faults.apply(request, path);
    if (fault) return fault;

    const oauth = await this.oauth.serve(request, path, caller);
    if (oauth) return oauth;

    const route = path.replace(/\/+$/, "");
    if (request.method !== "GET" || (route !== "/user" && route !== "/user/repos")) return notFound();

    const email = await this.oauth.verify(request.headers.get("authorization"));
    if (!email) {
      // GitHub answers a missing token on /user with 401 too ("Requires authentication").
      const message = request.headers.get("authorization") ? "Bad credentials" : "Requires authentication";
      return json({ message, documentation_url: DOCS, status: "401" }, 401);
    }
    const scopeHeaders = { "x-oauth-scopes": STAND_IN_SCOPES, "x-accepted-oauth-scopes": route === "/user" ? "" : "repo" };
    return route === "/user" ? json(this.userBody(email), 200, scopeHeaders) : this.repos(request, email, scopeHeaders);
  }

  private login(email: string): string {
    return this.logins.get(email) ?? email;
  }

  private userBody(email: string) {
    const login = this.login(email);
    return {
      login,
      id: this.userIds.get(email) ?? 0,
      type: "User",
      name: this.names.get(email) ?? null,
      email,
      html_url: `https://code.demo.test/${login}`,
    };
  }

  private repoBody(r: Repository) {
    const ownerEmail = this.emailByLogin.get(r.owner);
    return {
      id: Number(r.id),
      node_id: Buffer.from(`010:Repository${r.id}`).toString("base64"),
      name: r.name,
      full_name: r.nameWithOwner,
      private: r.isPrivate,
      owner: {
        login: r.owner,
        id: ownerEmail ? (this.userIds.get(ownerEmail) ?? 0) : ORG_ID,
        type: ownerEmail ? "User" : "Organization",
      },
      html_url: r.url,
      description: r.description || null,
      fork: false,
      archived: false,
      default_branch: "main",
      visibility: r.isPrivate ? "private" : "public",
      pushed_at: ghTime(r.pushedAt),
      updated_at: ghTime(r.pushedAt),
    };
  }

  private repos(request: Request, email: string, headers: Record<string, string>): Response {
    const url = new URL(request.url);
    const q = url.searchParams;
    const login = this.login(email);

    const sort = q.get("sort") ?? "full_name";
    if (!["created", "updated", "pushed", "full_name"].includes(sort)) {
      return json({ message: "Validation Failed", errors: [{ resource: "Repository", field: "sort", code: "invalid" }], documentation_url: DOCS, status: "422" }, 422);
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
    const body = sorted.slice((page - 1) * perPage, page * perPage).map((r) => this.repoBody(r));
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

export function createCoderepoStandIn(deps: StandInDeps): StandIn {
  return new CoderepoStandIn(deps);
}
