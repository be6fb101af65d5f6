import "server-only";
import type { Call, CallDetailed, Transcript } from "@/lib/contract/resources";
import type { UpstreamOptions } from "@/lib/connectors/http";
import type { ConnectorDef, ProbeResult } from "@/lib/connectors/types";
import { fetchCallsPage, getGongTranscripts, isGongCallId, listGongCalls, listGongCallsExtensive, windowEndingAt } from "./client";
import { byStartedDesc, mapCall, mapCallDetailed, mapTranscript, normaliseStarted } from "./map";
import { createCallsStandIn, GONG_API_BASE_FIELD } from "./stand-in";

// Call recording through Gong, read with one shared donor credential. Who may read is decided
// before these functions run; they only talk to Gong and shape the answers, at the customer's
// own API base, which the credential carries (see `apiBaseField`).

/** The API's calls are those of the trailing 30 days. */
const CALL_WINDOW_DAYS = 30;
const PROBE_DAYS = 7;

function dedupe<T extends { id: string }>(items: T[]): T[] {
  const seen = new Set<string>();
  return items.filter((c) => (seen.has(c.id) ? false : (seen.add(c.id), true)));
}

export async function listCalls(up: UpstreamOptions, opts: { detailed: true; now?: number }): Promise<{ calls: CallDetailed[] }>;
export async function listCalls(up: UpstreamOptions, opts: { detailed: false; now?: number }): Promise<{ calls: Call[] }>;
export async function listCalls(up: UpstreamOptions, opts: { detailed: boolean; now?: number }): Promise<{ calls: Call[] | CallDetailed[] }>;
export async function listCalls(up: UpstreamOptions, opts: { detailed: boolean; now?: number }): Promise<{ calls: Call[] | CallDetailed[] }> {
  const window = windowEndingAt(opts.now ?? Date.now(), CALL_WINDOW_DAYS);
  if (opts.detailed) {
    const calls = (await listGongCallsExtensive(up, window)).map(mapCallDetailed);
    return { calls: dedupe(calls).sort(byStartedDesc) };
  }
  const calls = (await listGongCalls(up, window)).map(mapCall);
  return { calls: dedupe(calls).sort(byStartedDesc) };
}

/** One call's transcript; null when no call of the trailing 30 days has that id. */
export async function getTranscript(up: UpstreamOptions, callId: string, opts: { now?: number } = {}): Promise<Transcript | null> {
  if (!isGongCallId(callId)) return null;
  const window = windowEndingAt(opts.now ?? Date.now(), CALL_WINDOW_DAYS);
  const found = (await getGongTranscripts(up, window, [callId])).find((t) => t.callId === callId);
  return found ? mapTranscript(found) : null;
}

/** One page of the last week's calls: proves the credential works and says what it sees. */
export async function probeCalls(up: UpstreamOptions, now: number = Date.now()): Promise<ProbeResult> {
  const page = await fetchCallsPage(up, windowEndingAt(now, PROBE_DAYS));
  const total = page.records.totalRecords;
  const latest = page.calls.map((c) => normaliseStarted(c.started)).sort().at(-1);
  // Gong lists oldest first, so with more pages to come the latest call is not on this one.
  const complete = page.records.cursor === undefined;
  const details = [{ label: `Calls (${PROBE_DAYS} days)`, value: String(total) }];
  if (latest) details.push({ label: complete ? "Latest call date" : "Latest call on first page", value: latest.slice(0, 10) });
  else details.push({ label: "Latest call date", value: `none in the last ${PROBE_DAYS} days` });
  return {
    summary: `Gong answered: ${total} ${total === 1 ? "call" : "calls"} in the last ${PROBE_DAYS} days`,
    details,
  };
}

export const callsConnector: ConnectorDef = {
  slug: "calls",
  title: "Call recording",
  product: "Gong",
  credential: "donor",
  scope: "api:calls:read:basic api:calls:read:extensive api:calls:read:transcript",
  tokenAuth: "basic",
  // Gong serves each customer on a host of its own, named in the token answer.
  apiBaseField: GONG_API_BASE_FIELD,
  authorization: (token) => `Bearer ${token}`,
  probeDescription: `Lists the first few calls of the last ${PROBE_DAYS} days through the organisation's shared Gong connection`,
  probe: (upstream) => probeCalls(upstream),
  createStandIn: (deps) => createCallsStandIn(deps),
};
