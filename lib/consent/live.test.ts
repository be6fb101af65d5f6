import { describe, expect, it } from "vitest";
import type { DraftReads } from "@/lib/check/reads";
import { Agreement, agree, decideLive, LiveGrant, startingAgreement, type CodeAuthor, type LiveDecision } from "./live";

const reads = (...paths: string[]): DraftReads => ({ paths, complete: true });
const stranger: CodeAuthor = { kind: "space", handle: "csm", name: "Casey", trusted: false };
const editor: CodeAuthor = { kind: "editor", from: "a playground draft", own: false };

function grantOf(d: LiveDecision): LiveGrant {
  if (d.kind !== "run") throw new Error(`expected to run, was asked: ${JSON.stringify(d.question)}`);
  return d.grant;
}
function questionOf(d: LiveDecision) {
  if (d.kind !== "ask") throw new Error("expected a question");
  return d;
}

describe("decideLive: whether code may read the viewer's live data, and which paths", () => {
  it("asks before code someone else wrote reads anything, wherever it came from", () => {
    for (const author of [stranger, { kind: "draft" } as const, editor]) {
      const d = questionOf(decideLive({ signedIn: true, author, reads: reads("/crm/:instance/contacts", "/me"), agreement: null }));
      expect(d.question.reads.paths).toEqual(["/crm/:instance/contacts", "/me"]);
      expect(d.question.agreed).toEqual([]);
      expect(d.running).toBeNull();
    }
  });

  it("after a yes serves exactly the paths shown, and asks again when the code names more", () => {
    const first = questionOf(decideLive({ signedIn: true, author: stranger, reads: reads("/me"), agreement: null }));
    const yes = agree(first.question);
    const grant = grantOf(decideLive({ signedIn: true, author: stranger, reads: reads("/me"), agreement: yes }));
    expect(grant.paths).toEqual(["/me"]);
    expect(grant.allows("/me")).toBe(true);
    expect(grant.allows("/crm/users/contacts")).toBe(false);

    const more = questionOf(decideLive({ signedIn: true, author: stranger, reads: reads("/me", "/crm/users/contacts"), agreement: yes }));
    expect(more.question.agreed).toEqual(["/me"]);
    // Meanwhile only what was agreed is served.
    expect(more.running?.paths).toEqual(["/me"]);
    expect(more.running?.allows("/crm/users/contacts")).toBe(false);
    const both = agree(more.question);
    expect(grantOf(decideLive({ signedIn: true, author: stranger, reads: reads("/me", "/crm/users/contacts"), agreement: both })).paths).toEqual([
      "/crm/users/contacts",
      "/me",
    ]);
  });

  it("runs the viewer's own saved dashboard at once on every path", () => {
    const grant = grantOf(decideLive({ signedIn: true, author: { kind: "viewer" }, reads: reads("/me"), agreement: null }));
    expect(grant.paths).toBeNull();
    expect(grant.allows("/crm/users/contacts")).toBe(true);
    expect(startingAgreement(decideLive({ signedIn: true, author: { kind: "viewer" }, reads: reads(), agreement: null }))).toBeNull();
  });

  it("runs a trusted author's code, and the viewer's own dashboard in the editor, held to what the code named when it started", () => {
    for (const author of [{ ...stranger, trusted: true }, { ...editor, own: true }] satisfies CodeAuthor[]) {
      const start = decideLive({ signedIn: true, author, reads: reads("/me"), agreement: null });
      expect(grantOf(start).paths).toEqual(["/me"]);
      const kept = startingAgreement(start);
      expect(kept?.paths).toEqual(["/me"]);
      const edited = questionOf(decideLive({ signedIn: true, author, reads: reads("/me", "/cx/book"), agreement: kept }));
      expect(edited.question.reads.paths).toEqual(["/me", "/cx/book"]);
      expect(edited.running?.paths).toEqual(["/me"]);
    }
  });

  it("asks nobody signed out (there is nothing of theirs to read) and still holds the code to its paths", () => {
    const decision = decideLive({ signedIn: false, author: stranger, reads: reads("/me"), agreement: null });
    const grant = grantOf(decision);
    expect(grant.paths).toEqual(["/me"]);
    expect(grant.allows("/me/favourites")).toBe(false);
    expect(startingAgreement(decision)).toBeNull();
  });

  it("gives code that names no path a grant for none, which is no agreement to anything later", () => {
    const decision = decideLive({ signedIn: true, author: stranger, reads: { paths: [], complete: false }, agreement: null });
    const grant = grantOf(decision);
    expect(grant.paths).toEqual([]);
    expect(grant.allows("/me")).toBe(false);
    // Code that names paths after it (an editor's text arriving, a new revision) is asked about in full.
    expect(startingAgreement(decision)).toBeNull();
  });

  it("takes no agreement it did not make: a look-alike is no yes", () => {
    const forged = { paths: ["/me", "/crm/users/contacts"] } as unknown as Agreement;
    const d = questionOf(decideLive({ signedIn: true, author: stranger, reads: reads("/me"), agreement: forged }));
    expect(d.running).toBeNull();
    expect(d.question.agreed).toEqual([]);
  });

  it("knows its own grants from copies, casts and look-alikes", () => {
    const real = grantOf(decideLive({ signedIn: true, author: { kind: "viewer" }, reads: reads(), agreement: null }));
    expect(LiveGrant.isGrant(real)).toBe(true);
    for (const fake of [{}, { paths: null }, { ...real }, Object.create(LiveGrant.prototype as object), null, "grant"]) {
      expect(LiveGrant.isGrant(fake)).toBe(false);
    }
    const yes = agree(questionOf(decideLive({ signedIn: true, author: stranger, reads: reads("/me"), agreement: null })).question);
    expect(Agreement.isAgreement(yes)).toBe(true);
    expect(Agreement.isAgreement({ paths: ["/me"] })).toBe(false);
  });

  it("keeps a grant's paths as they were given: the list handed out cannot be widened", () => {
    const grant = grantOf(decideLive({ signedIn: false, author: stranger, reads: reads("/me"), agreement: null }));
    expect(() => (grant.paths as string[]).push("/crm/users/contacts")).toThrow();
    expect(grant.allows("/crm/users/contacts")).toBe(false);
  });
});
