import { crmPipelineExample } from "./crm-pipeline";
import { cxBookExample } from "./cx-book";
import { districtHealthExample } from "./district-health";

interface DashboardExample {
  id: string;
  label: string;
  /** One sentence for the gallery: what the example shows and which practice it teaches. */
  description: string;
  html: string;
}

/** The editor's gallery, in the order it lists them; the first is where a new author starts. */
export const dashboardExamples: readonly DashboardExample[] = [
  {
    id: "cx-book",
    label: "CX book",
    description: "One CSM's book of business: waits on waitingOn, counts district-grain ARR once per district and shows why each school ranks where it does.",
    html: cxBookExample,
  },
  {
    id: "crm-pipeline",
    label: "CRM pipeline",
    description: "Open pipeline by stage from the CRM summary, every page of deals read by cursor, and how fresh the sync is.",
    html: crmPipelineExample,
  },
  {
    id: "district-health",
    label: "District health with a snapshot",
    description: "Health and contact cadence per district over the address's ?p.days (30 by default, named on the page), falling back to a dated embedded snapshot when the API fails.",
    html: districtHealthExample,
  },
];

export const defaultExampleId: string = dashboardExamples[0]?.id ?? "";

/** The example with this id, if there is one. */
export function exampleNamed(id: string): DashboardExample | undefined {
  return dashboardExamples.find((e) => e.id === id);
}

export { districtHealthExample };
