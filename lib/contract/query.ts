import { z } from "zod";
import type { EndpointDef } from "./endpoints";
import { ApiError } from "./errors";

// Query parameters arrive as strings. Each parser accepts exactly the documented form and
// says what it wanted, so a 400 can carry a useful hint.

export const LIMIT_DEFAULT = 50;
export const LIMIT_MAX = 200;

const isoDate = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The years a window may name. Years 0–99 are valid ISO dates, but Date.UTC reads them as
 * 1900–1999, so a window computed from them would not be the one asked for; nothing in the data
 * is older than 1970.
 */
const DATE_YEAR_MIN = 1970;

function validDate(s: string): boolean {
  if (!isoDate.test(s) || Number(s.slice(0, 4)) < DATE_YEAR_MIN) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

const limitParam = z
  .string()
  .regex(/^\d{1,3}$/, `limit must be an integer from 1 to ${LIMIT_MAX}`)
  .transform(Number)
  .pipe(z.number().int().min(1, `limit must be an integer from 1 to ${LIMIT_MAX}`).max(LIMIT_MAX, `limit must be an integer from 1 to ${LIMIT_MAX}`))
  .optional()
  .meta({ description: `Page size, 1 to ${LIMIT_MAX}; default ${LIMIT_DEFAULT}` });

const cursorParam = z
  .string()
  .min(1)
  .max(512)
  .optional()
  .meta({ description: "Opaque cursor from the previous page's `nextCursor`" });

const daysParam = z
  .string()
  .regex(/^\d{1,3}$/, "days must be an integer from 1 to 365")
  .transform(Number)
  .pipe(z.number().int().min(1, "days must be an integer from 1 to 365").max(365, "days must be an integer from 1 to 365"))
  .optional()
  .meta({ description: "Window length in days, 1 to 365; default 30. Ignored when from/to are given." });

const dateParam = z
  .string()
  .refine(validDate, `expected a calendar date from ${DATE_YEAR_MIN}-01-01 to 9999-12-31 as YYYY-MM-DD`)
  .optional()
  // The refinement has no JSON Schema form; the format keeps the generated documents precise.
  .meta({ format: "date" });

export const booleanParam = z
  .enum(["true", "false"], { error: "expected true or false" })
  .transform((v) => v === "true")
  .optional();

/** The CX window fields: `days`, or `from` and `to` together. */
export const windowShape = {
  days: daysParam,
  from: dateParam.meta({ description: "Window start, YYYY-MM-DD, 1970 or later (with `to`)" }),
  to: dateParam.meta({ description: "Window end, YYYY-MM-DD, not before `from` and at most 365 days from it, both ends counted (with `from`)" }),
};

/** The longest window, in days counting both ends: as long as `days` may ask for. */
const WINDOW_DAYS_MAX = 365;

const dayNumber = (iso: string) => Date.UTC(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)) - 1, Number(iso.slice(8, 10))) / 86_400_000;

/** Adds the cross-field rules of the window (from and to together, from ≤ to, at most 365 days) to a query object. */
export function withWindowRules<T extends z.ZodObject<typeof windowShape & z.ZodRawShape>>(schema: T) {
  return schema.superRefine((q: { from?: string; to?: string }, ctx) => {
    if ((q.from === undefined) !== (q.to === undefined)) {
      ctx.addIssue({ code: "custom", path: [q.from === undefined ? "from" : "to"], message: "from and to go together" });
    } else if (q.from !== undefined && q.to !== undefined && q.from > q.to) {
      ctx.addIssue({ code: "custom", path: ["from"], message: "from must not be after to" });
    } else if (q.from !== undefined && q.to !== undefined && dayNumber(q.to) - dayNumber(q.from) + 1 > WINDOW_DAYS_MAX) {
      ctx.addIssue({ code: "custom", path: ["to"], message: `from and to may span at most ${WINDOW_DAYS_MAX} days, both ends counted` });
    }
  });
}

export const pageQuery = z.object({ limit: limitParam, cursor: cursorParam });
export const noQuery = z.object({});

/** `"a" or "b"`, `one of "a", "b" or "c"`. */
function oneOf(values: string[]): string {
  if (values.length === 1) return values[0]!;
  const list = `${values.slice(0, -1).join(", ")} or ${values.at(-1)}`;
  return values.length === 2 ? list : `one of ${list}`;
}

/**
 * Reads an endpoint's query the way the API does: each parameter at most once, a missing
 * required parameter answers its own code (e.g. owner_required), anything malformed answers
 * invalid_query with a hint naming the parameter. `ignore` names parameters that belong to the
 * caller (the playground's scenario and variant), not to the endpoint.
 */
export function parseEndpointQuery(search: URLSearchParams, endpoint: EndpointDef, ignore: readonly string[] = []): unknown {
  const raw: Record<string, string> = {};
  for (const key of new Set(search.keys())) {
    if (ignore.includes(key)) continue;
    const values = search.getAll(key);
    if (values.length > 1) throw new ApiError("invalid_query", `${key} was given ${values.length} times; give it once.`);
    raw[key] = values[0] ?? "";
  }
  for (const [key, code] of Object.entries(endpoint.missingQuery ?? {})) {
    if (raw[key] === undefined || raw[key] === "") throw new ApiError(code, `${key} is required: ${endpoint.missingQueryForm?.[key] ?? `give ?${key}=<value>`}.`);
  }
  const parsed = endpoint.query.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = issue?.path.join(".");
    const where = name ? `${name}: ` : "";
    // A value outside a set is named with the set in words, not as the validator's `"a"|"b"`.
    const message =
      issue?.code === "invalid_value" && name !== undefined && issue.values.length > 0
        ? `must be ${oneOf(issue.values.map((v) => JSON.stringify(String(v))))}, not ${JSON.stringify((raw[name] ?? "").slice(0, 40))}`
        : issue?.message;
    throw new ApiError("invalid_query", `${where}${message ?? "malformed query"}`);
  }
  return parsed.data;
}
