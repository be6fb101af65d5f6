import type { SupportConversation, SupportConversationDetail, SupportConversationPart } from "@/lib/contract/resources";
import type { ProbeResult } from "@/lib/connectors/types";
import type { IntercomAdmin, IntercomConversation, IntercomConversationDetail, IntercomPages } from "./client";

// Intercom's shapes, in the API's words. Intercom already speaks unix seconds, so times pass
// through unchanged.

export function toSupportConversation(c: IntercomConversation): SupportConversation {
  const out: SupportConversation = { id: c.id, state: c.state, open: c.open, createdAt: c.created_at, updatedAt: c.updated_at };
  // The contract's title is optional, not nullable: an untitled conversation has no title key.
  if (c.title !== null && c.title !== undefined) out.title = c.title;
  return out;
}

type IntercomAuthor = { type: string; name?: string | null; email?: string | null };

function author(a: IntercomAuthor): SupportConversationPart["author"] {
  const type = a.type === "admin" || a.type === "team" ? "teammate" : a.type === "user" || a.type === "lead" || a.type === "contact" ? "customer" : "bot";
  return { type, name: a.name ?? null, email: a.email ?? null };
}

/** A conversation with its parts: the opening message (Intercom's `source`) first, then the rest. */
export function toSupportConversationDetail(c: IntercomConversationDetail): SupportConversationDetail {
  const parts: SupportConversationPart[] = [];
  if (c.source) parts.push({ id: `${c.id}-source`, kind: "comment", author: author(c.source.author), body: c.source.body || null, createdAt: c.created_at });
  for (const p of c.conversation_parts?.conversation_parts ?? []) {
    parts.push({ id: p.id, kind: p.part_type, author: author(p.author), body: p.body || null, createdAt: p.created_at });
  }
  return { ...toSupportConversation(c), parts };
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
