// The states the editor's matrix renders side by side, each a demo scenario of
// lib/demo-api/data/scenarios.ts (a test keeps the names in step).

export interface MatrixState {
  id: string;
  label: string;
  /** The demo scenario that produces the state. */
  scenario: string;
}

export const MATRIX_STATES: readonly MatrixState[] = [
  { id: "rich", label: "Rich data", scenario: "default" },
  { id: "empty", label: "Empty", scenario: "empty" },
  { id: "not-connected", label: "Not connected", scenario: "new-customer" },
  { id: "waiting", label: "Waiting on the first sync", scenario: "first-sync" },
  { id: "signed-out", label: "Signed out", scenario: "signed-out" },
  { id: "outage", label: "Outage", scenario: "outage" },
];
