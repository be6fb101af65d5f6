import { describe, expect, it } from "vitest";
import { waitingText } from "./ready";

const run = (status: string, rowsDone: number, rowsExpected: number | null) => ({ completed: false, latest: { status, rowsDone, rowsExpected } });

describe("waitingText", () => {
  it("is null once a sync has completed", () => {
    expect(waitingText({ completed: true, latest: null })).toBeNull();
  });

  it("says what the views wait for", () => {
    expect(waitingText({ completed: false, latest: null })).toBe("the first CRM portal sync, which has not started");
    expect(waitingText(run("running", 40, 100))).toBe("the first CRM portal sync (running, 40% done)");
    expect(waitingText(run("running", 2, 3))).toBe("the first CRM portal sync (running, 66% done)");
    expect(waitingText(run("running", 120, 100))).toBe("the first CRM portal sync (running, 99% done)");
    expect(waitingText(run("running", 5, null))).toBe("the first CRM portal sync (running)");
    expect(waitingText(run("running", 0, 0))).toBe("the first CRM portal sync (running)");
    expect(waitingText(run("failed", 10, 100))).toBe("the first CRM portal sync (the last attempt failed)");
  });
});
