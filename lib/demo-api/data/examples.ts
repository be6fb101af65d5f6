import type { EndpointId } from "@/lib/contract/endpoints";
import { rich } from "./data";

// Path values without a closed set of values (a call's id, a conversation's id), per endpoint,
// taken from the demo data itself: what the reference's examples and the catalogue's tests ask
// for. An endpoint with an open path value and no entry here has no example, which the
// reference's tests catch.

function first(kind: string, id: string | undefined): string {
  if (!id) throw new Error(`The demo data has no ${kind} to show`);
  return id;
}

export const openParamExamples: Partial<Record<EndpointId, Record<string, () => string>>> = {
  "vendors.calls.transcript": { id: () => first("call", rich().calls[0]?.id) },
  "vendors.support.conversation": { id: () => first("support conversation", rich().conversations[0]?.id) },
};
