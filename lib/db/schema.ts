import type { Generated } from "kysely";

// Table types. Times are epoch milliseconds; booleans are 0/1 integers so both engines agree.

export interface UsersTable {
  id: Generated<number>;
  email: string;
  handle: string;
  name: string;
  home_path: string | null;
  created_at: number;
}

export interface UserGroupsTable {
  user_id: number;
  group_name: string;
}

export interface SessionsTable {
  /** SHA-256 of the cookie value, hex. The cookie value itself is never stored. */
  token_hash: string;
  user_id: number;
  created_at: number;
  expires_at: number;
}

export interface FavouritesTable {
  user_id: number;
  href: string;
  label: string;
  position: number;
}

export interface AuthFlowsTable {
  /** SHA-256 of the flow cookie value. */
  id_hash: string;
  state: string;
  nonce: string;
  code_verifier: string;
  next_path: string;
  expires_at: number;
}

export interface MetaTable {
  key: string;
  value: string;
}

export interface ConnectorTokensTable {
  user_id: number;
  slug: string;
  access_token: string;
  refresh_token: string | null;
  expires_at: number | null;
  scope: string | null;
  /** The person's account name at the vendor, for display. */
  account: string | null;
  connected_at: number;
  refreshed_at: number | null;
  /** Why the credential must be connected again, in words; null while it works. */
  reconnect_reason: string | null;
  reconnect_at: number | null;
  /** Where the credential's API is, sealed, when the vendor named it (0015); null: the configured URL. */
  api_base_url: string | null;
}

export interface DonorCredentialsTable {
  slug: string;
  access_token: string;
  refresh_token: string | null;
  expires_at: number | null;
  account: string | null;
  connected_by: number | null;
  connected_at: number;
  refreshed_at: number | null;
  /** Why the credential must be connected again, in words; null while it works. */
  reconnect_reason: string | null;
  reconnect_at: number | null;
  /** Where the credential's API is, sealed, when the vendor named it (0015); null: the configured URL. */
  api_base_url: string | null;
}

export interface CallsOptInsTable {
  user_id: number;
  opted_in_at: number;
}

export interface ConnectFlowsTable {
  /** SHA-256 of the OAuth state value sent to the vendor. */
  id_hash: string;
  user_id: number;
  slug: string;
  /** "user" for a person's own connection, "donor" for the shared calls credential. */
  purpose: string;
  code_verifier: string;
  expires_at: number;
}

export interface CrmOwnersTable {
  instance: string;
  id: string;
  name: string;
  email: string;
  active: number;
  source_updated_at: number;
  updated_at: number;
}

export interface CrmCompaniesTable {
  instance: string;
  id: string;
  name: string;
  domain: string | null;
  industry: string | null;
  employees: number | null;
  parent_company_id: string | null;
  arr: number | null;
  tier: string | null;
  owner_id: string | null;
  product_school_id: string | null;
  enrolment: number | null;
  churned_date: string | null;
  source_updated_at: number;
  updated_at: number;
}

export interface CrmContactsTable {
  instance: string;
  id: string;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  company_id: string | null;
  lifecycle_stage: string | null;
  source_updated_at: number;
  updated_at: number;
}

export interface CrmDealsTable {
  instance: string;
  id: string;
  name: string;
  company_id: string | null;
  amount: number | null;
  stage: string | null;
  close_date: string | null;
  owner_id: string | null;
  source_updated_at: number;
  updated_at: number;
}

export interface CrmEngagementsTable {
  instance: string;
  id: string;
  kind: string;
  company_id: string | null;
  owner_id: string | null;
  occurred_at: number;
  source_updated_at: number;
  updated_at: number;
}

export interface CrmSyncStateTable {
  instance: string;
  object: string;
  /** The newest portal modification time fully synced for this object type. */
  watermark: number | null;
}

export interface CrmSyncRunsTable {
  id: Generated<number>;
  instance: string;
  connector: string;
  /** running | ok | failed */
  status: string;
  started_at: number;
  finished_at: number | null;
  heartbeat_at: number;
  rows_done: number;
  rows_expected: number | null;
  error: string | null;
  /** Searches sent to the portal (0014). */
  searches: Generated<number>;
  /** Time searches were held back to stay under the portal's search limit, ms. */
  paced_ms: Generated<number>;
  /** Waits after the portal answered "slow down" (429, or 503). */
  limit_waits: Generated<number>;
  limit_waited_ms: Generated<number>;
  /** The limits met, comma-separated, in the order first met; null when none. */
  limits_hit: string | null;
}

