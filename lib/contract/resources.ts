import { z } from "zod";

// Every resource of the interface specification, with its field names, nullability and
// requiredness. Optional (`.optional()`) means "may be absent"; nullable means "may be null".
// These schemas are shared by the server, the browser and the docs: no server-only imports.

export const errorEnvelope = z
  .object({
    error: z.string().meta({ description: "Stable error code" }),
    hint: z.string().optional().meta({ description: "Optional next step" }),
  })
  .meta({ id: "ErrorEnvelope", description: "The body of every non-2xx response." });

// ── Value sets ────────────────────────────────────────────────────────────────────────────
const connectionStatus = z.enum(["ok", "not-configured", "not-connected", "failed"]);
const healthBand = z.enum(["STRONG", "GOOD", "MODERATE", "POOR", "NO_BASELINE"]);
export const bookBasis = z.enum(["real", "activity"]);
export const dataMode = z.enum(["demo", "live"]);
const engagementKind = z.enum(["call", "meeting", "email"]);

// ── Identity ──────────────────────────────────────────────────────────────────────────────
export const me = z
  .object({
    email: z.string(),
    groups: z.array(z.string()).optional(),
    permissions: z.array(z.string()).optional(),
  })
  .meta({ id: "Me" });

export const favourite = z.object({ href: z.string(), label: z.string() }).meta({ id: "Favourite" });

export const home = z
  .object({
    path: z.string().nullable().meta({ description: "Null means the built-in landing page" }),
  })
  .meta({ id: "Home" });

export const connectionCheck = z
  .object({
    slug: z.string().meta({ description: "Connector slug" }),
    title: z.string(),
    status: connectionStatus,
    ok: z.boolean().meta({ description: "True exactly when the probe succeeded: the field to branch on" }),
    summary: z.string(),
    probe: z.string().meta({ description: "What the probe did" }),
    details: z.array(z.object({ label: z.string(), value: z.string() })).meta({
      description: "Facts returned by the live call",
    }),
    durationMs: z.number(),
  })
  .meta({ id: "ConnectionCheck" });

// ── CRM (normalised) ──────────────────────────────────────────────────────────────────────
export const crmCompany = z
  .object({
    id: z.string(),
    name: z.string(),
    domain: z.string().optional(),
    industry: z.string().optional(),
    employees: z.number().optional(),
    parentCompanyId: z.string().nullable().optional().meta({
      description: "Parent company (a school under a district). Null at the top.",
    }),
    arr: z.number().nullable().optional().meta({
      description: "Annual recurring revenue. Null when the instance is non-monetary or the value is unset.",
    }),
    updatedAt: z.number().optional().meta({ description: "Epoch milliseconds of the last sync of the record" }),
  })
  .meta({ id: "CrmCompany" });

export const crmContact = z
  .object({
    id: z.string(),
    email: z.string().optional(),
    firstName: z.string().optional(),
    lastName: z.string().optional(),
    companyId: z.string().nullable().optional().meta({ description: "Joins to the company `id`" }),
    lifecycleStage: z.string().optional(),
    updatedAt: z.number().optional(),
  })
  .meta({ id: "CrmContact" });

export const crmDeal = z
  .object({
    id: z.string(),
    name: z.string(),
    companyId: z.string().nullable().optional(),
    amount: z.number().optional(),
    stage: z.string().optional(),
    closeDate: z.string().optional(),
    updatedAt: z.number().optional(),
  })
  .meta({ id: "CrmDeal" });

export const crmSummary = z
  .object({
    totals: z.object({ contacts: z.number(), companies: z.number(), deals: z.number() }),
    lifecycle: z
      .array(z.object({ stage: z.string(), count: z.number() }))
      .optional()
      .meta({ description: "Contacts by lifecycle stage" }),
    pipeline: z
      .array(z.object({ stage: z.string(), count: z.number(), amount: z.number().optional() }))
      .optional()
      .meta({ description: "Deals by stage. Omitted, with per-stage amount, on non-monetary instances." }),
  })
  .meta({ id: "CrmSummary" });

