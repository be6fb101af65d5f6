import "server-only";
import { isIP } from "node:net";
import path from "node:path";
import { z } from "zod";

// The one place that reads the environment. Everything else asks for `config()`.
const flag = z
  .enum(["1", "0", "true", "false", ""])
  .optional()
  .transform((v) => v === "1" || v === "true");

const optionalUrl = z.url().optional().or(z.literal("").transform(() => undefined));

function connectorEnv<P extends string>(prefix: P) {
  return {
    [`${prefix}_API_URL`]: optionalUrl,
    [`${prefix}_AUTHORIZE_URL`]: optionalUrl,
    [`${prefix}_TOKEN_URL`]: optionalUrl,
    [`${prefix}_CLIENT_ID`]: z.string().optional(),
    [`${prefix}_CLIENT_SECRET`]: z.string().optional(),
  } as Record<`${P}_API_URL` | `${P}_AUTHORIZE_URL` | `${P}_TOKEN_URL`, typeof optionalUrl> &
    Record<`${P}_CLIENT_ID` | `${P}_CLIENT_SECRET`, z.ZodOptional<z.ZodString>>;
}

/** The products each connector speaks, at their public addresses. */
const vendorDefaults = {
  tracker: { apiUrl: "https://api.linear.app", authorizeUrl: "https://linear.app/oauth/authorize", tokenUrl: "https://api.linear.app/oauth/token" },
  coderepo: { apiUrl: "https://api.github.com", authorizeUrl: "https://github.com/login/oauth/authorize", tokenUrl: "https://github.com/login/oauth/access_token" },
  calls: { apiUrl: "https://api.gong.io", authorizeUrl: "https://app.gong.io/oauth2/authorize", tokenUrl: "https://app.gong.io/oauth2/generate-customer-token" },
  support: { apiUrl: "https://api.intercom.io", authorizeUrl: "https://app.intercom.com/oauth", tokenUrl: "https://api.intercom.io/auth/eagle/token" },
} as const;

export type ConnectorSlug = keyof typeof vendorDefaults;

/**
 * The CRM portal (HubSpot) is read with organisation-level private-app tokens, one per portal:
 * `customers` and, optionally, the internal `users` portal.
 */
type CrmPortalConfig =
  | { mode: "vendor"; apiUrl: string; tokens: { customers: string; users: string | null } }
  | { mode: "stand-in"; apiUrl: string }
  | { mode: "off" };
export const connectorSlugs = Object.keys(vendorDefaults) as ConnectorSlug[];

/**
 * Where a connector's upstream is. `vendor`: the real product, with this deployment's OAuth
 * client. `stand-in`: the built-in stand-in of that product, served by this app under
 * /stand-ins/<slug> (the embedded default). `off`: not configured.
 */
export type UpstreamConfig =
  | { mode: "vendor"; apiUrl: string; authorizeUrl: string; tokenUrl: string; clientId: string; clientSecret: string }
  | { mode: "stand-in"; apiUrl: string; authorizeUrl: null; tokenUrl: string; clientId: string; clientSecret: string }
  | { mode: "off" };

/** An ALLOWED_HOSTS entry (lib/http/hosts.ts matches them): a name, name:port, [v6]:port, .domain or *. */
const ALLOWED_HOST_ENTRY = /^(?:\*|\.?[a-z0-9-]+(?:\.[a-z0-9-]+)*(?::[0-9]{1,5})?|\[[0-9a-f:.]+\](?::[0-9]{1,5})?)$/;

