import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { ApiRequestError, describeFailure, getJson } from "./fetch-json";

const schema = z.object({ n: z.number() });

function answer(status: number, body: string) {
  vi.stubGlobal("fetch", vi.fn(async () => new Response(body, { status, headers: { "content-type": "application/json" } })));
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("getJson", () => {
  it("returns the body parsed through the schema", async () => {
    answer(200, JSON.stringify({ n: 3 }));
    await expect(getJson("/api/x", schema)).resolves.toEqual({ n: 3 });
  });

  it("turns an error envelope into its status, code and hint", async () => {
    answer(503, JSON.stringify({ error: "crm_not_synced", hint: "wait" }));
    await expect(getJson("/api/x", schema)).rejects.toMatchObject({ status: 503, code: "crm_not_synced", hint: "wait" });
  });

  it("names a body that is not the contract's shape bad_response", async () => {
    answer(200, JSON.stringify({ n: "three" }));
    await expect(getJson("/api/x", schema)).rejects.toMatchObject({ code: "bad_response" });
  });

  it("names a non-JSON failure by its status and a refused connection network", async () => {
    answer(502, "<html>Bad gateway</html>");
    await expect(getJson("/api/x", schema)).rejects.toMatchObject({ status: 502, code: "http_502" });
    vi.stubGlobal("fetch", vi.fn(async () => Promise.reject(new TypeError("Failed to fetch"))));
    await expect(getJson("/api/x", schema)).rejects.toMatchObject({ status: 0, code: "network" });
  });
});

describe("describeFailure", () => {
  it("tells someone without permission whom to ask, without offering a retry", () => {
    const text = describeFailure(new ApiRequestError(403, "forbidden"), "the CRM summary");
    expect(text.problem).toBe("Your account is not allowed to read the CRM summary.");
    expect(text.action).toContain("Ask an admin");
    expect(text.next).toBe("none");
  });

  it("explains a CRM that has not synced yet and that it will check again", () => {
    const text = describeFailure(new ApiRequestError(503, "crm_not_synced"), "the CRM summary");
    expect(text.problem).toContain("has not finished");
    expect(text.action).toContain("checks again by itself");
  });

  it("names the code and passes the hint on for an outage", () => {
    const text = describeFailure(new ApiRequestError(500, "internal_error", "Try later."), "the CRM summary");
    expect(text.problem).toBe("The CRM summary could not be loaded (internal_error). Try later.");
    expect(text.next).toBe("retry");
  });

  it("asks a signed-out person to sign in again", () => {
    expect(describeFailure(new ApiRequestError(401, "unauthorized"), "your favourites")).toMatchObject({
      problem: "Your session has ended.",
      next: "sign-in",
    });
  });

  it("falls back to a retry for anything that is not an API failure", () => {
    expect(describeFailure(new Error("boom"), "your favourites").next).toBe("retry");
  });
});
