import { history, historyField } from "@codemirror/commands";
import { EditorState } from "@codemirror/state";
import { describe, expect, it } from "vitest";
import {
  KEPT_EDITS_MAX_AGE_MS,
  KEPT_HISTORY_MAX_CHARS,
  historyToKeep,
  draftAddress,
  editsKey,
  keepWriteCapability,
  postPathOf,
  readKeptEdits,
  readWriteCapability,
  restoreDecision,
  worthKeeping,
  writeKeptEdits,
  writeKey,
  type KeptEdits,
  type KeyValueStore,
} from "./local-drafts";

class MemoryStore implements KeyValueStore {
  readonly items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
}

/** Storage as a browser with it disabled, or full, answers. */
const refusing: KeyValueStore = {
  getItem: () => {
    throw new Error("SecurityError");
  },
  setItem: () => {
    throw new Error("QuotaExceededError");
  },
  removeItem: () => {
    throw new Error("SecurityError");
  },
};

const READ_ID = "r".repeat(22);
const TOKEN = "W".repeat(43);
const capability = { postUrl: `https://dash.example/dashboards/playground/draft/${TOKEN}`, watchUrl: `https://dash.example/dashboards/playground/watch/${READ_ID}` };

const edits = (over: Partial<KeptEdits> = {}): KeptEdits => ({
  v: 1,
  html: "<title>Mine</title><p>edited</p>",
  base: { id: "cx-book", label: "CX book", html: "<title>CX book</title>" },
  dash: null,
  dataMode: "demo",
  scenario: "default",
  examples: {},
  keptAt: 1_000_000,
  ...over,
});

describe("where drafts are kept in the browser", () => {
  it("names keys and addresses by the read id, never the write token", () => {
    expect(writeKey(READ_ID)).toBe(`dashboards:draft-write:${READ_ID}`);
    expect(editsKey({ kind: "draft", id: READ_ID })).toBe(`dashboards:unsaved:draft:${READ_ID}`);
    expect(editsKey({ kind: "playground" })).toBe("dashboards:unsaved:playground");
    expect(draftAddress(READ_ID)).toBe(`/dashboards/playground/d/${READ_ID}`);
  });

  it("keeps and reads back a write capability per draft", () => {
    const store = new MemoryStore();
    expect(readWriteCapability(store, READ_ID)).toBeNull();
    expect(keepWriteCapability(store, READ_ID, capability)).toBe(true);
    expect(readWriteCapability(store, READ_ID)).toEqual(capability);
    expect(readWriteCapability(store, "s".repeat(22))).toBeNull();
  });

  it("ignores a stored capability that is not a write path of the playground", () => {
    const store = new MemoryStore();
    for (const postUrl of ["https://evil.example/steal", "/api/me", `/dashboards/playground/draft/${TOKEN}/events`, "/dashboards/playground/draft/short"]) {
      store.setItem(writeKey(READ_ID), JSON.stringify({ ...capability, postUrl }));
      expect(readWriteCapability(store, READ_ID), postUrl).toBeNull();
    }
    store.setItem(writeKey(READ_ID), "{not json");
    expect(readWriteCapability(store, READ_ID)).toBeNull();
  });

  it("pushes to the same-origin path of the post URL, whatever origin the server named", () => {
    expect(postPathOf(capability.postUrl)).toBe(`/dashboards/playground/draft/${TOKEN}`);
    expect(postPathOf(`/dashboards/playground/draft/${TOKEN}`)).toBe(`/dashboards/playground/draft/${TOKEN}`);
    expect(postPathOf(`https://x.example/dashboards/playground/watch/${READ_ID}`)).toBeNull();
  });

  it("says so, rather than throwing, when the browser refuses to store", () => {
    expect(keepWriteCapability(refusing, READ_ID, capability)).toBe(false);
    expect(readWriteCapability(refusing, READ_ID)).toBeNull();
    expect(writeKeptEdits(refusing, { kind: "playground" }, edits())).toBe(false);
    expect(readKeptEdits(refusing, { kind: "playground" })).toBeNull();
  });

  it("keeps edits per scope, and forgets them on null", () => {
    const store = new MemoryStore();
    const draft = { kind: "draft", id: READ_ID } as const;
    expect(writeKeptEdits(store, draft, edits({ html: "<p>draft</p>" }))).toBe(true);
    expect(writeKeptEdits(store, { kind: "playground" }, edits())).toBe(true);
    expect(readKeptEdits(store, draft)?.html).toBe("<p>draft</p>");
    expect(readKeptEdits(store, { kind: "playground" })?.html).toBe(edits().html);
    expect(writeKeptEdits(store, draft, null)).toBe(true);
    expect(readKeptEdits(store, draft)).toBeNull();
    expect(store.items.has(editsKey(draft))).toBe(false);
  });

  it("reads a malformed record as nothing kept", () => {
    const store = new MemoryStore();
    store.setItem(editsKey({ kind: "playground" }), JSON.stringify({ ...edits(), v: 2 }));
    expect(readKeptEdits(store, { kind: "playground" })).toBeNull();
    store.setItem(editsKey({ kind: "playground" }), JSON.stringify({ ...edits(), dataMode: "other" }));
    expect(readKeptEdits(store, { kind: "playground" })).toBeNull();
  });
});

