import path from "node:path";
import { z } from "zod";

// The one place that reads the environment. Everything else asks for `config()`.
const flag = z
  .enum(["1", "0", "true", "false", ""])
  .optional()
  .transform((v) => v === "1" || v === "true");

const schema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    PUBLIC_ORIGIN: z.url().optional(),
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
  })
  .superRefine((env, ctx) => {
    if (env.OIDC_ISSUER && !env.OIDC_CLIENT_ID) {
      ctx.addIssue({ code: "custom", path: ["OIDC_CLIENT_ID"], message: "required when OIDC_ISSUER is set" });
    }
  });

export type Config = ReturnType<typeof parseConfig>;

export function parseConfig(env: Record<string, string | undefined>) {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    publicOrigin: e.PUBLIC_ORIGIN?.replace(/\/$/, ""),
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
  };
}

let cached: Config | undefined;

export function config(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}

/** Tests swap configuration without touching process.env. */
export function setConfigForTests(next: Config | undefined): void {
  cached = next;
}
