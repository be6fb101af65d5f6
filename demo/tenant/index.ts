// Public API of the deterministic demo tenant.

export {
  generateTenant,
  tenantCounts,
  DEFAULT_SEED,
  DEFAULT_SCALE,
  DEFAULT_REFERENCE_DATE,
  DEMO_ADMIN_EMAIL,
  DEMO_CSM_EMAIL,
  DEMO_MEMBER_EMAIL,
  type TenantCounts,
} from "./generate";
export { createRng, hashString, idSequence, type Rng } from "./prng";
export { conversationStarter, conversationThread, teammateName, type ConversationStarter, type ThreadPart, type ThreadPartKind } from "./threads";
export { DAY_MS, HOUR_MS, TENANT_CLOCK_OFFSET_MS, isoDate, referenceDateAt, isoDateTime, mondayOnOrBefore, parseIsoDate, startOfUtcDay } from "./dates";
export { DEAL_STAGES, LIFECYCLE_STAGES } from "./types";
export { portalIdOf, teamCompanies } from "./portal";
export type * from "./types";
