import { describe, expect, it } from "vitest";
import { hostBelieved, hostOf, parseHost } from "./hosts";

const none = { allowedHosts: [] };

describe("which Host the server believes", () => {
  it("believes loopback names on any port, and nothing else by default", () => {
    for (const h of ["localhost", "localhost:3000", "127.0.0.1:3000", "127.9.9.9", "[::1]:3000", "app.localhost:3000", "LOCALHOST:80"]) {
      expect(hostBelieved(h, "http:", null, none), h).toBe(true);
    }
    for (const h of ["rebind.evil.example:3000", "evil.test", "10.0.0.5:3000", "[fe80::1]:3000", "localhost.evil.test", "127.0.0.1.evil.test", "0.0.0.0:3000"]) {
      expect(hostBelieved(h, "http:", null, none), h).toBe(false);
    }
  });

  it("believes exactly the address and port the connection reached", () => {
    const local = hostOf("10.0.0.5", 3000);
    expect(hostBelieved("10.0.0.5:3000", "http:", local, none)).toBe(true);
    expect(hostBelieved("10.0.0.5:3001", "http:", local, none)).toBe(false);
    expect(hostBelieved("10.0.0.5", "http:", local, none)).toBe(false);
    expect(hostBelieved("[fe80::1]:3000", "http:", hostOf("FE80::1", 3000), none)).toBe(true);
    expect(hostBelieved("192.0.2.1:3000", "http:", hostOf("::ffff:192.0.2.1", 3000), none)).toBe(true);
  });

  it("believes PUBLIC_ORIGIN's name, with its port or none (a proxy that ends TLS forwards plain http)", () => {
    const policy = { publicOrigin: "https://dash.example.com", allowedHosts: [] };
    expect(hostBelieved("dash.example.com", "http:", null, policy)).toBe(true);
    expect(hostBelieved("dash.example.com:443", "http:", null, policy)).toBe(true);
    expect(hostBelieved("dash.example.com:8443", "http:", null, policy)).toBe(false);
    expect(hostBelieved("other.example.com", "http:", null, policy)).toBe(false);
  });

  it("believes what ALLOWED_HOSTS lists: a name on any port, name:port, a domain and its subdomains, or anything", () => {
    const policy = { allowedHosts: ["dash.internal", "app.lan:8080", ".corp.example", "[fd00::2]:3000"] };
    expect(hostBelieved("dash.internal:3000", "http:", null, policy)).toBe(true);
    expect(hostBelieved("dash.internal", "http:", null, policy)).toBe(true);
    expect(hostBelieved("app.lan:8080", "http:", null, policy)).toBe(true);
    expect(hostBelieved("app.lan:3000", "http:", null, policy)).toBe(false);
    expect(hostBelieved("corp.example", "http:", null, policy)).toBe(true);
    expect(hostBelieved("dash.eu.corp.example:3000", "http:", null, policy)).toBe(true);
    expect(hostBelieved("evilcorp.example", "http:", null, policy)).toBe(false);
    expect(hostBelieved("[fd00::2]:3000", "http:", null, policy)).toBe(true);
    expect(hostBelieved("anything.at.all", "http:", null, { allowedHosts: ["*"] })).toBe(true);
  });

  it("refuses what is not a Host at all", () => {
    for (const h of [null, "", " ", "a b", "evil.test:99999", "evil.test:0", "[not-v6]:1", "..", ".evil.test", "a..b", "user@localhost", "localhost/x", "localhost:3000:1"]) {
      expect(hostBelieved(h, "http:", null, { allowedHosts: ["*"] }), String(h)).toBe(false);
    }
    expect(parseHost("Example.COM.", "https:")).toEqual({ name: "example.com", port: 443, explicitPort: false, v6: false });
  });
});
