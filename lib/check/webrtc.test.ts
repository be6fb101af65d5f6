import { describe, expect, it } from "vitest";
import { checkDraft } from "./index";

const page = (script: string, attrs = "") => `<!doctype html>\n<html><body>\n<script${attrs}>\n${script}\n</script>\n</body></html>\n`;
const webrtc = (html: string) => checkDraft(html).filter((w) => w.rule === "webrtc");

describe("webrtc", () => {
  it.each([
    ["a peer connection", "const pc = new RTCPeerConnection();"],
    ["the prefixed constructor", "const pc = new webkitRTCPeerConnection({});"],
    ["a property of window", "const PC = window.RTCPeerConnection;"],
    ["a property of globalThis", "const PC = globalThis.RTCPeerConnection || self.webkitRTCPeerConnection;"],
    ["a bracket string", 'const PC = window["RTCPeerConnection"];'],
    ["a string kept for later", 'const name = "RTCPeerConnection"; const PC = window[name];'],
    ["a template string", "const PC = globalThis[`RTCPeerConnection`];"],
    ["a related constructor", 'new RTCIceCandidate({ candidate: "" }); new RTCSessionDescription({ type: "offer" });'],
    ["an instanceof check", "if (x instanceof RTCDataChannel) {}"],
  ])("is reported for %s", (_, code) => {
    const hits = webrtc(page(code));
    expect(hits.length).toBeGreaterThan(0);
    const hit = hits[0];
    expect(hit?.severity).toBe("error");
    expect(hit?.message).toMatch(/WebRTC.*removes.*cannot work.*carry data out/);
    expect(hit?.hint).toMatch(/Remove the WebRTC code/);
  });

  it("is reported in an event-handler attribute and points at the name", () => {
    const html = `<!doctype html><button onclick="new RTCPeerConnection()">go</button>`;
    const hits = webrtc(html);
    expect(hits).toHaveLength(1);
    expect(hits[0]?.line).toBe(1);
  });

  it("gives the line of the name", () => {
    const hits = webrtc(page("const a = 1;\nconst pc = new RTCPeerConnection();"));
    expect(hits.map((h) => h.line)).toEqual([5]);
  });

  it("is not reported for names that only look alike", () => {
    expect(webrtc(page('const rtc = 1; const RTCount = 2; const text = "rtc peer"; const o = { RTC: 1 }; o.RTC;'))).toEqual([]);
  });
});