export interface CrmSyncLocksTable {
  instance: string;
  holder: string;
  expires_at: number;
}

export interface UsageWeeksTable {
  product_school_id: string;
  week_start: string;
  active_persons: number;
}

export interface HealthScoresTable {
  company_id: string;
  date: string;
  score: number | null;
}

export interface DataSourcesTable {
  name: string;
  loaded_at: number;
  rows: number;
}

/** A playground draft. `id` is the read id; the write token is kept only as its SHA-256. */
export interface PlaygroundDraftsTable {
  id: string;
  write_hash: string;
  revision: number;
  html: string;
  /** demo | live, fixed at creation */
  data_mode: string;
  scenario: string;
  /** JSON object: API path → demo variant */
  examples: string;
  dash: string | null;
  created_at: number;
  /** Time of the latest revision; the idle expiry counts from here. */
  updated_at: number;
}

/** The latest revisions of each draft (bounded), including the current one. */
export interface PlaygroundDraftRevisionsTable {
  draft_id: string;
  revision: number;
  html: string;
  scenario: string;
  examples: string;
  dash: string | null;
  created_at: number;
  /**
   * The static check's result for this revision's html, JSON `{warnings, reads}`; null for a
   * revision stored before migration 0006 (checked and filled in on its first read).
   */
  check_json: string | null;
}

/**
 * What a browser saw when it rendered a revision of a demo draft (lib/contract/reports.ts). Rows
 * go with their revision: the foreign key cascades from `playground_draft_revisions`.
 */
export interface PlaygroundDraftReportsTable {
  id: Generated<number>;
  draft_id: string;
  revision: number;
  /** The report as JSON (`RenderReport`, `at` included, `source` not: it is the columns below). */
  report: string;
  created_at: number;
  /** `author` (sent with the write link) or `watcher` (with the read id). */
  source_kind: Generated<string>;
  /** `a-author`, or `w-` and a keyed digest of the watcher's address. */
  source_id: Generated<string>;
  /** 1 when the report has errors. */
  failing: Generated<number>;
}

/** The service's own render of a draft revision at one viewport and demo state: its report and PNG. */
export interface DraftRendersTable {
  draft_id: string;
  revision: number;
  key: string;
  viewport: string;
  scenario: string;
  /** JSON: API path → variant. */
  examples: string;
  /** JSON: the render report, `RenderReport` without `source`. */
  report: string;
  png: Uint8Array;
  width: number;
  height: number;
  created_at: number;
}

/** What a stand-in's authorization server remembers: a used code or refresh token (by MAC), a revoked grant. */
export interface StandInOAuthMarksTable {
  slug: string;
  kind: "code" | "refresh" | "revoked";
  key: string;
  expires_at: number;
}

/** A dashboard in its owner's space; `revision` is the latest one. */
export interface SavedDashboardsTable {
  owner_id: number;
  slug: string;
  title: string;
  revision: number;
  created_at: number;
  updated_at: number;
}

/** Every revision of a saved dashboard, the latest included. */
export interface SavedDashboardRevisionsTable {
  owner_id: number;
  slug: string;
  revision: number;
  title: string;
  html: string;
  /** Where the revision came from, for the history (e.g. "Restored from revision 2"). */
  note: string | null;
  saved_at: number;
}

/** A person (user_id) lets dashboards by another (author_id) run on their live data without asking. */
export interface TrustedAuthorsTable {
  user_id: number;
  author_id: number;
  created_at: number;
  /** How it was made: TRUST_MADE_VIA's page names (lib/saved/trust.ts), or "unrecorded" from before that was kept. */
  made_via: string;
}