describe("what is worth keeping and what comes back", () => {
  it("keeps a source that differs from its start, and any dashboard handed over from a space", () => {
    expect(worthKeeping("<p>a</p>", { id: "cx-book", html: "<p>a</p>" })).toBe(false);
    expect(worthKeeping("<p>b</p>", { id: "cx-book", html: "<p>a</p>" })).toBe(true);
    expect(worthKeeping("<p>a</p>", { id: "handoff", html: "<p>a</p>" })).toBe(true);
  });

  it("restores kept edits that differ from what the editor opens on", () => {
    const kept = edits();
    expect(restoreDecision(kept, { html: "<title>CX book</title>" }, kept.keptAt + 1000)).toEqual({ kind: "restore", edits: kept });
  });

  it("has nothing to restore when nothing was kept", () => {
    expect(restoreDecision(null, { html: "x" }, 0)).toEqual({ kind: "none" });
  });

  it("forgets edits identical to what the editor opens on (a draft's revision they were pushed as)", () => {
    const kept = edits();
    expect(restoreDecision(kept, { html: kept.html }, kept.keptAt)).toEqual({ kind: "drop" });
  });

  it("forgets edits too old to matter, or dated in the future", () => {
    const kept = edits();
    expect(restoreDecision(kept, { html: "x" }, kept.keptAt + KEPT_EDITS_MAX_AGE_MS + 1)).toEqual({ kind: "drop" });
    expect(restoreDecision(kept, { html: "x" }, kept.keptAt + KEPT_EDITS_MAX_AGE_MS)).toEqual({ kind: "restore", edits: kept });
    expect(restoreDecision(kept, { html: "x" }, kept.keptAt - 10 * 60_000)).toEqual({ kind: "drop" });
  });
});

describe("the undo history kept beside the edits", () => {
  const stateJson = (doc: string) => {
    let state = EditorState.create({ doc: "<p>a</p>", extensions: [history()] });
    state = state.update({ changes: { from: 0, to: state.doc.length, insert: doc } }).state;
    return state.toJSON({ history: historyField }) as { doc: string };
  };

  it("keeps a history of the very text kept, and comes back through a store as it went in", () => {
    const json = stateJson("<p>b</p>");
    expect(historyToKeep(json, "<p>b</p>")).toBe(json);
    const store = new MemoryStore();
    const kept = { ...edits(), html: "<p>b</p>", history: json };
    expect(writeKeptEdits(store, { kind: "playground" }, kept)).toBe(true);
    const back = readKeptEdits(store, { kind: "playground" });
    expect(back?.history).toEqual(json);
    const restored = EditorState.fromJSON(back?.history, { extensions: [history()] }, { history: historyField });
    expect(restored.doc.toString()).toBe("<p>b</p>");
  });

  it("keeps no history of another text, none that is not an object, and none over its bound", () => {
    expect(historyToKeep(stateJson("<p>b</p>"), "<p>c</p>")).toBeUndefined();
    expect(historyToKeep(null, "x")).toBeUndefined();
    expect(historyToKeep("x", "x")).toBeUndefined();
    const big = "x".repeat(KEPT_HISTORY_MAX_CHARS);
    expect(historyToKeep(stateJson(big), big)).toBeUndefined();
  });
});
