import { describe, expect, it } from "vitest";
import { z } from "zod";
import { describeShape } from "./describe";
import { endpointById } from "./endpoints";

describe("describeShape", () => {
  it("renders optional, nullable, arrays, enums and nested objects", () => {
    const s = z.object({ id: z.string(), arr: z.number().nullable().optional(), tags: z.array(z.enum(["a", "b"])), owner: z.object({ n: z.number() }) });
    expect(describeShape(s)).toBe('{\n  id: string;\n  arr?: number | null;\n  tags: ("a" | "b")[];\n  owner: {\n    n: number;\n  };\n}');
  });

  it("renders named schemas (written once under $defs) by their fields, at the root and nested", () => {
    const item = z.object({ n: z.number() }).meta({ id: "DescribeItem" });
    const named = z.object({ id: z.string(), items: z.array(item), first: item.nullable() }).meta({ id: "DescribeNamed" });
    expect(describeShape(named)).toBe("{\n  id: string;\n  items: {\n    n: number;\n  }[];\n  first: {\n    n: number;\n  } | null;\n}");
    expect(describeShape(endpointById("me").response)).toContain("email: string");
  });

  it("renders the CX wrapper's two forms", () => {
    const text = describeShape(endpointById("cx.owners").response);
    expect(text).toContain("ok: true");
    expect(text).toContain("ok: false");
    expect(text).toContain("waitingOn: string");
  });
});
