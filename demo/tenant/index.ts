// Public API of the deterministic demo tenant.

export {
  generateTenant,
  tenantCounts,
  DEFAULT_REFERENCE_DATE,
  DEMO_ADMIN_EMAIL,
  DEMO_CSM_EMAIL,
  DEMO_MEMBER_EMAIL,
} from "./generate";
export { createRng, hashString } from "./prng";
export { conversationStarter, conversationThread, type ThreadPart } from "./threads";
export { DAY_MS, referenceDateAt, isoDateTime, parseIsoDate } from "./dates";
export { DEAL_STAGES, LIFECYCLE_STAGES } from "./types";
export { portalIdOf, teamCompanies } from "./portal";
export type * from "./types";
