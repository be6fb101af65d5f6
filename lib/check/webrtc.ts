import type { ESTree } from "meriyah";
import type { Context } from "./context";
import { startOf, walk, type AnyNode } from "./walk";

// The `webrtc` rule: the frame's bootstrap deletes every WebRTC constructor before a dashboard
// runs (CSP does not govern WebRTC, so a peer connection could carry data out over STUN), so
// code that names one cannot work. Names are found as identifiers, property names
// (`window.RTCPeerConnection`) and strings (`window["RTCPeerConnection"]`, `globalThis[name]`
// with name = "webkitRTCPeerConnection").

/** RTCPeerConnection, webkitRTCPeerConnection, RTCDataChannel, RTCIceCandidate, … */
const WEBRTC_NAME = /^(?:webkit|moz)?RTC[A-Z][A-Za-z]*$/;
const IN_STRING = /\b(?:webkit|moz)?RTC[A-Z][A-Za-z]*/;

const MESSAGE = (name: string) =>
  `\`${name}\` is WebRTC, which the dashboard frame removes before any dashboard code runs: it cannot work here, and a peer connection could carry data out of the frame.`;
const HINT =
  "Remove the WebRTC code. A dashboard reads its data through fetch on window.DASHBOARD_API_BASE and has no other connection; live updates come from re-reading, not from peer connections.";

export function checkWebRtc(ctx: Context, program: ESTree.Program, at: (pos: number) => number): void {
  walk(program, (node: AnyNode) => {
    let name: string | null = null;
    if (node.type === "Identifier" && WEBRTC_NAME.test(node.name)) name = node.name;
    else if (node.type === "MemberExpression" && !node.computed && node.property.type === "Identifier" && WEBRTC_NAME.test(node.property.name)) {
      name = node.property.name;
    } else if (node.type === "Literal" && typeof node.value === "string") name = IN_STRING.exec(node.value)?.[0] ?? null;
    else if (node.type === "TemplateElement") name = IN_STRING.exec(node.value.cooked ?? node.value.raw)?.[0] ?? null;
    if (name !== null) {
      const offset = node.type === "MemberExpression" ? startOf(node.property) : startOf(node);
      ctx.report("webrtc", at(offset), MESSAGE(name), HINT);
    }
  });
}
