// Shapes of the demo tenant: a CRM portal (owners, companies, contacts, deals, engagements,
// the internal `users` instance) and the outside systems the API reads directly. They follow
// the vendors' own conventions (HubSpot-style numeric string ids and lifecycle/deal stage
// values, Intercom's unix-second timestamps) so the adapters built on top of them do the same
// mapping work they would do against the real systems.

/** Epoch milliseconds. */
export type EpochMs = number;
/** Unix seconds. */
export type UnixSeconds = number;
/** Calendar date, YYYY-MM-DD (UTC). */
export type IsoDate = string;

/** A customer-success manager: a CRM owner. */
export interface Owner {
  ownerId: string;
  name: string;
  email: string;
  /** False for the CSM who has left but still has accounts assigned. */
  active: boolean;
}

export type CompanyKind = "district" | "school";
export type Tier = "Enterprise" | "Growth" | "Starter";

export interface Company {
  id: string;
  name: string;
  domain: string;
  industry: string;
  employees: number;
  /** Null for districts (top level); a school's district otherwise. */
  parentCompanyId: string | null;
  kind: CompanyKind;
  /**
   * District-grain ARR: set on the district and copied unchanged onto each of its schools,
   * so it must never be summed across the schools of one district. Null when unset.
   */
  arr: number | null;
  tier: Tier;
  /** The assigned CSM; schools carry their district's owner. */
  ownerId: string;
  /** The product's own id for the school; null for districts and for schools not provisioned. */
  productSchoolId: string | null;
  /** Pupils enrolled; null for districts and when unknown. */
  enrolment: number | null;
  churnedDate: IsoDate | null;
  createdAt: EpochMs;
  updatedAt: EpochMs;
  archived: boolean;
}

/** HubSpot's default contact lifecycle stages. */
export type LifecycleStage =
  | "subscriber"
  | "lead"
  | "marketingqualifiedlead"
  | "salesqualifiedlead"
  | "opportunity"
  | "customer"
  | "evangelist"
  | "other";

export const LIFECYCLE_STAGES: readonly LifecycleStage[] = [
  "subscriber",
  "lead",
  "marketingqualifiedlead",
  "salesqualifiedlead",
  "opportunity",
  "customer",
  "evangelist",
  "other",
];

export interface Contact {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  companyId: string | null;
  lifecycleStage: LifecycleStage;
  ownerId: string | null;
  createdAt: EpochMs;
  updatedAt: EpochMs;
  archived: boolean;
}

/** Stage ids of HubSpot's default sales pipeline, in pipeline order. */
export type DealStage =
  | "appointmentscheduled"
  | "qualifiedtobuy"
  | "presentationscheduled"
  | "decisionmakerboughtin"
  | "contractsent"
  | "closedwon"
  | "closedlost";

export const DEAL_STAGES: readonly DealStage[] = [
  "appointmentscheduled",
  "qualifiedtobuy",
  "presentationscheduled",
  "decisionmakerboughtin",
  "contractsent",
  "closedwon",
  "closedlost",
];

export interface Deal {
  id: string;
  name: string;
  /** Null for a deal not attached to any company. */
  companyId: string | null;
  amount: number;
  stage: DealStage;
  closeDate: IsoDate;
  ownerId: string;
  createdAt: EpochMs;
  updatedAt: EpochMs;
  archived: boolean;
}

export type EngagementKind = "call" | "meeting" | "email";

/** A logged touch on a school. */
export interface Engagement {
  id: string;
  kind: EngagementKind;
  companyId: string;
  /** Who logged it, which is not always the company's assigned owner. */
  ownerId: string;
  timestamp: EpochMs;
  subject: string;
}

/** Weekly active persons of one provisioned school. */
export interface UsageWeek {
  productSchoolId: string;
  /** A Monday. */
  weekStart: IsoDate;
  activePersons: number;
}

export interface HealthScore {
  /** A school's company id. */
  companyId: string;
  date: IsoDate;
  /** 0..100, or null when the score could not be computed that week. */
  score: number | null;
}

export type StaffStatus = "active" | "onboarding" | "offboarded";

/** A person in the internal (non-monetary) CRM `users` instance. */
export interface StaffMember {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  team: string;
  lifecycleStage: StaffStatus;
  createdAt: EpochMs;
  updatedAt: EpochMs;
}

// ── Issue tracker ─────────────────────────────────────────────────────────────────────────

export interface TrackerProject {
  id: string;
  name: string;
  /** Prefix of the project's issue identifiers, e.g. "ENG". */
  key: string;
}

export type TrackerStateType = "backlog" | "unstarted" | "started" | "completed" | "canceled";

export interface TrackerIssue {
  id: string;
  /** Short key such as "ENG-123". */
  identifier: string;
  title: string;
  url: string;
  stateName: string;
  stateType: TrackerStateType;
  /** 0 none, 1 urgent, 2 high, 3 medium, 4 low. */
  priority: 0 | 1 | 2 | 3 | 4;
  assigneeEmail: string | null;
  projectId: string | null;
  createdAt: EpochMs;
  updatedAt: EpochMs;
}

// ── Code hosting ──────────────────────────────────────────────────────────────────────────

export interface Repository {
  id: string;
  owner: string;
  name: string;
  nameWithOwner: string;
  url: string;
  isPrivate: boolean;
  /** ISO 8601 timestamp. */
  pushedAt: string;
  description: string;
  /** Emails of the demo users who can see the repository. */
  visibleTo: string[];
}

// ── Call recording ────────────────────────────────────────────────────────────────────────

export type Affiliation = "Internal" | "External" | "Unknown";

export interface CallParty {
  id: string;
  name: string;
  emailAddress: string | null;
  affiliation: Affiliation;
  /** Null for a party who never spoke. */
  speakerId: string | null;
}

export interface TranscriptSegment {
  /** A party's speakerId, or null when the speaker could not be attributed. */
  speakerId: string | null;
  text: string;
}

export interface RecordedCall {
  id: string;
  title: string;
  /** ISO 8601 start time. */
  started: string;
  durationSec: number;
  url: string;
  /** Null for internal calls. */
  companyId: string | null;
  parties: CallParty[];
  transcript: TranscriptSegment[];
}

// ── Customer messaging ────────────────────────────────────────────────────────────────────

export type ConversationState = "open" | "closed" | "snoozed";

export interface SupportConversation {
  id: string;
  title: string | null;
  state: ConversationState;
  /** True unless closed (a snoozed conversation is still open). */
  open: boolean;
  createdAt: UnixSeconds;
  updatedAt: UnixSeconds;
  companyId: string | null;
  assigneeEmail: string | null;
}

// ── The whole tenant ──────────────────────────────────────────────────────────────────────

export interface Tenant {
  seed: number;
  scale: number;
  /** The tenant's "today"; every relative date is computed from it. */
  referenceDate: IsoDate;
  /** Epoch ms of referenceDate at 12:00 UTC. */
  now: EpochMs;
  owners: Owner[];
  companies: Company[];
  contacts: Contact[];
  deals: Deal[];
  engagements: Engagement[];
  usage: UsageWeek[];
  health: HealthScore[];
  staff: StaffMember[];
  tracker: { projects: TrackerProject[]; issues: TrackerIssue[] };
  repos: Repository[];
  calls: RecordedCall[];
  conversations: SupportConversation[];
}

export interface GenerateOptions {
  seed?: number;
  /** Multiplies the customer-side volumes linearly; must be > 0. */
  scale?: number;
  /** YYYY-MM-DD. */
  referenceDate?: string;
}
