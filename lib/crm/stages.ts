// The order stages are listed in summaries: HubSpot's default contact lifecycle and sales
// pipeline, in funnel order; stages a portal adds of its own follow alphabetically.

export const LIFECYCLE_ORDER = ["subscriber", "lead", "marketingqualifiedlead", "salesqualifiedlead", "opportunity", "customer", "evangelist", "other"] as const;
export const PIPELINE_ORDER = ["appointmentscheduled", "qualifiedtobuy", "presentationscheduled", "decisionmakerboughtin", "contractsent", "closedwon", "closedlost"] as const;

/** A comparator putting known stages in their order, then the rest alphabetically. */
export function byKnownOrder(order: readonly string[]) {
  const rank = (s: string) => {
    const i = order.indexOf(s);
    return i < 0 ? order.length : i;
  };
  return (a: { stage: string }, b: { stage: string }) => rank(a.stage) - rank(b.stage) || (a.stage < b.stage ? -1 : a.stage > b.stage ? 1 : 0);
}

// HubSpot's internal stage ids read badly in a chart; these are the names its own UI shows.
const STAGE_LABELS: Record<string, string> = {
  subscriber: "Subscriber",
  lead: "Lead",
  marketingqualifiedlead: "Marketing qualified lead",
  salesqualifiedlead: "Sales qualified lead",
  opportunity: "Opportunity",
  customer: "Customer",
  evangelist: "Evangelist",
  other: "Other",
  appointmentscheduled: "Appointment scheduled",
  qualifiedtobuy: "Qualified to buy",
  presentationscheduled: "Presentation scheduled",
  decisionmakerboughtin: "Decision maker bought in",
  contractsent: "Contract sent",
  closedwon: "Closed won",
  closedlost: "Closed lost",
};

/** The human name of a lifecycle or pipeline stage; a portal's own stage keeps its id. */
export function stageLabel(stage: string): string {
  return Object.hasOwn(STAGE_LABELS, stage) ? (STAGE_LABELS[stage] as string) : stage;
}
