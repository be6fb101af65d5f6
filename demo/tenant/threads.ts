import { demoUsers } from "../users";
import { hashString } from "./prng";
import type { SupportConversation, Tenant } from "./types";

// What was said in a support conversation: the customer's opening message, the teammates' and
// the customer's replies, an internal note now and then, and the close when it was closed. Made
// from the conversation's own fields and ids, so the messaging stand-in and the demo API tell the
// same story without storing it.

export type ThreadPartKind = "comment" | "note" | "close";

export interface ThreadPart {
  /** Digits, unique within the workspace, made from the conversation's id and the part's place in it. */
  id: string;
  kind: ThreadPartKind;
  author: { kind: "customer" | "teammate"; name: string; email: string };
  body: string;
  createdAt: number;
}

interface ConversationStarter {
  /** The CRM contact who wrote in, or null for a website visitor. */
  contactId: string | null;
  name: string;
  email: string;
}

const CUSTOMER_REPLIES = [
  "Thanks, that worked for most of our teachers.",
  "We tried that this morning and still see the same thing.",
  "Could you check on your side? Our IT team is waiting on this.",
  "Great, thank you for the quick answer.",
  "Attaching what our admin sees. Does this help?",
] as const;
const TEAMMATE_REPLIES = [
  "Thanks for reaching out. I'm looking into this now.",
  "Could you tell me which school and class this happens in?",
  "I've passed this to our engineers and will update you here.",
  "This should be fixed now; could you try again?",
  "Here is the guide for that: Settings, then Rostering, then Sync now.",
] as const;
const NOTES = ["Same issue as last week's roster sync incident.", "Customer is up for renewal this term; keep them posted."] as const;

/** The customer who started a conversation: a contact of its company, or a visitor of its own. */
export function conversationStarter(tenant: Tenant, c: SupportConversation): ConversationStarter {
  const people = c.companyId ? tenant.contacts.filter((p) => p.companyId === c.companyId && !p.archived) : [];
  const person = people.length ? people[hashString(`intercom-starter:${c.id}`) % people.length] : undefined;
  if (person) return { contactId: person.id, name: `${person.firstName} ${person.lastName}`, email: person.email };
  return { contactId: null, name: "Website visitor", email: `visitor-${c.id}@visitors.demo.test` };
}

/** A teammate's name by email: the demo's people first, then the staff directory. */
function teammateName(tenant: Tenant, email: string): string {
  const user = demoUsers.find((u) => u.email === email);
  if (user) return user.name;
  const staff = tenant.staff.find((s) => s.email === email);
  return staff ? `${staff.firstName} ${staff.lastName}` : email;
}

/** The conversation's parts, oldest first, within its created and updated times. */
export function conversationThread(tenant: Tenant, c: SupportConversation): ThreadPart[] {
  const h = (what: string) => hashString(`thread:${what}:${c.id}`);
  // Intercom's part ids are digits, unique in the workspace.
  const partId = (i: number) => String(500_000_000 + (hashString(`intercom-part:${c.id}-${i}`) % 400_000_000));
  const starter = conversationStarter(tenant, c);
  const customer = { kind: "customer" as const, name: starter.name, email: starter.email };
  const teammate = c.assigneeEmail ? { kind: "teammate" as const, name: teammateName(tenant, c.assigneeEmail), email: c.assigneeEmail } : null;
  const replies = teammate ? 1 + (h("replies") % 4) : 0;
  const closing = c.state === "closed" && teammate !== null;
  const steps = 1 + replies + (closing ? 1 : 0);
  const span = Math.max(0, c.updatedAt - c.createdAt);
  const at = (i: number) => c.createdAt + Math.floor((span * i) / Math.max(1, steps - 1));
  const parts: ThreadPart[] = [{ id: partId(0), kind: "comment", author: customer, body: c.title ?? "Hello, I have a question.", createdAt: c.createdAt }];
  for (let i = 1; i <= replies && teammate; i++) {
    const fromTeammate = i % 2 === 1;
    const note = fromTeammate && h(`note:${i}`) % 5 === 0;
    const pool = note ? NOTES : fromTeammate ? TEAMMATE_REPLIES : CUSTOMER_REPLIES;
    parts.push({ id: partId(i), kind: note ? "note" : "comment", author: fromTeammate ? teammate : customer, body: pool[h(`body:${i}`) % pool.length]!, createdAt: at(i) });
  }
  if (closing && teammate) parts.push({ id: partId(steps - 1), kind: "close", author: teammate, body: "", createdAt: c.updatedAt });
  return parts;
}
