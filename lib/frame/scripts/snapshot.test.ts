import { describe, expect, it } from "vitest";
import { isSnapshotTime, SNAPSHOT_TIME } from "../snapshot";
import { snapshotTime } from "./snapshot";

describe("the frame's snapshot time", () => {
  it("keeps exactly the times the host keeps, so the host never drops what the frame sends", () => {
    const times = [
      "2026-11-20",
      "2026-11-20T09:00:00Z",
      "2026-11-20T10:30+01:00",
      "2026-11-20T09:00:00.123456789Z",
      "2024-02-29",
      "2026-02-29",
      "2026-02-31",
      "2026-13-01",
      "2026-11-20T06:00:00",
      "2026-11-20T25:00Z",
      "yesterday",
      "",
      null,
      20261120,
    ];
    for (const t of times) expect(snapshotTime(t, SNAPSHOT_TIME), String(t)).toBe(isSnapshotTime(t) ? t : null);
  });
});
