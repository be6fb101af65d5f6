import { cxBookExample } from "./cx-book";

export interface DashboardExample {
  id: string;
  label: string;
  html: string;
}

export const dashboardExamples: readonly DashboardExample[] = [{ id: "cx-book", label: "CX book", html: cxBookExample }];

export { cxBookExample };