/** Our own design: the sync state of one connector feeding a CRM instance. */
export const crmSource = z
  .object({
    connector: z.string().meta({ description: "Connector slug, e.g. `crmportal`" }),
    title: z.string(),
    status: z.enum(["never_run", "running", "ok", "failed"]),
    lastRunAt: z.number().nullable().meta({ description: "Epoch ms when the last run started" }),
    lastSuccessAt: z.number().nullable().meta({ description: "Epoch ms when the last successful run finished" }),
    progress: z
      .object({ done: z.number(), expected: z.number().nullable() })
      .nullable()
      .meta({ description: "Rows done of rows expected while a run is in progress; null otherwise" }),
    objects: z
      .array(
        z.object({
          object: z.string().meta({ description: "Object type: companies, contacts, deals, …" }),
          watermark: z.number().nullable().meta({ description: "Epoch ms of the newest change synced" }),
          rows: z.number(),
        }),
      )
      .meta({ description: "Per object type: watermark and row count" }),
    lastError: z.string().nullable(),
    rateLimits: z
      .object({
        searches: z.number().int().meta({
          description: "Search requests the run sent, retries included. The CRM portal (HubSpot) limits searches per token to a few a second.",
        }),
        pacedMs: z.number().meta({ description: "Milliseconds the run held its searches back to stay under that limit" }),
        waits: z.number().int().meta({
          description: "Times the portal answered 429 (or 503) and the run waited before asking again. 0 when pacing kept it under every limit.",
        }),
        waitedMs: z.number().meta({ description: "Milliseconds spent in those waits" }),
        limitsHit: z.array(z.enum(["search", "burst", "daily", "unavailable"])).meta({
          description:
            "The limits the portal said were reached, in the order first met: `search` (searches per second), `burst` (other requests per ten seconds), `daily` (requests per day; the run fails and says so in `lastError`), `unavailable` (503, overloaded). Empty when none.",
        }),
      })
      .nullable()
      .optional()
      .meta({
        description:
          "What the latest run met of the portal's rate limits, updated while it runs; null before the first run. A run slowed by a limit still completes; one that cannot (the daily limit) fails with the limit named in `lastError`.",
      }),
  })
  .meta({ id: "CrmSource" });

// ── Outside systems, read directly ────────────────────────────────────────────────────────
export const trackerIssue = z
  .object({
    id: z.string().optional(),
    identifier: z.string().meta({ description: "Short issue key" }),
    title: z.string(),
    url: z.string(),
    state: z.string().optional().meta({ description: "Workflow state name" }),
    priority: z.number().int().min(0).max(4).optional().meta({
      description: "Project view only. 0 none, 1 urgent, 2 high, 3 medium, 4 low.",
    }),
    priorityLabel: z.string().optional().meta({ description: "Project view only" }),
    assignee: z.string().optional().meta({ description: "Project view only. Display name." }),
    project: z.object({ id: z.string(), name: z.string() }).optional().meta({ description: "Project view only" }),
  })
  .meta({ id: "TrackerIssue" });

export const trackerProject = z
  .object({
    id: z.string(),
    name: z.string().meta({ description: "What `project` on /vendors/tracker/issues takes, as the id does" }),
  })
  .meta({ id: "TrackerProject" });

export const repository = z
  .object({
    nameWithOwner: z.string().regex(/^[^/]+\/[^/]+$/).meta({ description: "owner/name" }),
    url: z.string(),
    isPrivate: z.boolean(),
  })
  .meta({ id: "Repository" });

const participant = z
  .object({
    name: z.string(),
    affiliation: z.enum(["Internal", "External", "Unknown"]),
    speakerId: z.string().nullable().meta({ description: "Joins to a transcript segment `speakerId`" }),
  })
  .meta({ id: "CallParticipant" });

const callBase = {
  id: z.string(),
  title: z.string(),
  started: z.string().meta({ description: "ISO 8601 start time" }),
  url: z.string(),
};
export const call = z.object({ ...callBase, participants: z.array(participant).optional() }).meta({ id: "Call" });
export const callDetailed = z.object({ ...callBase, participants: z.array(participant) }).meta({ id: "CallDetailed" });

export const transcript = z
  .object({
    callId: z.string(),
    segments: z.array(z.object({ speakerId: z.string().nullable(), text: z.string() })).meta({
      description: "Speaker turns",
    }),
  })
  .meta({ id: "Transcript" });

export const supportConversation = z
  .object({
    id: z.string(),
    title: z.string().optional(),
    state: z.string().meta({ description: "`open`, `snoozed` or `closed` (a state the messaging system adds later is passed on as named)" }),
    open: z.boolean().optional().meta({ description: "True while not closed: a snoozed conversation is open too, only paused; count `state` to tell them apart" }),
    createdAt: z.number().int().optional().meta({ description: "Unix seconds" }),
    updatedAt: z.number().int().optional().meta({ description: "Unix seconds" }),
  })
  .meta({ id: "SupportConversation" });

export const supportConversationPart = z
  .object({
    id: z.string(),
    kind: z.string().meta({ description: "`comment` (a message the customer sees), `note` (internal to the team), `close`, or another kind Intercom names" }),
    author: z.object({
      type: z.enum(["customer", "teammate", "bot"]),
      name: z.string().nullable(),
      email: z.string().nullable(),
    }),
    body: z.string().nullable().meta({ description: "Plain text; null for a part without words (a close, an assignment)" }),
    createdAt: z.number().int().meta({ description: "Unix seconds" }),
  })
  .meta({ id: "SupportConversationPart" });

export const supportConversationDetail = supportConversation
  .extend({
    parts: z.array(supportConversationPart).meta({ description: "The opening message, then every reply, note and close, oldest first (at most 500 after the opening)" }),
  })
  .meta({ id: "SupportConversationDetail" });

export const portalCompany = z
  .object({ id: z.string(), name: z.string(), domain: z.string(), industry: z.string(), employees: z.number() })
  .meta({ id: "PortalCompany" });
export const portalContact = z
  .object({
    id: z.string(),
    email: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    companyId: z.string().nullable().meta({ description: "Joins to the portal company `id`" }),
  })
  .meta({ id: "PortalContact" });
