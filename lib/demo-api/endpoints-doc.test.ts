import { describe, expect, it } from "vitest";
import { SNAPSHOT_ELEMENT_ID, SNAPSHOT_HELPER, SNAPSHOT_TAKEN_AT_ATTRIBUTE } from "@/lib/frame/protocol";
import { endpointsBody } from "./endpoints-doc";

describe("/endpoints", () => {
  it("states the snapshot convention with the names the frame uses", () => {
    const { snapshot } = endpointsBody();
    expect(snapshot).toContain(`id="${SNAPSHOT_ELEMENT_ID}"`);
    expect(snapshot).toContain(`${SNAPSHOT_TAKEN_AT_ATTRIBUTE}="`);
    expect(snapshot).toContain(`window.${SNAPSHOT_HELPER}(panel)`);
    expect(snapshot).toContain("ISO-8601");
  });
});
