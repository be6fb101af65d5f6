// The CRM portal's records as this connector hands them to the sync engine (lib/crm/sync.ts),
// already mapped out of the vendor's shapes, and the portal's two instances. Times are epoch
// milliseconds.

export const crmInstances = ["customers", "users"] as const;
export type CrmInstance = (typeof crmInstances)[number];

/** `customers` is monetary (ARR, deal amounts); `users` (internal staff) is not. */
export const monetary: Record<CrmInstance, boolean> = { customers: true, users: false };

/** Object types synced incrementally, in dependency order (owners before the records they own). */
export const syncedObjects = ["owners", "companies", "contacts", "deals", "engagements"] as const;
export type SyncedObject = (typeof syncedObjects)[number];

export interface PortalOwner {
  id: string;
  name: string;
  email: string;
  /** False for an owner who has left (archived in the portal). */
  active: boolean;
  updatedAt: number;
}

export interface PortalCompanyRecord {
  id: string;
  name: string;
  domain: string | null;
  industry: string | null;
  employees: number | null;
  parentCompanyId: string | null;
  /** District-grain annual recurring revenue; null when unset or non-monetary. */
  arr: number | null;
  tier: string | null;
  ownerId: string | null;
  productSchoolId: string | null;
  enrolment: number | null;
  churnedDate: string | null;
  /** The portal's last-modified time. */
  updatedAt: number;
}

export interface PortalContactRecord {
  id: string;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  companyId: string | null;
  lifecycleStage: string | null;
  updatedAt: number;
}

export interface PortalDealRecord {
  id: string;
  name: string;
  companyId: string | null;
  amount: number | null;
  stage: string | null;
  closeDate: string | null;
  ownerId: string | null;
  updatedAt: number;
}

export type EngagementKind = "call" | "meeting" | "email";

export interface PortalEngagementRecord {
  id: string;
  kind: EngagementKind;
  companyId: string | null;
  /** Who logged the touch. */
  ownerId: string | null;
  occurredAt: number;
  updatedAt: number;
}

export interface RecordOf {
  owners: PortalOwner;
  companies: PortalCompanyRecord;
  contacts: PortalContactRecord;
  deals: PortalDealRecord;
  engagements: PortalEngagementRecord;
}

/** One page of records changed at or after a watermark, oldest change first. */
export interface ChangesPage<T> {
  records: T[];
  /** Records the portal says match in all (for progress); null when it does not say. */
  total: number | null;
  /** Pass back for the next page; null on the last page. */
  after: string | null;
}
