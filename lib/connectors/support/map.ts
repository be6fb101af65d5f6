import type { SupportConversation } from "@/lib/contract/resources";
import type { ProbeResult } from "@/lib/connectors/types";
import type { IntercomAdmin, IntercomConversation, IntercomPages } from "./client";

// Intercom's shapes, in the API's words. Intercom already speaks unix seconds, so times pass
// through unchanged.

export function toSupportConversation(c: IntercomConversation): SupportConversation {
  const out: SupportConversation = { id: c.id, state: c.state, open: c.open, createdAt: c.created_at, updatedAt: c.updated_at };
  // The contract's title is optional, not nullable: an untitled conversation has no title key.
  if (c.title !== null && c.title !== undefined) out.title = c.title;
  return out;
}

/** The vendor cursor of the following page, or null when this was the last one. */
export function nextVendorCursor(pages: IntercomPages): string | null {
  return pages.next?.starting_after || null;
}

export function probeResult(admin: IntercomAdmin): ProbeResult {
  return {
    summary: `Connected to Intercom workspace ${admin.app.name} as ${admin.name}`,
    details: [
      { label: "Workspace", value: `${admin.app.name} (${admin.app.id_code})` },
      { label: "Account", value: `${admin.name} <${admin.email}>` },
    ],
  };
}
