import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  REPORT_CONSOLE_MAX,
  REPORT_ERRORS_MAX,
  REPORT_QUIET_MS,
  REPORT_REQUESTS_MAX,
  REPORT_TEXT_MAX,
  REPORT_WAIT_MAX_MS,
  renderReportInput,
} from "@/lib/contract/reports";
import type { RequestLogEntry } from "./broker";
import { RenderRecorder, type RenderReportBody } from "./render-report";

// The host's recorder: when a report goes out, and what it may hold.

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function recorder() {
  const reports: RenderReportBody[] = [];
  const paints: number[] = [];
  const r = new RenderRecorder({ page: "watch", requestPaint: (id) => paints.push(id), onDone: (report) => reports.push(report) });
  return { r, reports, paints };
}

const answered = (path: string, status = 200, extra: Partial<RequestLogEntry> = {}): RequestLogEntry => ({ path, status, ms: 12, mode: "demo", at: Date.now(), method: "GET", ...extra });

describe("the render recorder", () => {
  it("reports once the requests are answered, nothing new came for a while, and the frame painted", async () => {
    const { r, reports, paints } = recorder();
    r.requestStarted();
    r.documentLoaded();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(paints).toEqual([]);
    r.requestAnswered(answered("/me"));
    await vi.advanceTimersByTimeAsync(REPORT_QUIET_MS - 1);
    expect(paints).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(paints).toEqual([1]);
    expect(reports).toEqual([]);
    r.notice({ type: "painted", id: 1 });
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({ page: "watch", settled: true, errors: [], requests: [{ method: "GET", path: "/me", status: 200, ms: 12 }], dropped: 0 });
    expect(reports[0]?.elapsedMs).toBe(2_000 + REPORT_QUIET_MS);
    expect(renderReportInput.safeParse({ revision: 1, ...reports[0] }).success).toBe(true);
    // Once only, whatever follows.
    r.requestStarted();
    r.requestAnswered(answered("/me"));
    await vi.advanceTimersByTimeAsync(REPORT_WAIT_MAX_MS);
    expect(reports).toHaveLength(1);
  });

  it("waits again when a request starts while the paint is awaited", async () => {
    const { r, reports, paints } = recorder();
    r.documentLoaded();
    await vi.advanceTimersByTimeAsync(REPORT_QUIET_MS);
    expect(paints).toEqual([1]);
    r.requestStarted();
    r.notice({ type: "painted", id: 1 });
    await vi.advanceTimersByTimeAsync(3_000);
    expect(reports).toEqual([]);
    r.requestAnswered(answered("/crm/customers/companies?limit=5"));
    await vi.advanceTimersByTimeAsync(REPORT_QUIET_MS);
    expect(paints).toEqual([1, 2]);
    r.notice({ type: "painted", id: 2 });
    expect(reports[0]?.requests.map((q) => q.path)).toEqual(["/crm/customers/companies?limit=5"]);
  });

  it("reports anyway after the longest wait, saying the render had not settled", async () => {
    const { r, reports } = recorder();
    r.documentLoaded();
    r.requestStarted();
    await vi.advanceTimersByTimeAsync(REPORT_WAIT_MAX_MS);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({ settled: false, elapsedMs: REPORT_WAIT_MAX_MS });
  });

  it("reports without the frame's word when it never says it painted", async () => {
    const { r, reports } = recorder();
    r.documentLoaded();
    await vi.advanceTimersByTimeAsync(REPORT_QUIET_MS + 1_000);
    expect(reports).toHaveLength(1);
    expect(reports[0]?.settled).toBe(true);
  });

  it("says nothing for a document replaced before it settled", async () => {
    const { r, reports } = recorder();
    r.documentLoaded();
    r.cancel();
    await vi.advanceTimersByTimeAsync(REPORT_WAIT_MAX_MS * 2);
    expect(reports).toEqual([]);
  });

  it("keeps refusals apart from requests, and counts repeats instead of listing them", async () => {
    const { r, reports } = recorder();
    r.documentLoaded();
    r.notice({ type: "error", kind: "error", message: "Uncaught TypeError: x", line: 9, column: 3 });
    r.notice({ type: "error", kind: "error", message: "Uncaught TypeError: x", line: 9, column: 3 });
    r.notice({ type: "refusal", method: "POST", path: "/dashboards/playground/api/me", error: "method_not_allowed", reason: "no writes" });
    for (let i = 0; i < 3; i++) {
      r.requestStarted();
      r.requestAnswered(answered("/../me", 400, { refused: { error: "invalid_path", reason: "Empty, '.' and '..' path segments are not allowed." } }));
    }
    r.requestStarted();
    r.requestAnswered(answered("/vendors/tracker/issues", 401));
    await vi.advanceTimersByTimeAsync(REPORT_QUIET_MS + 1_000);
    const report = reports[0]!;
    expect(report.errors).toEqual([{ kind: "error", message: "Uncaught TypeError: x", line: 9, column: 3, count: 2 }]);
    expect(report.refusals).toEqual([
      { method: "POST", path: "/dashboards/playground/api/me", error: "method_not_allowed", reason: "no writes", count: 1 },
      { method: "GET", path: "/../me", error: "invalid_path", reason: "Empty, '.' and '..' path segments are not allowed.", count: 3 },
    ]);
    expect(report.requests).toEqual([{ method: "GET", path: "/vendors/tracker/issues", status: 401, ms: 12 }]);
  });

  it("holds no more than the contract takes, and counts what it left out", async () => {
    const { r, reports } = recorder();
    r.documentLoaded();
    for (let i = 0; i < REPORT_ERRORS_MAX + 5; i++) r.notice({ type: "error", kind: "rejection", message: `e${i}`, line: null, column: null });
    for (let i = 0; i < REPORT_CONSOLE_MAX + 7; i++) r.notice({ type: "console", level: "error", message: `c${i}` });
    for (let i = 0; i < REPORT_REQUESTS_MAX + 11; i++) {
      r.requestStarted();
      r.requestAnswered(answered(`/me?i=${i}`));
    }
    await vi.advanceTimersByTimeAsync(REPORT_QUIET_MS + 1_000);
    const report = reports[0]!;
    expect(report.errors).toHaveLength(REPORT_ERRORS_MAX);
    expect(report.console).toHaveLength(REPORT_CONSOLE_MAX);
    expect(report.requests).toHaveLength(REPORT_REQUESTS_MAX);
    expect(report.dropped).toBe(5 + 7 + 11);
    expect(renderReportInput.safeParse({ revision: 1, ...report }).success).toBe(true);
  });

  it("keeps console.error lines and leaves the other levels to the editor's console", async () => {
    const { r, reports } = recorder();
    r.documentLoaded();
    for (const level of ["log", "info", "warn", "debug", "error"] as const) r.notice({ type: "console", level, message: `${level} line` });
    await vi.advanceTimersByTimeAsync(REPORT_QUIET_MS + 1_000);
    expect(reports[0]?.console).toEqual([{ message: "error line", count: 1 }]);
    expect(reports[0]?.dropped).toBe(0);
  });

  it("stops taking text at the report's character budget", async () => {
    const { r, reports } = recorder();
    r.documentLoaded();
    const message = "m".repeat(499);
    for (let i = 0; i < REPORT_CONSOLE_MAX; i++) r.notice({ type: "console", level: "error", message: `${i}`.padStart(2, "0") + message.slice(2) });
    for (let i = 0; i < REPORT_ERRORS_MAX; i++) r.notice({ type: "error", kind: "error", message: `${i}`.padStart(2, "0") + message.slice(2), line: 1, column: 1 });
    await vi.advanceTimersByTimeAsync(REPORT_QUIET_MS + 1_000);
    const report = reports[0]!;
    const chars = [...report.console, ...report.errors].reduce((n, e) => n + e.message.length, 0);
    expect(chars).toBeLessThanOrEqual(REPORT_TEXT_MAX);
    expect(report.dropped).toBe(REPORT_CONSOLE_MAX + REPORT_ERRORS_MAX - Math.floor(REPORT_TEXT_MAX / 499));
    expect(renderReportInput.safeParse({ revision: 1, ...report }).success).toBe(true);
  });
});
