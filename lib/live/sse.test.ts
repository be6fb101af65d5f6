import { describe, expect, it } from "vitest";
import { draftEvent } from "@/lib/contract/playground";
import { EventStreamParser, commentFrame, draftFrame, openingFrame, parseLastEventId, type SseMessage } from "./sse";

const TRICKY = [
  "<p>one</p>",
  "",
  "",
  "line\r\nwith crlf",
  "lone\rcr",
  "event: x",
  "data: y",
  "id: 9",
  ": comment-like",
  "\u2028\u2029 separators",
  "\u0001\u001b\u007f controls, 😀 and 𝔘",
  "\r\n\r\n",
  "data:",
].join("\n");

function parseAll(chunks: (Uint8Array | string)[]): { messages: SseMessage[]; parser: EventStreamParser } {
  const messages: SseMessage[] = [];
  const parser = new EventStreamParser((m) => messages.push(m));
  for (const c of chunks) parser.push(c);
  return { messages, parser };
}

describe("draft framing", () => {
  it("carries any HTML byte-identically in one event", () => {
    const frame = draftFrame({ revision: 7, scenario: "default", examples: {}, dash: "my-dash", html: TRICKY });
    const { messages } = parseAll([frame]);
    expect(messages).toHaveLength(1);
    const [m] = messages;
    expect(m?.type).toBe("draft");
    expect(m?.lastEventId).toBe("7");
    const data = draftEvent.parse(JSON.parse(m!.data));
    expect(data).toEqual({ revision: 7, scenario: "default", examples: {}, dash: "my-dash", html: TRICKY });
    expect(Buffer.from(data.html, "utf8").equals(Buffer.from(TRICKY, "utf8"))).toBe(true);
  });

  it("puts no line terminator inside the data line", () => {
    const text = new TextDecoder().decode(draftFrame({ revision: 1, scenario: "s", examples: {}, dash: null, html: TRICKY }));
    const lines = text.split("\n");
    expect(lines).toEqual([expect.stringMatching(/^id: 1$/), "event: draft", expect.stringMatching(/^data: \{/), "", ""]);
    expect(text.includes("\r")).toBe(false);
  });

  it("survives being split at every byte boundary", () => {
    const frame = draftFrame({ revision: 3, scenario: "s", examples: {}, dash: null, html: TRICKY });
    const bytes = Array.from(frame, (b) => Uint8Array.of(b));
    const { messages } = parseAll([openingFrame(1000), ...bytes, commentFrame("hb"), frame]);
    expect(messages).toHaveLength(2);
    for (const m of messages) expect(JSON.parse(m.data).html).toBe(TRICKY);
  });
});

describe("event-stream parser", () => {
  it("accepts CR, LF and CRLF line ends, also split across chunks", () => {
    const { messages } = parseAll(["data: a\r", "\ndata: b\r\rdata: c\n\n", "event: e\rdata: d\r\n\r\n"]);
    expect(messages.map((m) => [m.type, m.data])).toEqual([
      ["message", "a\nb"],
      ["message", "c"],
      ["e", "d"],
    ]);
  });

  it("drops a leading BOM, counts comments, ignores ids with NUL and keeps the last id", () => {
    const { messages, parser } = parseAll(["\ufeffid: 4\ndata: x\n\n: hb\n\nid: 5\u0000\ndata: y\n\nretry: 1500\n\n"]);
    expect(messages.map((m) => m.lastEventId)).toEqual(["4", "4"]);
    expect(parser.comments).toBe(1);
    expect(parser.retry).toBe(1500);
  });

  it("does not dispatch an event without data", () => {
    expect(parseAll(["event: draft\nid: 2\n\n"]).messages).toHaveLength(0);
    expect(parseAll(["data:\n\n"]).messages).toEqual([{ type: "message", data: "", lastEventId: "" }]);
  });
});

describe("Last-Event-ID", () => {
  it("is a revision only when it is a plain number", () => {
    expect(parseLastEventId("12")).toBe(12);
    expect(parseLastEventId(null)).toBeNull();
    for (const bad of ["", "abc", "-1", "1.5", " 1", "9".repeat(40)]) expect(parseLastEventId(bad)).toBeNull();
  });
});