const schema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    PUBLIC_ORIGIN: z.url().optional(),
    ALLOWED_HOSTS: z
      .string()
      .default("")
      .transform((v) => v.split(",").map((x) => x.trim().toLowerCase()).filter(Boolean))
      .superRefine((entries, ctx) => {
        for (const entry of entries) {
          if (!ALLOWED_HOST_ENTRY.test(entry)) {
            ctx.addIssue({ code: "custom", message: `"${entry.slice(0, 80)}" is not a host name, name:port, .domain (the name and every name under it) or *` });
          }
        }
      }),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "DATABASE_URL must be a postgres:// URL")
      .optional()
      .or(z.literal("").transform(() => undefined)),
    DATABASE_SCHEMA: z
      .string()
      .regex(/^[a-z_][a-z0-9_]{0,62}$/)
      .optional(),
    DATA_DIR: z.string().default(".data"),
    DEMO_TENANT: z
      .enum(["1", "0", "true", "false"])
      .default("true")
      .transform((v) => v === "1" || v === "true"),
    DEMO_SCALE: z.coerce.number().int().min(1).max(100).default(1),
    SESSION_TTL_HOURS: z.coerce.number().int().min(1).max(24 * 90).default(24 * 14),
    OIDC_ISSUER: z.url().optional().or(z.literal("").transform(() => undefined)),
    OIDC_CLIENT_ID: z.string().optional(),
    OIDC_CLIENT_SECRET: z.string().optional(),
    OIDC_GROUPS_CLAIM: z.string().default("groups"),
    OIDC_ALLOW_HTTP: flag,
    BENCH_BASELINE: flag,
    TEST_FAULTS: flag,
    SECRET_KEY: z.string().min(32, "SECRET_KEY must be at least 32 characters").optional().or(z.literal("").transform(() => undefined)),
    STAND_INS: z.enum(["1", "0", "true", "false"]).optional(),
    STAND_IN_ORIGIN: z.url().optional(),
    STAND_IN_TOKEN_TTL_MS: z.coerce.number().int().min(1_000).max(30 * 86_400_000).optional().or(z.literal("").transform(() => undefined)),
    ...connectorEnv("TRACKER"),
    ...connectorEnv("CODEREPO"),
    ...connectorEnv("CALLS"),
    ...connectorEnv("SUPPORT"),
    CRMPORTAL_API_URL: optionalUrl,
    CRMPORTAL_TOKEN: z.string().optional(),
    CRMPORTAL_USERS_TOKEN: z.string().optional(),
    CRM_SYNC_INTERVAL_MS: z.coerce.number().int().min(10_000).max(86_400_000).default(900_000),
    CRM_ARCHIVED_EVERY_MS: z.coerce.number().int().min(0).max(7 * 86_400_000).default(3_600_000),
    CRM_SYNC_ON_START: z
      .enum(["1", "0", "true", "false"])
      .default("true")
      .transform((v) => v === "1" || v === "true"),
    TRUSTED_PROXY: z
      .string()
      .default("")
      .refine((v) => v.split(",").map((x) => x.trim()).filter(Boolean).every((x) => isIP(x.split("/")[0] ?? "") !== 0), "TRUSTED_PROXY must list IP addresses or CIDR ranges, comma-separated"),
    DRAFT_IDLE_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
    DRAFT_HISTORY_KEEP: z.coerce.number().int().min(1).max(1000).default(50),
    PLAYGROUND_CREATES_PER_MIN: z.coerce.number().int().min(1).default(30),
    PLAYGROUND_UPDATES_PER_MIN: z.coerce.number().int().min(1).default(120),
    PLAYGROUND_STREAMS_PER_DRAFT: z.coerce.number().int().min(1).default(10),
    PLAYGROUND_STREAMS_PER_ADDRESS: z.coerce.number().int().min(1).default(50),
    PLAYGROUND_STREAMS_TOTAL: z.coerce.number().int().min(2).default(10_000),
    PLAYGROUND_READS_PER_MIN: z.coerce.number().int().min(1).default(300),
    PLAYGROUND_DEMO_READS_PER_MIN: z.coerce.number().int().min(1).default(1200),
    PLAYGROUND_READ_MIB_PER_SEC: z.coerce.number().int().min(1).default(16),
    PLAYGROUND_REPORTS_PER_MIN: z.coerce.number().int().min(1).default(60),
    OAUTH_UNAPPROVED_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(100),
    OAUTH_CLIENTS_MAX: z.coerce.number().int().min(2).max(10_000_000).default(10_000),
    // Client metadata documents on loopback, private and link-local addresses: closed networks and tests only.
    OAUTH_CLIENT_METADATA_PRIVATE: z
      .enum(["1", "0", "true", "false"])
      .default("false")
      .transform((v) => v === "1" || v === "true"),
    RENDERER_CHROMIUM: z
      .string()
      .default("auto")
      .refine((v) => v === "auto" || v === "off" || path.isAbsolute(v), "RENDERER_CHROMIUM must be auto, off, or an absolute path to a Chromium binary"),
    RENDERER_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
    RENDERER_QUEUE: z.coerce.number().int().min(0).max(1000).default(8),
    RENDERER_TIMEOUT_MS: z.coerce.number().int().min(2_000).max(120_000).default(20_000),
    RENDERER_MEMORY_MIB: z.coerce.number().int().min(128).max(65_536).default(1_024),
    PLAYGROUND_RENDERS_PER_MIN: z.coerce.number().int().min(1).default(20),
    PLAYGROUND_RENDERS_PER_DRAFT_PER_MIN: z.coerce.number().int().min(1).default(30),
    CONNECTOR_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
    CONNECTOR_CACHE_FRESH_MS: z.coerce.number().int().min(0).max(3_600_000).default(30_000),
    CONNECTOR_CACHE_STALE_MS: z.coerce.number().int().min(0).max(86_400_000).default(300_000),
    METRICS_TOKEN: z.string().min(16, "METRICS_TOKEN must be at least 16 characters").optional().or(z.literal("").transform(() => undefined)),
    SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
    LOG_FORMAT: z.enum(["auto", "json", "pretty"], "must be auto, json or pretty").default("auto"),
    LOG_LEVEL: z.enum(["debug", "info", "warn", "error"], "must be debug, info, warn or error").default("info"),
  })
  .superRefine((env, ctx) => {
    if (env.PLAYGROUND_STREAMS_TOTAL <= env.PLAYGROUND_STREAMS_PER_ADDRESS) {
      ctx.addIssue({ code: "custom", path: ["PLAYGROUND_STREAMS_TOTAL"], message: "must be above PLAYGROUND_STREAMS_PER_ADDRESS, or one address could fill it" });
    }
    if (env.OAUTH_CLIENTS_MAX <= env.OAUTH_UNAPPROVED_PER_ADDRESS) {
      ctx.addIssue({ code: "custom", path: ["OAUTH_CLIENTS_MAX"], message: "must be above OAUTH_UNAPPROVED_PER_ADDRESS, or one address could fill it" });
    }
    if (env.OIDC_ISSUER && !env.OIDC_CLIENT_ID) {
      ctx.addIssue({ code: "custom", path: ["OIDC_CLIENT_ID"], message: "required when OIDC_ISSUER is set" });
    }
  });

