import "server-only";
import type { CallToolResult } from "@modelcontextprotocol/server";
import { fromThrown, stringify } from "@/lib/http/respond";
import type { ToolContext } from "./shared";

// A playground operation's answer or refusal as a tool result. A refusal comes back as a result
// with `isError` and the envelope's code and hint as its text, which an agent reads and acts
// on, rather than as a protocol error it cannot.

/** An operation's answer as a tool hands it on: the value, or its JSON text as the route writes it (a draft's stored JSON). */
type ToolAnswer = { value: unknown } | { text: string };

/** Anything thrown as the envelope an HTTP caller would have been answered (an unexpected failure logged with its stack). */
export const thrownResponse = (err: unknown, log: (line: string) => void): Response =>
  fromThrown(err, (e) => log(`unexpected failure: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`));

/**
 * An operation's answer as a tool result: structured content, beside the body as JSON text for
 * an initialize-era client or a short summary for one that reads structured content (which
 * would otherwise get the answer twice); a refusal as `code: hint` with the envelope as
 * structured content.
 */
export async function toolResult(answer: () => Promise<ToolAnswer>, { legacy, log }: ToolContext): Promise<CallToolResult> {
  let text: string;
  try {
    const done = await answer();
    text = "text" in done ? done.text : stringify(done.value);
  } catch (err) {
    return refusalResult(thrownResponse(err, log));
  }
  const structured = JSON.parse(text) as Record<string, unknown>;
  return { content: [{ type: "text", text: legacy ? text : summaryOf(structured) }], structuredContent: structured };
}

/** A refusal, the envelope an HTTP caller would have been answered, as a tool result. */
export async function refusalResult(response: Response): Promise<CallToolResult> {
  const envelope = JSON.parse(await response.text()) as { error: string; hint?: string };
  const words = envelope.hint ? `${envelope.error}: ${envelope.hint}` : envelope.error;
  // What a refusal names as a number in its headers is a field too, so an agent need not read
  // it out of words; every tool's output schema admits the refusal (orRefusal).
  const current = Number(response.headers.get("x-current-revision") ?? NaN);
  const retryAfter = Number(response.headers.get("retry-after") ?? NaN);
  const refusal = {
    ...envelope,
    ...(Number.isInteger(current) && current >= 1 ? { currentRevision: current } : {}),
    ...(Number.isInteger(retryAfter) && retryAfter >= 0 ? { retryAfter } : {}),
  };
  const said = Object.keys(refusal).length === Object.keys(envelope).length ? words : `${words}\n${JSON.stringify(refusal)}`;
  return { content: [{ type: "text", text: said }], structuredContent: refusal, isError: true };
}

/**
 * An answer in a few lines, for a client that reads the answer itself from structured content:
 * each scalar field, the size of each list (and a finding's words, which an agent acts on), and
 * the names of the fields an object holds.
 */
function summaryOf(answer: Record<string, unknown>): string {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(answer)) {
    if (value === null || typeof value !== "object") {
      const shown = typeof value === "string" && value.length > SUMMARY_STRING_MAX ? `(${value.length} characters)` : JSON.stringify(value);
      lines.push(`${key}: ${shown}`);
    } else if (Array.isArray(value)) {
      lines.push(`${key}: ${value.length} item${value.length === 1 ? "" : "s"}`);
      for (const item of value.slice(0, SUMMARY_FINDINGS_MAX)) {
        const f = item as { severity?: unknown; message?: unknown; line?: unknown };
        if (typeof f?.message === "string") lines.push(`  - ${typeof f.severity === "string" ? `${f.severity} ` : ""}${typeof f.line === "number" ? `line ${f.line}: ` : ""}${f.message}`);
      }
    } else {
      lines.push(`${key}: {${Object.keys(value).join(", ")}}`);
    }
  }
  return `${lines.join("\n")}\n(The whole answer is the structured content.)`;
}

const SUMMARY_STRING_MAX = 120;
const SUMMARY_FINDINGS_MAX = 20;
