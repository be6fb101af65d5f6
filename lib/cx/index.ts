// The customer-success views, for the API handlers (which have already checked sign-in, the
// cx permission and the query).

export { cxOwners } from "./owners";
export { cxBook, bookRows, type BookBasis } from "./book";
export { cxDistricts, districtRows } from "./districts";
export type { Wiring } from "./ready";
export { resolveWindow, type CxWindow } from "./window";
