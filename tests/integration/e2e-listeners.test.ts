import dgram from "node:dgram";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { CANARY_PATH, CANARY_UFRAG, LoopbackListeners, reached } from "../../e2e/support/listeners";

// The end-to-end leak listeners read absence only after a canary arrived: a canary must never be
// counted, and must never hide what arrives beside it.

function httpGet(port: number, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(`GET ${path} HTTP/1.1\r\nhost: x\r\n\r\n`));
    let got = "";
    socket.on("data", (d) => (got += d.toString("latin1")));
    socket.on("end", () => resolve(got));
    socket.on("close", () => resolve(got));
    socket.on("error", reject);
  });
}

/** A STUN binding request with USERNAME `user`. */
function stunRequest(user: string): Buffer {
  const name = Buffer.from(user, "utf8");
  const padded = Buffer.alloc(Math.ceil(name.length / 4) * 4);
  name.copy(padded);
  const attr = Buffer.alloc(4);
  attr.writeUInt16BE(0x0006, 0);
  attr.writeUInt16BE(name.length, 2);
  const header = Buffer.alloc(20);
  header.writeUInt16BE(0x0001, 0);
  header.writeUInt16BE(4 + padded.length, 2);
  header.writeUInt32BE(0x2112a442, 4);
  return Buffer.concat([header, attr, padded]);
}

function sendUdp(port: number, msg: Buffer): Promise<void> {
  const s = dgram.createSocket("udp4");
  return new Promise((resolve, reject) => s.send(msg, port, "127.0.0.1", (e) => (s.close(), e ? reject(e) : resolve())));
}

describe("leak listeners' canaries", () => {
  let listeners: LoopbackListeners;
  afterEach(async () => {
    await listeners.close();
  });

  it("hear a tcp canary apart from the counts, and still count a request beside it", async () => {
    listeners = new LoopbackListeners();
    const t = await listeners.target("t");
    const heard = listeners.canary("t", "abc");
    expect(await httpGet(t.tcpPort, `${CANARY_PATH}abc`)).toMatch(/^HTTP\/1\.1 204/);
    await heard;
    expect(listeners.counts("t")).toMatchObject({ tcpConnections: 0, emptyConnections: 0, tcpBytes: 0, httpRequests: [] });

    await httpGet(t.tcpPort, "/leak?s=x");
    expect(listeners.counts("t")).toMatchObject({ tcpConnections: 1, httpRequests: ["GET /leak?s=x"] });
    // A canary to the tls listener is not one: it counts like anything else.
    await httpGet(t.tlsPort, `${CANARY_PATH}def`);
    expect(listeners.counts("t").tcpConnections).toBe(2);
    expect(listeners.counts("t").httpRequests).toEqual(["GET /leak?s=x", `GET ${CANARY_PATH}def`]);
  });

  it("hear a STUN canary by its USERNAME and count every other datagram", async () => {
    listeners = new LoopbackListeners();
    const t = await listeners.target("u");
    const heard = listeners.canary("u", "tok1");
    await sendUdp(t.udpPort, stunRequest(`${CANARY_UFRAG}tok1:local`));
    await heard;
    expect(listeners.counts("u")).toMatchObject({ udpDatagrams: 0, udpBytes: 0, stunUsernames: [] });

    await sendUdp(t.udpPort, stunRequest("6164:local"));
    await expect.poll(() => listeners.counts("u").udpDatagrams).toBe(1);
    expect(listeners.counts("u").stunUsernames).toEqual(["6164:local"]);
  });

  it("resolve for a canary heard before it was waited for", async () => {
    listeners = new LoopbackListeners();
    const t = await listeners.target("v");
    await httpGet(t.tcpPort, `${CANARY_PATH}early`);
    await listeners.canary("v", "early");
    expect(reached(listeners.counts("v"))).toBe(false);
  });
});
