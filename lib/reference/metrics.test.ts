import { describe, expect, it } from "vitest";
import { createMetrics } from "@/lib/ops/metrics";
import { documentedMetrics } from "@/lib/contract/operations/operators";

describe("the metrics /metrics exposes, in the API reference", () => {
  it("are the ones the API reference lists, no more and no fewer", async () => {
    const metrics = createMetrics();
    const exposed = (await metrics.registry.getMetricsAsJSON()).map((m) => m.name).sort();
    expect(exposed).toEqual(documentedMetrics.map(([name]) => name).sort());
  });

});
