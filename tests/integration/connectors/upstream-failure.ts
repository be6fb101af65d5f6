import { UpstreamError } from "@/lib/connectors/http";

/** The UpstreamError a vendor call failed with; anything else (including success) fails the test. */
export async function upstreamFailure(p: Promise<unknown>): Promise<UpstreamError> {
  const outcome = await p.then(
    () => "resolved" as const,
    (e: unknown) => e,
  );
  if (outcome instanceof UpstreamError) return outcome;
  throw new Error(`expected an UpstreamError, got ${outcome === "resolved" ? "a success" : String(outcome)}`);
}
