import { describe, expect, it } from "vitest";
import { call, callDetailed, transcript } from "@/lib/contract/resources";
import { gongCallsPage, gongExtensivePage, gongTranscriptPage } from "./client";
import { byStartedDesc, mapAffiliation, mapCall, mapCallDetailed, mapParty, mapTranscript, normaliseStarted } from "./map";

describe("mapCall", () => {
  it("keeps id, title and url, and answers the start in UTC", () => {
    const page = gongCallsPage.parse({
      requestId: "r1",
      records: { totalRecords: 1, currentPageSize: 1, currentPageNumber: 0 },
      calls: [
        {
          id: "7782342274025937895",
          url: "https://app.gong.io/call?id=7782342274025937895",
          title: "Example call",
          scheduled: "2018-02-18T02:30:00-08:00",
          started: "2018-02-18T02:30:00-08:00",
          duration: 460,
          direction: "Inbound",
          system: "Outreach",
        },
      ],
    });
    const [c] = page.calls;
    if (!c) throw new Error("no call parsed");
    const mapped = mapCall(c);
    expect(mapped).toEqual({
      id: "7782342274025937895",
      title: "Example call",
      started: "2018-02-18T10:30:00.000Z",
      url: "https://app.gong.io/call?id=7782342274025937895",
    });
    expect(call.parse(mapped)).toEqual(mapped);
  });

  it("labels a call without a title", () => {
    expect(mapCall({ id: "1", title: null, started: "2026-01-01T00:00:00Z", url: "u" }).title).toBe("Untitled call");
    expect(mapCall({ id: "1", title: "  ", started: "2026-01-01T00:00:00Z", url: "u" }).title).toBe("Untitled call");
  });

  it("leaves an unreadable start time as sent", () => {
    expect(normaliseStarted("sometime")).toBe("sometime");
  });
});

describe("mapCallDetailed", () => {
  const page = gongExtensivePage.parse({
    records: { totalRecords: 1, currentPageSize: 1, currentPageNumber: 0 },
    calls: [
      {
        metaData: { id: "42", title: "Renewal", started: "2026-11-02T15:00:00Z", url: "https://app.gong.io/call?id=42", duration: 1800 },
        parties: [
          { id: "p1", name: "Casey Morgan", emailAddress: "csm@demo.test", affiliation: "Internal", speakerId: "s1", methods: ["Invitee"] },
          { id: "p2", name: "Dana Lee", emailAddress: "dana@school.test", affiliation: "External", speakerId: "s2" },
          { id: "p3", phoneNumber: "+1 555-0142", affiliation: "Unknown" },
          { id: "p4", emailAddress: "guest@elsewhere.test", affiliation: "SomethingNew" },
        ],
      },
    ],
  });

  it("maps parties to participants, with null speakerId for those who never spoke", () => {
    const [c] = page.calls;
    if (!c) throw new Error("no call parsed");
    const mapped = mapCallDetailed(c);
    expect(mapped.participants).toEqual([
      { name: "Casey Morgan", affiliation: "Internal", speakerId: "s1" },
      { name: "Dana Lee", affiliation: "External", speakerId: "s2" },
      { name: "+1 555-0142", affiliation: "Unknown", speakerId: null },
      { name: "guest@elsewhere.test", affiliation: "Unknown", speakerId: null },
    ]);
    expect(callDetailed.parse(mapped)).toEqual(mapped);
  });

  it("answers an empty participant list when Gong sends no parties", () => {
    const mapped = mapCallDetailed({ metaData: { id: "1", title: "t", started: "2026-01-01T00:00:00Z", url: "u" }, parties: null });
    expect(mapped.participants).toEqual([]);
  });

  it("keeps only the three affiliations the API knows", () => {
    expect(mapAffiliation("Internal")).toBe("Internal");
    expect(mapAffiliation("External")).toBe("External");
    expect(mapAffiliation("internal")).toBe("Unknown");
    expect(mapAffiliation(undefined)).toBe("Unknown");
    expect(mapParty({ speakerId: "" }).speakerId).toBeNull();
    expect(mapParty({}).name).toBe("Unknown participant");
  });
});

describe("mapTranscript", () => {
  it("joins each turn's sentences into one segment, in order", () => {
    const page = gongTranscriptPage.parse({
      requestId: "r",
      records: { totalRecords: 1, currentPageSize: 1, currentPageNumber: 0 },
      callTranscripts: [
        {
          callId: "42",
          transcript: [
            {
              speakerId: "s1",
              topic: "Call Setup",
              sentences: [
                { start: 0, end: 900, text: "Thanks for joining." },
                { start: 900, end: 2000, text: "Shall we start?" },
              ],
            },
            { speakerId: "s2", topic: null, sentences: [{ start: 2100, end: 2600, text: "Sure." }] },
            { speakerId: null, sentences: [{ start: 2700, end: 3000, text: "Sorry, you cut out." }] },
            { speakerId: "s1", sentences: [{ start: 3100, end: 3500, text: "Where were we?" }] },
          ],
        },
      ],
    });
    const [t] = page.callTranscripts;
    if (!t) throw new Error("no transcript parsed");
    const mapped = mapTranscript(t);
    expect(mapped).toEqual({
      callId: "42",
      segments: [
        { speakerId: "s1", text: "Thanks for joining. Shall we start?" },
        { speakerId: "s2", text: "Sure." },
        { speakerId: null, text: "Sorry, you cut out." },
        { speakerId: "s1", text: "Where were we?" },
      ],
    });
    expect(transcript.parse(mapped)).toEqual(mapped);
  });

  it("merges monologues Gong split by topic when the same speaker goes on", () => {
    const mapped = mapTranscript({
      callId: "1",
      transcript: [
        { speakerId: "s1", topic: "Pricing", sentences: [{ text: "The price holds." }] },
        { speakerId: "s1", topic: "Next Steps", sentences: [{ text: "I'll send the quote." }] },
        { speakerId: null, sentences: [{ text: "Hello?" }] },
        { speakerId: null, sentences: [{ text: "Can you hear me?" }] },
        { speakerId: "s2", sentences: [{ text: "  " }] },
      ],
    });
    expect(mapped.segments).toEqual([
      { speakerId: "s1", text: "The price holds. I'll send the quote." },
      { speakerId: null, text: "Hello?" },
      { speakerId: null, text: "Can you hear me?" },
    ]);
  });
});

describe("byStartedDesc", () => {
  it("puts the most recent call first, whatever the offsets", () => {
    const calls = [
      { id: "a", started: "2026-11-01T09:00:00-08:00" },
      { id: "b", started: "2026-11-01T16:30:00Z" },
      { id: "c", started: "2026-10-30T12:00:00Z" },
    ];
    expect([...calls].sort(byStartedDesc).map((c) => c.id)).toEqual(["a", "b", "c"]);
  });
});
