import { describe, expect, it } from "vitest";
import { CONSOLE_ENTRIES_MAX, emptyLog, consoleCounts, logged } from "./console-log";

describe("the editor's console log", () => {
  it("keeps every level in order, counts a repeat of the line before, and starts over for another document", () => {
    let log = emptyLog("a");
    log = logged(log, "a", { type: "console", level: "log", message: "tick" });
    log = logged(log, "a", { type: "console", level: "log", message: "tick" });
    log = logged(log, "a", { type: "console", level: "warn", message: "tick" });
    log = logged(log, "a", { type: "error", kind: "error", message: "boom", line: 8, column: 3 });
    log = logged(log, "a", { type: "error", kind: "error", message: "boom", line: 9, column: 3 });
    log = logged(log, "a", { type: "console", level: "log", message: "tick" });
    expect(log.entries.map((e) => [e.level, e.message, e.line, e.count])).toEqual([
      ["log", "tick", null, 2],
      ["warn", "tick", null, 1],
      ["error", "boom", 8, 1],
      ["error", "boom", 9, 1],
      ["log", "tick", null, 1],
    ]);
    expect(consoleCounts(log.entries)).toEqual({ all: 6, error: 2, refused: 0, warn: 1, info: 0, log: 3, debug: 0 });
    const other = logged(log, "b", { type: "console", level: "debug", message: "fresh" });
    expect(other.entries).toHaveLength(1);
    expect(other.html).toBe("b");
  });

  it("counts an error each time it happens and a refused request each time it is refused, so the panel's numbers add up", () => {
    // The screen: the same error three times and one refused request.
    let log = emptyLog("a");
    for (let i = 0; i < 3; i++) log = logged(log, "a", { type: "error", kind: "error", message: "rows is null", line: 8, column: 3 });
    expect(log.entries.map((e) => e.count)).toEqual([3]);
    const counts = consoleCounts(log.entries, [{ count: 1 }]);
    expect(counts).toMatchObject({ all: 4, error: 3, refused: 1 });
    expect(counts.error + counts.refused).toBe(counts.all);
  });

  it("lets the oldest lines go past its bound, and says how many", () => {
    let log = emptyLog("a");
    for (let i = 0; i < CONSOLE_ENTRIES_MAX + 25; i++) log = logged(log, "a", { type: "console", level: "info", message: `line ${i}` });
    expect(log.entries).toHaveLength(CONSOLE_ENTRIES_MAX);
    expect(log.dropped).toBe(25);
    expect(log.entries[0]?.message).toBe("line 25");
  });
});