export type Config = ReturnType<typeof parseConfig>;

/**
 * What is wrong with an environment, one "VARIABLE: what is wrong" per problem; empty when it is
 * good. scripts/start.mjs runs it (scripts/check-config.ts) before the server listens, so a bad
 * value stops `npm start` instead of leaving a server that answers 500 to everything. Values are
 * never repeated: some are secrets.
 */
export function configProblems(env: Record<string, string | undefined>): string[] {
  const parsed = schema.safeParse(env);
  return parsed.success ? [] : parsed.error.issues.map(describeIssue);
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const name = String(issue.path[0] ?? "configuration");
  // z.coerce.number() reads "ten" as NaN and says so in its own terms.
  const message = issue.code === "invalid_type" && issue.expected === "number" ? "must be a number" : issue.message;
  return `${name}: ${message.startsWith(`${name} `) ? message.slice(name.length + 1) : message}`;
}

export function parseConfig(env: Record<string, string | undefined>) {
  const parsed = schema.safeParse(env);
  if (!parsed.success) throw new Error(`Invalid configuration: ${parsed.error.issues.map(describeIssue).join("; ")}`);
  const e = parsed.data;
  const standInsOn = e.STAND_INS === undefined ? e.DEMO_TENANT : e.STAND_INS === "1" || e.STAND_INS === "true";
  const standInOrigin = (e.STAND_IN_ORIGIN ?? `http://127.0.0.1:${e.PORT}`).replace(/\/$/, "");
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    publicOrigin: e.PUBLIC_ORIGIN?.replace(/\/$/, ""),
    /** Names the server answers under besides loopback, its listening address and PUBLIC_ORIGIN's (lib/http/hosts.ts). */
    allowedHosts: e.ALLOWED_HOSTS,
    storage: e.DATABASE_URL
      ? ({ kind: "postgres", url: e.DATABASE_URL, schema: e.DATABASE_SCHEMA } as const)
      : ({ kind: "sqlite", file: path.resolve(e.DATA_DIR, "app.sqlite") } as const),
    dataDir: path.resolve(e.DATA_DIR),
    demo: { enabled: e.DEMO_TENANT, scale: e.DEMO_SCALE },
    sessionTtlMs: e.SESSION_TTL_HOURS * 3600_000,
    oidc: e.OIDC_ISSUER
      ? {
          issuer: e.OIDC_ISSUER,
          clientId: e.OIDC_CLIENT_ID ?? "",
          clientSecret: e.OIDC_CLIENT_SECRET,
          groupsClaim: e.OIDC_GROUPS_CLAIM,
          allowHttp: e.OIDC_ALLOW_HTTP,
        }
      : null,
    benchBaseline: e.BENCH_BASELINE,
    /** GET /test-fault fails on purpose (the integration tests' unexpected failure). */
    testFaults: e.TEST_FAULTS,
    secretKey: e.SECRET_KEY,
    connectorTimeoutMs: e.CONNECTOR_TIMEOUT_MS,
    connectorCache: { freshMs: e.CONNECTOR_CACHE_FRESH_MS, staleMs: e.CONNECTOR_CACHE_STALE_MS },
    standIns: standInsOn,
    /** Overrides the access-token lifetime of the stand-ins whose vendors expire tokens; null keeps the vendors' own. */
    standInTokenTtlMs: e.STAND_IN_TOKEN_TTL_MS ?? null,
    crmportal: (e.CRMPORTAL_TOKEN
      ? {
          mode: "vendor",
          apiUrl: (e.CRMPORTAL_API_URL ?? "https://api.hubapi.com").replace(/\/$/, ""),
          tokens: { customers: e.CRMPORTAL_TOKEN, users: e.CRMPORTAL_USERS_TOKEN ?? null },
        }
      : standInsOn
        ? { mode: "stand-in", apiUrl: `${standInOrigin}/stand-ins/crmportal` }
        : { mode: "off" }) as CrmPortalConfig,
    /** Bearer token that opens /metrics to callers that are not on loopback; unset: loopback only. */
    metricsToken: e.METRICS_TOKEN,
    /** How long SIGTERM waits for requests in flight before closing storage and exiting. */
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    /** auto: readable lines on a terminal, JSON lines for anything else (a collector). */
    log: { format: e.LOG_FORMAT, level: e.LOG_LEVEL },
    crmSync: { intervalMs: e.CRM_SYNC_INTERVAL_MS, onStart: e.CRM_SYNC_ON_START, archivedEveryMs: e.CRM_ARCHIVED_EVERY_MS },
    playground: {
      trustedProxy: e.TRUSTED_PROXY.split(",").map((x) => x.trim()).filter(Boolean),
      draftIdleDays: e.DRAFT_IDLE_DAYS,
      historyKeep: e.DRAFT_HISTORY_KEEP,
      createsPerMinute: e.PLAYGROUND_CREATES_PER_MIN,
      updatesPerMinute: e.PLAYGROUND_UPDATES_PER_MIN,
      streamsPerDraft: e.PLAYGROUND_STREAMS_PER_DRAFT,
      streamsPerAddress: e.PLAYGROUND_STREAMS_PER_ADDRESS,
      streamsTotal: e.PLAYGROUND_STREAMS_TOTAL,
      readsPerMinute: e.PLAYGROUND_READS_PER_MIN,
      demoReadsPerMinute: e.PLAYGROUND_DEMO_READS_PER_MIN,
      readBytesPerSecond: e.PLAYGROUND_READ_MIB_PER_SEC * 1024 * 1024,
      reportsPerMinute: e.PLAYGROUND_REPORTS_PER_MIN,
      rendersPerMinute: e.PLAYGROUND_RENDERS_PER_MIN,
      rendersPerDraftPerMinute: e.PLAYGROUND_RENDERS_PER_DRAFT_PER_MIN,
    },
    /** The MCP endpoint's authorization server: how many registered clients it keeps (lib/auth/oauth.ts RegistrationBounds). */
    oauth: { registrations: { perAddress: e.OAUTH_UNAPPROVED_PER_ADDRESS, total: e.OAUTH_CLIENTS_MAX }, metadataFromPrivateAddresses: e.OAUTH_CLIENT_METADATA_PRIVATE },
    /** The service's own renderer of demo drafts (lib/renderer): which Chromium, and its bounds. */
    renderer: {
      chromium: e.RENDERER_CHROMIUM,
      concurrency: e.RENDERER_CONCURRENCY,
      queue: e.RENDERER_QUEUE,
      timeoutMs: e.RENDERER_TIMEOUT_MS,
      memoryBytes: e.RENDERER_MEMORY_MIB * 1024 * 1024,
    },
    upstreams: Object.fromEntries(
      connectorSlugs.map((slug) => [slug, upstreamFor(slug, e as unknown as Record<string, string | undefined>, standInsOn, standInOrigin)]),
    ) as Record<ConnectorSlug, UpstreamConfig>,
  };
}

