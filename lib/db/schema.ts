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
}

export interface DonorCredentialsTable {
  slug: string;
  access_token: string;
  refresh_token: string | null;
  expires_at: number | null;
  account: string | null;
  connected_by: number | null;
  connected_at: number;
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

export interface Database {
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
