import type { z } from "zod";
import { errorEnvelope } from "@/lib/contract/resources";

// The landing page's one way to read the API from the browser: the answer is parsed through its
// contract schema, and every failure becomes an ApiRequestError carrying the envelope's code, so
// each section can say what happened and what to do about it.

export class ApiRequestError extends Error {
  constructor(
    /** HTTP status; 0 when no answer arrived at all. */
    readonly status: number,
    /** The envelope's `error`, or `network` / `bad_response` for failures without one. */
    readonly code: string,
    readonly hint?: string,
  ) {
    super(hint ? `${code}: ${hint}` : code);
    this.name = "ApiRequestError";
  }
}

export async function getJson<T>(url: string, schema: z.ZodType<T>): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, { credentials: "same-origin", headers: { accept: "application/json" }, cache: "no-store" });
  } catch {
    throw new ApiRequestError(0, "network");
  }
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    throw new ApiRequestError(res.status, res.ok ? "bad_response" : `http_${res.status}`);
  }
  if (!res.ok) {
    const envelope = errorEnvelope.safeParse(body);
    if (envelope.success) throw new ApiRequestError(res.status, envelope.data.error, envelope.data.hint);
    throw new ApiRequestError(res.status, `http_${res.status}`);
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ApiRequestError(res.status, "bad_response");
  return parsed.data;
}

interface FailureText {
  /** What went wrong, in a sentence. */
  problem: string;
  /** What the person can do about it. */
  action: string;
  /** What the section offers: a retry when trying again could help, a sign-in link, or nothing. */
  next: "retry" | "sign-in" | "none";
}

/** The words for a failed read of `what` ("the CRM summary"), by status and code. */
export function describeFailure(error: unknown, what: string): FailureText {
  if (!(error instanceof ApiRequestError)) {
    return { problem: `Loading ${what} failed unexpectedly.`, action: "Try again; if it keeps failing, reload the page.", next: "retry" };
  }
  const { status, code } = error;
  if (code === "network") {
    return { problem: `${capitalise(what)} could not be reached.`, action: "Check your network connection, then try again.", next: "retry" };
  }
  if (code === "unauthorized") {
    return { problem: "Your session has ended.", action: "Sign in again to see your data.", next: "sign-in" };
  }
  if (status === 403) {
    return {
      problem: `Your account is not allowed to read ${what}.`,
      action: "Ask an admin to add you to a group that can read the customers CRM.",
      next: "none",
    };
  }
  if (code === "crm_not_synced") {
    return {
      problem: "The first CRM sync has not finished yet.",
      action: "The data freshness table shows its progress; this section checks again by itself every few seconds.",
      next: "retry",
    };
  }
  if (code === "bad_response") {
    return { problem: `${capitalise(what)} came back in an unexpected shape.`, action: "Reload the page; if it persists, report it to your admin.", next: "retry" };
  }
  const hint = error.hint ? ` ${error.hint}` : "";
  return {
    problem: `${capitalise(what)} could not be loaded (${code}).${hint}`,
    action: "Try again in a moment. If it keeps failing, check the data freshness table and tell your admin.",
    next: "retry",
  };
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