function upstreamFor(slug: ConnectorSlug, e: Record<string, string | undefined>, standIns: boolean, standInOrigin: string): UpstreamConfig {
  const p = slug.toUpperCase();
  const clientId = e[`${p}_CLIENT_ID`];
  if (clientId) {
    const d = vendorDefaults[slug];
    return {
      mode: "vendor",
      apiUrl: (e[`${p}_API_URL`] ?? d.apiUrl).replace(/\/$/, ""),
      authorizeUrl: e[`${p}_AUTHORIZE_URL`] ?? d.authorizeUrl,
      tokenUrl: e[`${p}_TOKEN_URL`] ?? d.tokenUrl,
      clientId,
      clientSecret: e[`${p}_CLIENT_SECRET`] ?? "",
    };
  }
  if (!standIns) return { mode: "off" };
  const base = `${standInOrigin}/stand-ins/${slug}`;
  return { mode: "stand-in", apiUrl: base, authorizeUrl: null, tokenUrl: `${base}/oauth/token`, clientId: `dashboards-${slug}`, clientSecret: "stand-in" };
}

/**
 * The environment for a browser the server starts (the renderer's Chromium): the server's own,
 * without the allocator scripts/start.mjs may preload, which Chromium (bringing its own) fails
 * to start under.
 */
export function browserEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== "LD_PRELOAD" && k !== "MALLOC_CONF") env[k] = v;
  return env;
}

/** Every variable this module reads, for checking that `.env.example` documents them all. */
export const configVariables: readonly string[] = Object.keys(schema.shape);

let cached: Config | undefined;

export function config(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}