export const portalDeal = z
  .object({
    id: z.string(),
    name: z.string(),
    stage: z.string(),
    closeDate: z.string(),
    amount: z.number(),
    companyId: z.string().nullable().meta({ description: "Null for a deal not attached to a company" }),
  })
  .meta({ id: "PortalDeal" });

// ── Customer success ──────────────────────────────────────────────────────────────────────
export const cxOwner = z.object({ ownerId: z.string(), name: z.string(), email: z.string() }).meta({ id: "CxOwner" });

const datedScore = z.object({ date: z.string(), score: z.number().nullable() });

export const health = z
  .object({
    series: z.array(datedScore).meta({ description: "Dated points behind the band, for a sparkline" }),
    latest: datedScore.nullable(),
    band: healthBand,
  })
  .nullable()
  .meta({ id: "Health", description: "Null when no health source is wired." });

export const cadence = z
  .object({
    lastTouchDate: z.string().nullable().meta({ description: "YYYY-MM-DD" }),
    daysSinceContact: z.number().nullable().meta({
      description:
        "Days between the last touch and the END of the window, not today. Null means no touch within the window, which is not the same as never touched.",
    }),
    byKind: z.record(engagementKind, z.number()).meta({ description: "Counts within the window" }),
    silent30d: z.boolean().meta({ description: "No call, meeting or email in the trailing 30 days of the window" }),
  })
  .nullable()
  .meta({ id: "Cadence", description: "Null when no engagement source is wired." });

export const cxBookRow = z
  .object({
    companyId: z.string().meta({ description: "CRM portal company id; the join key" }),
    productSchoolId: z.string().nullable().optional().meta({ description: "Product school id, or null" }),
    schoolName: z.string(),
    districtName: z.string(),
    enrolment: z.number().nullable().optional(),
    arr: z.number().nullable().optional().meta({
      description:
        "DISTRICT GRAIN: the same figure is carried on each school of a district. Never sum it across the schools of one district.",
    }),
    tier: z.string().optional(),
    churnedDate: z.string().nullable().optional(),
    health: health.optional(),
    cadence: cadence.optional(),
    reach: z.number().min(0).max(1).nullable().optional().meta({
      description: "Latest-week active persons ÷ enrolment, 0 to 1. Null when enrolment is unknown.",
    }),
    reachPercentile: z.number().nullable().optional(),
    priority: z
      .object({
        score: z.number(),
        percentile: z.number().min(1).max(100).meta({ description: "Rank within this book, 1 to 100" }),
        reasons: z.array(z.string()),
      })
      .optional()
      .meta({
        description:
          "A heuristic triage rank, not an SLA. Never present it as a guarantee, target or earned score; show `reasons`.",
      }),
  })
  .meta({ id: "CxBookRow" });

export const cxDistrictRow = z
  .object({ name: z.string(), health: health, cadence: cadence })
  .meta({ id: "CxDistrictRow" });

/** The CX wrapper: a success-shaped answer either way. */
export function cxWrapper<T extends z.ZodType>(data: T) {
  return z.union([
    z.object({ ok: z.literal(true), data }),
    z.object({
      ok: z.literal(false),
      waitingOn: z.string().meta({ description: "Render this text, not zeroes" }),
    }),
  ]);
}

// ── Playground ────────────────────────────────────────────────────────────────────────────
/** Our own design: one finding of the static check. */
export const draftWarning = z
  .object({
    rule: z.string().meta({ description: "Stable rule id, e.g. `hardcoded-api-base`" }),
    severity: z.enum(["error", "warning", "info"]),
    message: z.string(),
    line: z.number().int().min(1),
    column: z.number().int().min(1),
    hint: z.string().meta({ description: "How to fix it" }),
  })
  .meta({ id: "DraftWarning" });

export type Me = z.infer<typeof me>;
export type Favourite = z.infer<typeof favourite>;
export type ConnectionCheck = z.infer<typeof connectionCheck>;
export type CrmCompany = z.infer<typeof crmCompany>;
export type CrmContact = z.infer<typeof crmContact>;
export type CrmDeal = z.infer<typeof crmDeal>;
export type CrmSummary = z.infer<typeof crmSummary>;
export type CrmSource = z.infer<typeof crmSource>;
export type TrackerIssue = z.infer<typeof trackerIssue>;
export type TrackerProject = z.infer<typeof trackerProject>;
export type Repository = z.infer<typeof repository>;
export type Call = z.infer<typeof call>;
export type CallDetailed = z.infer<typeof callDetailed>;
export type Transcript = z.infer<typeof transcript>;
export type SupportConversation = z.infer<typeof supportConversation>;
export type SupportConversationPart = z.infer<typeof supportConversationPart>;
export type SupportConversationDetail = z.infer<typeof supportConversationDetail>;
export type CxOwner = z.infer<typeof cxOwner>;
export type Health = z.infer<typeof health>;
export type Cadence = z.infer<typeof cadence>;
export type CxBookRow = z.infer<typeof cxBookRow>;
export type CxDistrictRow = z.infer<typeof cxDistrictRow>;
export type DraftWarning = z.infer<typeof draftWarning>;
