import type { Call, CallDetailed, Transcript } from "@/lib/contract/resources";
import type { GongCall, GongCallTranscript, GongExtensiveCall, GongParty } from "./client";

// Gong's shapes in the API's words. Pure functions, so the mapping is tested without HTTP.

type Affiliation = CallDetailed["participants"][number]["affiliation"];

/** Gong sends local times with an offset; the API answers one form, UTC. */
export function normaliseStarted(started: string): string {
  const ms = Date.parse(started);
  return Number.isNaN(ms) ? started : new Date(ms).toISOString();
}

export function mapCall(c: GongCall): Call {
  return { id: c.id, title: c.title?.trim() || "Untitled call", started: normaliseStarted(c.started), url: c.url };
}

export function mapAffiliation(a: string | null | undefined): Affiliation {
  return a === "Internal" || a === "External" ? a : "Unknown";
}

/** A dial-in has no name at Gong, only a number; someone always gets a label. */
function participantName(p: GongParty): string {
  return p.name?.trim() || p.emailAddress?.trim() || p.phoneNumber?.trim() || "Unknown participant";
}

export function mapParty(p: GongParty): CallDetailed["participants"][number] {
  return { name: participantName(p), affiliation: mapAffiliation(p.affiliation), speakerId: p.speakerId || null };
}

export function mapCallDetailed(c: GongExtensiveCall): CallDetailed {
  return { ...mapCall(c.metaData), participants: (c.parties ?? []).map(mapParty) };
}

/**
 * Gong splits one person's turn into several monologues when the topic changes; consecutive
 * monologues of the same known speaker are one turn. Unattributed ones stay apart, since two
 * of them in a row may be different people.
 */
export function mapTranscript(t: GongCallTranscript): Transcript {
  const segments: Transcript["segments"] = [];
  for (const m of t.transcript) {
    const speakerId = m.speakerId || null;
    const text = m.sentences
      .map((s) => s.text.trim())
      .filter(Boolean)
      .join(" ");
    if (!text) continue;
    const last = segments.at(-1);
    if (last && speakerId !== null && last.speakerId === speakerId) last.text = `${last.text} ${text}`;
    else segments.push({ speakerId, text });
  }
  return { callId: t.callId, segments };
}

/** Most recent first; ties keep a stable order by id. */
export function byStartedDesc<T extends { id: string; started: string }>(a: T, b: T): number {
  const d = Date.parse(b.started) - Date.parse(a.started);
  if (d !== 0 && !Number.isNaN(d)) return d;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
