import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RenderTimeout } from "@/lib/renderer";
import { CANARY_PATH, LoopbackListeners, describeCounts, reached, type ListenerTarget } from "../../../e2e/support/listeners";
import { done, html, page, pageServer, renderer } from "./support";

// A page that tries every way out it has, on its own and in a sandboxed frame, with no policy of
// its own to stop it, reaches no socket at all: not the proxy the renderer's browser is given (a
// listener sits on its port, on every address), not a loopback listener, and nothing of Chromium's
// own background services either.

/** Every way out a page has, aimed at `t`'s listeners by address and at names of `.leak.test`. */
function hostile(kind: "top" | "frame", t: ListenerTarget, hex: string): string {
  const name = (what: string) => `${kind}-${what}-${hex}.leak.test`;
  return `<!doctype html><html><head><title>hostile</title>
<meta http-equiv="refresh" content="1;url=https://${name("refresh")}:${t.tlsPort}/">
<link rel="dns-prefetch" href="https://${name("dns")}">
<link rel="preconnect" href="https://${name("preconnect")}:${t.tlsPort}">
<link rel="preconnect" href="http://127.0.0.1:${t.tcpPort}">
<link rel="prefetch" href="https://${name("prefetch")}:${t.tlsPort}/p">
<link rel="prefetch" href="http://127.0.0.1:${t.tcpPort}/prefetch">
<link rel="stylesheet" href="http://127.0.0.1:${t.tcpPort}/style.css">
<style>
@font-face { font-family: leak; src: url(https://${name("font")}:${t.tlsPort}/f.woff2); }
body { font-family: leak; background: url(http://127.0.0.1:${t.tcpPort}/background.png); }
p { background-image: url(https://${name("css")}:${t.tlsPort}/b.png); }
</style>
<script type="speculationrules">{"prefetch": [{"source": "list", "urls": ["https://${name("speculation")}:${t.tlsPort}/"]}]}</script>
</head><body><p>hostile</p>
<img src="https://${name("img")}:${t.tlsPort}/i.png"><img src="http://127.0.0.1:${t.tcpPort}/img">
<form id="f" action="https://${name("form")}:${t.tlsPort}/" method="post"><input name="x" value="1"></form>
<script>
const tries = [
  () => fetch("https://${name("fetch")}:${t.tlsPort}/"),
  () => fetch("http://127.0.0.1:${t.tcpPort}/fetch"),
  () => new WebSocket("wss://${name("ws")}:${t.tlsPort}/"),
  () => new WebSocket("ws://127.0.0.1:${t.tcpPort}/ws"),
  () => navigator.sendBeacon("https://${name("beacon")}:${t.tlsPort}/", "x"),
  () => new EventSource("http://127.0.0.1:${t.tcpPort}/events"),
  () => new Worker(URL.createObjectURL(new Blob(['fetch("https://${name("worker")}:${t.tlsPort}/")']))),
  () => {
    const pc = new RTCPeerConnection({ iceServers: [
      { urls: "stun:127.0.0.1:${t.udpPort}" },
      { urls: "stun:${name("stun")}:${t.udpPort}" },
      { urls: "turn:127.0.0.1:${t.tcpPort}?transport=tcp", username: "u", credential: "c" },
      { urls: "turn:${name("turn")}:${t.tcpPort}?transport=tcp", username: "u", credential: "c" },
    ] });
    pc.createDataChannel("x");
    pc.createOffer().then((o) => pc.setLocalDescription(o));
  },
  () => window.open("https://${name("open")}:${t.tlsPort}/"),
  () => { const i = document.createElement("iframe"); i.src = "https://${name("iframe")}:${t.tlsPort}/"; document.body.append(i); },
];
for (const t of tries) { try { Promise.resolve(t()).catch(() => {}); } catch {} }
setTimeout(() => { try { document.getElementById("f").submit(); } catch {} }, 300);
setTimeout(() => { location.href = "https://${name("navigate")}:${t.tlsPort}/"; }, 600);
setTimeout(() => { location.href = "http://127.0.0.1:${t.tcpPort}/navigate"; }, 900);
${kind === "top" ? `setTimeout(() => { ${done} }, 3000);` : ""}
</script></body></html>`;
}

describe("what the renderer draws, and its browser, reach", () => {
  const listeners = new LoopbackListeners();
  let target: ListenerTarget;
  /** A listener where the renderer's browser is told its proxy is: every connection to it is counted. */
  let proxy: net.Server;
  let proxyPort = 0;
  const proxied: string[] = [];
  let pages: Awaited<ReturnType<typeof pageServer>>;

  beforeAll(async () => {
    target = await listeners.target("renderer");
    proxy = net.createServer((socket) => {
      const at = proxied.push("(connected, nothing sent)") - 1;
      let first = "";
      socket.on("data", (d: Buffer) => {
        first += d.toString("latin1");
        proxied[at] = first.split("\r\n")[0] ?? "";
      });
      socket.on("error", () => {});
      setTimeout(() => socket.destroy(), 500);
    });
    // On every address: a connection to the proxy's port on any of them is heard.
    await new Promise<void>((resolve) => proxy.listen(0, "0.0.0.0", () => resolve()));
    proxyPort = (proxy.address() as net.AddressInfo).port;
    const hex = "6c65616b" + Date.now().toString(16);
    pages = await pageServer({
      "/quick": () => ({ body: html(`<p>quick</p><script>${done}</script>`) }),
      "/hostile": () => ({ body: hostile("top", target, hex) }),
      "/hostile-host": () => ({ body: html(`<p>host</p><iframe sandbox="allow-scripts allow-forms allow-popups" src="/hostile-frame"></iframe><script>setTimeout(() => { ${done} }, 3000);</script>`) }),
      "/hostile-frame": () => ({ body: hostile("frame", target, hex) }),
    });
  });
  afterAll(async () => {
    await listeners.close();
    await new Promise<void>((resolve) => proxy?.close(() => resolve()));
    await pages?.close();
  });

  it("lets nothing it draws, nor Chromium itself, reach a socket: no proxy, no listener, no name", async () => {
    const r = renderer(pages.origin, { proxyPort });
    try {
      for (const path of ["/hostile", "/hostile-host"]) {
        await r.render(page(path), "198.51.100.1").catch((err: unknown) => {
          // Drawn or not, all that matters here is what left it.
          if (!(err instanceof RenderTimeout)) throw err;
        });
      }
      // Chromium's own services start within seconds of its first page; the browser stays up a while.
      await r.render(page("/quick"), "198.51.100.1");
      await new Promise((resolve) => setTimeout(resolve, 4_000));
    } finally {
      await r.close();
    }
    // Silence is read once a canary sent after the renders has arrived at each listener.
    const token = `renderer-${Date.now()}`;
    const heard = listeners.canary("renderer", token);
    await new Promise<void>((resolve, reject) => {
      const s = net.connect(target.tcpPort, "127.0.0.1", () => s.write(`GET ${CANARY_PATH}${token} HTTP/1.1\r\nhost: x\r\n\r\n`));
      s.resume();
      s.on("close", () => resolve());
      s.on("error", reject);
    });
    await heard;
    const before = proxied.length;
    await new Promise<void>((resolve, reject) => {
      const s = net.connect(proxyPort, "127.0.0.1", () => s.end());
      s.on("close", () => resolve());
      s.on("error", reject);
    });
    await expect.poll(() => proxied.length).toBe(before + 1);
    proxied.pop();

    const counts = listeners.counts("renderer");
    expect(reached(counts), describeCounts(counts)).toBe(false);
    expect(proxied, "connections to the renderer's proxy").toEqual([]);
  }, 90_000);
});