/** A person's own saved dashboard frozen as an inert document at an unguessable address (lib/saved/snapshots.ts). */
export interface SnapshotsTable {
  /** The address's token. */
  id: string;
  owner_id: number;
  slug: string;
  revision: number;
  title: string;
  viewport: string;
  /** "private", "signed_in" or "link". */
  visibility: string;
  /** The inert document; emptied once the snapshot is revoked or expired. */
  html: string;
  height: number;
  /** The drawing as PNG, where the renderer made one; emptied with the document. */
  png: Uint8Array | null;
  drawn_at: number;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

/** A client of the service's authorization server, registered by itself (RFC 7591). */
export interface OAuthClientsTable {
  client_id: string;
  client_name: string;
  /** JSON array of exact redirect URIs. */
  redirect_uris: string;
  client_uri: string | null;
  created_at: number;
  /** The address key it was registered from (an IPv6 /64 as one), or "" from before it was kept (0019). */
  registered_from: string;
}

/** What a person approved for a client: its scope, on one resource (the MCP endpoint). */
export interface OAuthGrantsTable {
  id: string;
  client_id: string;
  user_id: number;
  scope: string;
  resource: string;
  created_at: number;
  /** The last time a token of the grant was issued or accepted (for the account page). */
  used_at: number;
  revoked_at: number | null;
}

/** An authorization code, by SHA-256 digest, with everything the token request must match. */
export interface OAuthCodesTable {
  code_hash: string;
  client_id: string;
  user_id: number;
  redirect_uri: string;
  /** The PKCE S256 challenge. */
  code_challenge: string;
  scope: string;
  resource: string;
  expires_at: number;
  used_at: number | null;
  grant_id: string | null;
}

/** An access or refresh token, by SHA-256 digest. */
export interface OAuthTokensTable {
  token_hash: string;
  grant_id: string;
  kind: "access" | "refresh";
  expires_at: number;
  used_at: number | null;
}

/** Fixed-window request counters shared by instances on PostgreSQL (0010_rate_limits). */
export interface RateLimitWindowsTable {
  bucket: string;
  key: string;
  window_start: number;
  n: number;
  expires_at: number;
}

/** Open event streams per cap, key and instance, on PostgreSQL (0011_stream_slots). */
export interface StreamSlotsTable {
  bucket: string;
  key: string;
  instance: string;
  n: number;
  seen_at: number;
}

/** The app processes serving from this database, while they run (0021_app_instances). */
export interface AppInstancesTable {
  id: string;
  host: string;
  pid: number;
  started_at: number;
  seen_at: number;
}

export interface Database {
  app_instances: AppInstancesTable;
  stream_slots: StreamSlotsTable;
  rate_limit_windows: RateLimitWindowsTable;
  trusted_authors: TrustedAuthorsTable;
  snapshots: SnapshotsTable;
  saved_dashboards: SavedDashboardsTable;
  saved_dashboard_revisions: SavedDashboardRevisionsTable;
  playground_drafts: PlaygroundDraftsTable;
  playground_draft_revisions: PlaygroundDraftRevisionsTable;
  playground_draft_reports: PlaygroundDraftReportsTable;
  stand_in_oauth_marks: StandInOAuthMarksTable;
  oauth_clients: OAuthClientsTable;
  oauth_grants: OAuthGrantsTable;
  oauth_codes: OAuthCodesTable;
  oauth_tokens: OAuthTokensTable;
  draft_renders: DraftRendersTable;
  crm_owners: CrmOwnersTable;
  crm_companies: CrmCompaniesTable;
  crm_contacts: CrmContactsTable;
  crm_deals: CrmDealsTable;
  crm_engagements: CrmEngagementsTable;
  crm_sync_state: CrmSyncStateTable;
  crm_sync_runs: CrmSyncRunsTable;
  crm_sync_locks: CrmSyncLocksTable;
  usage_weeks: UsageWeeksTable;
  health_scores: HealthScoresTable;
  data_sources: DataSourcesTable;
  connector_tokens: ConnectorTokensTable;
  donor_credentials: DonorCredentialsTable;
  calls_opt_ins: CallsOptInsTable;
  connect_flows: ConnectFlowsTable;
  users: UsersTable;
  user_groups: UserGroupsTable;
  sessions: SessionsTable;
  favourites: FavouritesTable;
  auth_flows: AuthFlowsTable;
  meta: MetaTable;
}
