import { describe, expect, it } from "vitest";
import { endpointById } from "./endpoints";

const companies = endpointById("crm.companies").query;
const book = endpointById("cx.book").query;

describe("query parsing", () => {
  it("accepts limits 1..200 and rejects anything else", () => {
    expect(companies.parse({ limit: "1" })).toEqual({ limit: 1 });
    expect(companies.parse({ limit: "200" })).toEqual({ limit: 200 });
    expect(companies.parse({})).toEqual({});
    for (const bad of ["0", "201", "-1", "1e2", "abc", "", " 5", "5.0"]) {
      expect(companies.safeParse({ limit: bad }).success, bad).toBe(false);
    }
  });

  it("takes a window as days or a valid from/to pair", () => {
    expect(book.parse({ owner: "o", days: "7" })).toMatchObject({ owner: "o", days: 7 });
    expect(book.parse({ owner: "o", from: "2026-01-01", to: "2026-01-01" })).toMatchObject({ from: "2026-01-01" });
    expect(book.safeParse({ owner: "o", from: "2026-01-01" }).success).toBe(false);
    expect(book.safeParse({ owner: "o", from: "2026-01-02", to: "2026-01-01" }).success).toBe(false);
    expect(book.safeParse({ owner: "o", from: "2026-13-01", to: "2026-12-01" }).success).toBe(false);
    expect(book.safeParse({ owner: "o", from: "2025-02-29", to: "2025-03-01" }).success).toBe(false);
    expect(book.parse({ owner: "o", from: "2024-02-29", to: "2024-03-01" })).toBeTruthy();
    expect(book.safeParse({ owner: "o", days: "366" }).success).toBe(false);
    // Calendar dates from 1970 to 9999 only.
    expect(book.safeParse({ owner: "o", from: "0001-01-01", to: "9999-12-31" }).success).toBe(false);
    expect(book.safeParse({ owner: "o", from: "1969-12-31", to: "1970-01-01" }).success).toBe(false);
    expect(book.parse({ owner: "o", from: "1970-01-01", to: "1970-12-31" })).toBeTruthy();
    expect(book.parse({ owner: "o", from: "9999-01-01", to: "9999-12-31" })).toBeTruthy();
    // At most 365 days, both ends counted, as `days` allows: a leap year whole is one too many.
    expect(book.parse({ owner: "o", from: "2023-01-01", to: "2023-12-31" })).toBeTruthy();
    expect(book.safeParse({ owner: "o", from: "2024-01-01", to: "2024-12-31" }).success).toBe(false);
    expect(book.safeParse({ owner: "o", from: "1970-01-01", to: "9999-12-31" }).success).toBe(false);
  });

  it("accepts only the documented basis values", () => {
    expect(book.parse({ owner: "o", basis: "activity" })).toMatchObject({ basis: "activity" });
    expect(book.safeParse({ owner: "o", basis: "Activity" }).success).toBe(false);
  });
});
