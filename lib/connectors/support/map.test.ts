import { describe, expect, it } from "vitest";
import { supportConversation } from "@/lib/contract/resources";
import { intercomAdmin, intercomConversation, intercomPages } from "./client";
import { nextVendorCursor, probeResult, toSupportConversation } from "./map";

const base = {
  type: "conversation",
  id: "215400012345",
  title: "SSO login loops back to the sign-in page",
  state: "snoozed",
  open: true,
  created_at: 1_763_000_000,
  updated_at: 1_763_050_000,
  read: false,
  admin_assignee_id: 123456789,
};

describe("toSupportConversation", () => {
  it("renames Intercom's fields and keeps unix seconds", () => {
    const out = toSupportConversation(intercomConversation.parse(base));
    expect(out).toEqual({
      id: "215400012345",
      title: "SSO login loops back to the sign-in page",
      state: "snoozed",
      open: true,
      createdAt: 1_763_000_000,
      updatedAt: 1_763_050_000,
    });
    expect(supportConversation.parse(out)).toEqual(out);
  });

  it("omits the title key for an untitled conversation, since the contract's title is not nullable", () => {
    const out = toSupportConversation(intercomConversation.parse({ ...base, title: null }));
    expect("title" in out).toBe(false);
    expect(supportConversation.safeParse(out).success).toBe(true);
  });

  it("keeps a closed conversation's open flag false", () => {
    const out = toSupportConversation(intercomConversation.parse({ ...base, state: "closed", open: false }));
    expect(out.state).toBe("closed");
    expect(out.open).toBe(false);
  });

  it("lists a state Intercom adds later rather than failing the page", () => {
    expect(toSupportConversation(intercomConversation.parse({ ...base, state: "pending" })).state).toBe("pending");
  });

  it("refuses a conversation without timestamps as unexpected", () => {
    expect(intercomConversation.safeParse({ ...base, created_at: undefined }).success).toBe(false);
    expect(intercomConversation.safeParse({ ...base, updated_at: "yesterday" }).success).toBe(false);
  });
});

describe("nextVendorCursor", () => {
  it("is the next page's starting_after", () => {
    const pages = intercomPages.parse({ type: "pages", page: 1, per_page: 2, total_pages: 3, next: { page: 2, starting_after: "abc" } });
    expect(nextVendorCursor(pages)).toBe("abc");
  });

  it("is null on the last page, where next is absent", () => {
    expect(nextVendorCursor(intercomPages.parse({ type: "pages", page: 3, per_page: 2, total_pages: 3 }))).toBeNull();
    expect(nextVendorCursor(intercomPages.parse({ type: "pages", page: 3, per_page: 2, total_pages: 3, next: null }))).toBeNull();
  });

  it("is null when next names no cursor, which Intercom's description allows", () => {
    expect(nextVendorCursor(intercomPages.parse({ type: "pages", page: 3, per_page: 2, total_pages: 3, next: { per_page: 2, starting_after: null } }))).toBeNull();
  });

  it("reads the pages object with only the fields Intercom requires", () => {
    expect(nextVendorCursor(intercomPages.parse({ type: "pages", next: { per_page: 2, starting_after: "abc" } }))).toBe("abc");
  });
});

describe("probeResult", () => {
  it("names the workspace and the teammate", () => {
    const admin = intercomAdmin.parse({
      type: "admin",
      id: "991267460",
      name: "Casey Morgan",
      email: "csm@demo.test",
      app: { type: "app", name: "Demo Schools", id_code: "ab12cd34" },
    });
    const r = probeResult(admin);
    expect(r.summary).toBe("Connected to Intercom workspace Demo Schools as Casey Morgan");
    expect(r.details).toEqual([
      { label: "Workspace", value: "Demo Schools (ab12cd34)" },
      { label: "Account", value: "Casey Morgan <csm@demo.test>" },
    ]);
  });
});
