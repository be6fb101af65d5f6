import type { Browser, Page } from "@playwright/test";
import { CANARY_PATH, CANARY_UFRAG, type ListenerTarget, type LoopbackListeners } from "./listeners";

// The browser's own requests to a page's listeners, sent after the page's attempts, so that what
// has not arrived by the time they have is known not to have been sent (see listeners.ts).
// They come from a page of their own in a separate context, so the page under test, its
// context and its counts are left alone.

let tokens = 0;

export class Canaries {
  private page: Page | null = null;

  constructor(
    private readonly browser: Browser,
    private readonly listeners: LoopbackListeners,
  ) {}

  /**
   * Sends a canary to each target's tcp listener, and with `udp` a STUN binding request to its
   * udp listener from a peer connection, and resolves once every one has been heard.
   */
  async send(targets: readonly ListenerTarget[], { udp = false } = {}): Promise<void> {
    const page = await this.open();
    await Promise.all(
      targets.map(async (t) => {
        const token = `${process.pid}x${++tokens}`;
        const heard = this.listeners.canary(t.name, token);
        await page.evaluate((url) => fetch(url, { mode: "no-cors", cache: "no-store" }).then(() => undefined), `${t.httpOrigin}${CANARY_PATH}${token}`);
        await heard;
        if (!udp) return;
        const stun = `${++tokens}y${process.pid}`;
        const stunHeard = this.listeners.canary(t.name, stun);
        const pc = await page.evaluateHandle(startPeer, { ufrag: `${CANARY_UFRAG}${stun}`, port: t.udpPort });
        try {
          await stunHeard;
        } finally {
          await pc.evaluate((p) => p.close());
        }
      }),
    );
  }

  async close(): Promise<void> {
    await this.page?.context().close();
    this.page = null;
  }

  private async open(): Promise<Page> {
    if (!this.page) {
      const context = await this.browser.newContext();
      this.page = await context.newPage();
    }
    return this.page;
  }
}

/** A peer connection whose connectivity checks go to 127.0.0.1:`port` with USERNAME `ufrag`:… */
async function startPeer({ ufrag, port }: { ufrag: string; port: number }): Promise<RTCPeerConnection> {
  const pc = new RTCPeerConnection();
  pc.createDataChannel("canary");
  const offer = await pc.createOffer();
  await pc.setLocalDescription(offer);
  const fingerprint = /a=fingerprint:.*/.exec(offer.sdp ?? "")?.[0] ?? "";
  const sdp = [
    "v=0",
    "o=- 1 1 IN IP4 127.0.0.1",
    "s=-",
    "t=0 0",
    "a=group:BUNDLE 0",
    "m=application 9 UDP/DTLS/SCTP webrtc-datachannel",
    "c=IN IP4 0.0.0.0",
    `a=ice-ufrag:${ufrag}`,
    "a=ice-pwd:aaaaaaaaaaaaaaaaaaaaaaaa",
    fingerprint,
    "a=setup:active",
    "a=mid:0",
    "a=sctp-port:5000",
    "",
  ].join("\r\n");
  await pc.setRemoteDescription({ type: "answer", sdp });
  await pc.addIceCandidate({ candidate: `candidate:1 1 udp 2130706431 127.0.0.1 ${port} typ host`, sdpMid: "0", sdpMLineIndex: 0 });
  return pc;
}
