import dgram from "node:dgram";
import net from "node:net";

// Loopback listeners that count what reaches them at the socket level, for tests that check
// nothing leaves a page. An HTTP-only listener misses most channels: a navigation the browser
// then blocks still opens a TCP connection (no bytes), an https:// target sends a TLS
// ClientHello carrying the host name (SNI), and WebRTC sends UDP STUN binding requests whose
// USERNAME the page chose. So each target here is a set of raw sockets on 127.0.0.1:
//
// - tcp:   a TCP listener; records every connection and its bytes, parses an HTTP request line
//          (and answers it with a small 200, so a request is seen whole) or a TLS ClientHello;
// - tls:   a TCP listener meant as an https:// target; records connections and the SNI of a
//          ClientHello, then closes (no handshake is completed);
// - udp:   a UDP socket; records every datagram, and the USERNAME of STUN binding requests;
// - range: optionally, `portRange` consecutive TCP ports, recording which were connected to
//          (the port number alone can carry data).
//
// Use:
//   const listeners = new LoopbackListeners();
//   const t = await listeners.target("webrtc");        // its own ports: counts stay attributable
//   ... make a page aim at t.httpOrigin, t.tlsPort, t.udpPort, t.rangeBase ...
//   expect(listeners.counts("webrtc").udpDatagrams).toBe(0);
//   await listeners.close();
//
// Every target has its own ports, so several attacks can share a page and each count still
// belongs to one of them.
//
// Absence means something only once the listeners are known to hear what the browser sends
// after the page's attempts. A canary is that positive signal: a request the test has the
// browser send to a target's tcp port (GET /__canary/<token>), or a STUN binding request to its
// udp port whose USERNAME starts with CANARY_UFRAG. The listener records it apart, never in the
// counts, and `canary(name, token)` resolves once it has arrived:
//   await listeners.canary("webrtc", token);           // pending until the browser's request lands

/** What reached one target's sockets. */
export interface Counts {
  /** TCP connections accepted on the tcp, tls and range listeners together. */
  tcpConnections: number;
  /** TCP connections that sent no byte before closing (or so far). */
  emptyConnections: number;
  /** Bytes received over TCP, all listeners together. */
  tcpBytes: number;
  /** HTTP request lines ("GET /leak?s=… HTTP/1.1") received on any TCP listener. */
  httpRequests: string[];
  /** TLS ClientHellos received on any TCP listener. */
  tlsHellos: number;
  /** The server names (SNI) those ClientHellos carried. */
  sni: string[];
  /** UDP datagrams received. */
  udpDatagrams: number;
  /** UDP bytes received. */
  udpBytes: number;
  /** USERNAME attributes of STUN binding requests received. */
  stunUsernames: string[];
  /** Ports of the range that were connected to, in order of arrival (repeats kept). */
  rangePorts: number[];
}

/** The addresses one target listens on, all on 127.0.0.1. */
export interface ListenerTarget {
  name: string;
  host: "127.0.0.1";
  /** `http://127.0.0.1:<tcpPort>` */
  httpOrigin: string;
  /** `ws://127.0.0.1:<tcpPort>` */
  wsOrigin: string;
  tcpPort: number;
  tlsPort: number;
  udpPort: number;
  /** First port of the range, or 0 without one. */
  rangeBase: number;
  /** Number of ports in the range (0 without one). */
  rangeSize: number;
}

export interface TargetOptions {
  /** Consecutive TCP ports to listen on as well, for attacks that encode data in the port. */
  portRange?: number;
}

const HOST = "127.0.0.1";

/** Path prefix of a canary request to a tcp listener. */
export const CANARY_PATH = "/__canary/";
/** Remote ICE ufrag prefix of a canary peer connection: its STUN USERNAME starts with it. */
export const CANARY_UFRAG = "e2ecanary";

const emptyCounts = (): Counts => ({
  tcpConnections: 0,
  emptyConnections: 0,
  tcpBytes: 0,
  httpRequests: [],
  tlsHellos: 0,
  sni: [],
  udpDatagrams: 0,
  udpBytes: 0,
  stunUsernames: [],
  rangePorts: [],
});

/** Whether anything at all reached a target. */
export function reached(c: Counts): boolean {
  return c.tcpConnections > 0 || c.udpDatagrams > 0;
}

/** One line for a test's annotations or failure message. */
export function describeCounts(c: Counts): string {
  return [
    `${c.tcpConnections} TCP connection(s) (${c.emptyConnections} without a byte, ${c.tcpBytes} bytes)`,
    `${c.httpRequests.length} HTTP request(s)${c.httpRequests.length ? ` [${c.httpRequests.slice(0, 3).join(", ")}]` : ""}`,
    `${c.tlsHellos} TLS ClientHello(s)${c.sni.length ? ` SNI [${c.sni.slice(0, 3).join(", ")}]` : ""}`,
    `${c.udpDatagrams} UDP datagram(s) (${c.udpBytes} bytes)${c.stunUsernames.length ? ` STUN USERNAME [${c.stunUsernames.slice(0, 3).join(", ")}]` : ""}`,
    `${c.rangePorts.length} connection(s) to the port range`,
  ].join("; ");
}

export class LoopbackListeners {
  private readonly counts_ = new Map<string, Counts>();
  /** Canary tokens heard, by target name, and whoever waits for one. */
  private readonly canaries = new Map<string, Set<string>>();
  private readonly canaryWaiters = new Map<string, Map<string, () => void>>();
  private readonly servers: net.Server[] = [];
  private readonly udps: dgram.Socket[] = [];
  private readonly sockets = new Set<net.Socket>();

  /** Opens a new set of listeners for `name`; a name may be used once. */
  async target(name: string, options: TargetOptions = {}): Promise<ListenerTarget> {
    if (this.counts_.has(name)) throw new Error(`listener target "${name}" exists already`);
    const c = emptyCounts();
    this.counts_.set(name, c);
    const tcpPort = await this.listenTcp(name, c, "tcp", 0);
    const tlsPort = await this.listenTcp(name, c, "tls", 0);
    const udpPort = await this.listenUdp(name, c);
    const size = options.portRange ?? 0;
    const rangeBase = size > 0 ? await this.listenRange(name, c, size) : 0;
    return {
      name,
      host: HOST,
      httpOrigin: `http://${HOST}:${tcpPort}`,
      wsOrigin: `ws://${HOST}:${tcpPort}`,
      tcpPort,
      tlsPort,
      udpPort,
      rangeBase,
      rangeSize: size,
    };
  }

  /**
   * Resolves once the canary `token` has reached `name`'s tcp or udp listener (see the header).
   * Send it after asking for this promise, or at once: a canary heard earlier counts too.
   */
  canary(name: string, token: string): Promise<void> {
    if (!this.counts_.has(name)) throw new Error(`no listener target "${name}"`);
    if (this.canaries.get(name)?.has(token)) return Promise.resolve();
    return new Promise<void>((resolve) => {
      let waiting = this.canaryWaiters.get(name);
      if (!waiting) this.canaryWaiters.set(name, (waiting = new Map()));
      waiting.set(token, resolve);
    });
  }

  private heard(name: string, token: string): void {
    let seen = this.canaries.get(name);
    if (!seen) this.canaries.set(name, (seen = new Set()));
    seen.add(token);
    const resolve = this.canaryWaiters.get(name)?.get(token);
    if (resolve) {
      this.canaryWaiters.get(name)?.delete(token);
      resolve();
    }
  }

  /** What reached `name`'s sockets so far (a copy). */
  counts(name: string): Counts {
    const c = this.counts_.get(name);
    if (!c) throw new Error(`no listener target "${name}"`);
    return structuredClone(c);
  }

  /** Every target's counts, by name. */
  report(): Record<string, Counts> {
    return Object.fromEntries([...this.counts_].map(([k, v]) => [k, structuredClone(v)]));
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await Promise.all(this.servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
    await Promise.all(this.udps.map((u) => new Promise<void>((resolve) => u.close(() => resolve()))));
    this.servers.length = 0;
    this.udps.length = 0;
  }

  private server(name: string, c: Counts, kind: "tcp" | "tls" | "range"): net.Server {
    const server = net.createServer((socket) => {
      this.sockets.add(socket);
      c.tcpConnections++;
      if (kind === "range") c.rangePorts.push(socket.localPort ?? 0);
      let got = Buffer.alloc(0);
      let settled = false;
      let empty = true;
      let canary = false;
      c.emptyConnections++;
      socket.on("data", (chunk: Buffer) => {
        if (canary) return;
        if (empty) {
          empty = false;
          c.emptyConnections--;
        }
        c.tcpBytes += chunk.length;
        if (settled) return;
        got = Buffer.concat([got, chunk]);
        const first = got[0];
        if (first === 0x16) {
          // A TLS record: wait for the whole ClientHello, note its server name, hang up.
          const hello = clientHelloSni(got);
          if (hello === undefined && got.length < 16_384) return;
          settled = true;
          c.tlsHellos++;
          if (hello) c.sni.push(hello);
          socket.destroy();
          return;
        }
        const end = got.indexOf("\r\n");
        if (end === -1 && got.length < 8192) return;
        settled = true;
        const line = got.subarray(0, end === -1 ? 200 : end).toString("latin1");
        const token = kind === "tcp" ? canaryToken(line) : null;
        if (token !== null) {
          // The test's own request: taken out of the counts again, whole.
          canary = true;
          c.tcpConnections--;
          c.tcpBytes -= got.length;
          this.heard(name, token);
          socket.end("HTTP/1.1 204 No Content\r\naccess-control-allow-origin: *\r\nconnection: close\r\n\r\n");
          return;
        }
        if (/^[A-Z]+ \S+ HTTP\/\d/.test(line)) {
          c.httpRequests.push(line.replace(/ HTTP\/\d(\.\d)?$/, ""));
          if (kind !== "tls") {
            socket.end("HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\naccess-control-allow-origin: *\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok");
            return;
          }
        }
        socket.destroy();
      });
      socket.on("error", () => {});
      socket.on("close", () => this.sockets.delete(socket));
    });
    server.on("error", () => {});
    return server;
  }

  private listenTcp(name: string, c: Counts, kind: "tcp" | "tls" | "range", port: number): Promise<number> {
    const server = this.server(name, c, kind);
    return new Promise<number>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, HOST, () => {
        server.off("error", reject);
        this.servers.push(server);
        resolve((server.address() as net.AddressInfo).port);
      });
    });
  }

  private async listenRange(name: string, c: Counts, size: number): Promise<number> {
    // Consecutive free ports: pick a base, give up on it at the first port taken.
    for (let attempt = 0; attempt < 50; attempt++) {
      const base = 20_000 + Math.floor(Math.random() * (40_000 - size));
      const opened: net.Server[] = [];
      let ok = true;
      for (let p = base; p < base + size; p++) {
        try {
          await this.listenTcp(name, c, "range", p);
          const s = this.servers.pop();
          if (s) opened.push(s);
        } catch {
          ok = false;
          break;
        }
      }
      if (ok) {
        this.servers.push(...opened);
        return base;
      }
      await Promise.all(opened.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
    }
    throw new Error(`no ${size} consecutive free ports on ${HOST}`);
  }

  private listenUdp(name: string, c: Counts): Promise<number> {
    const socket = dgram.createSocket("udp4");
    socket.on("message", (msg) => {
      const user = stunUsername(msg);
      if (user?.startsWith(CANARY_UFRAG)) {
        // The test's own binding request: "<remote ufrag>:<local ufrag>", the remote one ours.
        this.heard(name, user.slice(CANARY_UFRAG.length).split(":")[0] ?? "");
        return;
      }
      c.udpDatagrams++;
      c.udpBytes += msg.length;
      if (user !== null) c.stunUsernames.push(user);
    });
    socket.on("error", () => {});
    return new Promise<number>((resolve) => {
      socket.bind(0, HOST, () => {
        this.udps.push(socket);
        resolve(socket.address().port);
      });
    });
  }
}

/** The token of a canary request line ("GET /__canary/<token> HTTP/1.1"), or null. */
function canaryToken(line: string): string | null {
  const m = /^GET (\S+) HTTP\/\d/.exec(line);
  return m?.[1]?.startsWith(CANARY_PATH) ? m[1].slice(CANARY_PATH.length) : null;
}

/**
 * The server name of a TLS ClientHello in `buf`: the name, "" when the hello has none, or
 * undefined while the hello is incomplete.
 */
export function clientHelloSni(buf: Buffer): string | undefined {
  // Record header: type 0x16, version (2), length (2); then handshake type 0x01, length (3).
  if (buf.length < 9) return undefined;
  const recordLength = buf.readUInt16BE(3);
  if (buf.length < 5 + recordLength) return undefined;
  if (buf[5] !== 0x01) return "";
  let p = 9 + 2 + 32; // handshake header, client version, random
  const skip = (lengthBytes: 1 | 2): boolean => {
    if (p + lengthBytes > buf.length) return false;
    const n = lengthBytes === 1 ? (buf[p] ?? 0) : buf.readUInt16BE(p);
    p += lengthBytes + n;
    return p <= buf.length;
  };
  if (!skip(1) || !skip(2) || !skip(1)) return ""; // session id, cipher suites, compression
  if (p + 2 > buf.length) return "";
  const end = Math.min(buf.length, p + 2 + buf.readUInt16BE(p));
  p += 2;
  while (p + 4 <= end) {
    const type = buf.readUInt16BE(p);
    const len = buf.readUInt16BE(p + 2);
    if (type === 0 && p + 9 <= end) {
      // server_name: list length (2), name type (1), name length (2), name
      const nameLength = buf.readUInt16BE(p + 7);
      return buf.subarray(p + 9, p + 9 + nameLength).toString("latin1");
    }
    p += 4 + len;
  }
  return "";
}

/** The USERNAME of a STUN binding request, or null when `msg` is not one. */
export function stunUsername(msg: Buffer): string | null {
  if (msg.length < 20 || msg.readUInt16BE(0) !== 0x0001 || msg.readUInt32BE(4) !== 0x2112a442) return null;
  let p = 20;
  while (p + 4 <= msg.length) {
    const type = msg.readUInt16BE(p);
    const len = msg.readUInt16BE(p + 2);
    if (type === 0x0006) return msg.subarray(p + 4, p + 4 + len).toString("utf8");
    p += 4 + len + ((4 - (len % 4)) % 4);
  }
  return "";
}

/** Hex pairs back to text, where a run of them decodes as UTF-8 (what a leak encodes names with). */
function unhex(s: string): string[] {
  return [...s.matchAll(/(?:[0-9a-f]{2}){2,}/gi)].map((m) => Buffer.from(m[0], "hex").toString("latin1"));
}

/**
 * Everything that reached a target, decoded as a leak would have encoded it: each TLS server name
 * (its labels joined and hex-decoded), each HTTP request line (percent-decoded, and its hex
 * runs), each STUN USERNAME (and its hex runs). What a test searches for a secret in.
 */
export function heard(c: Counts): string[] {
  const out: string[] = [];
  for (const name of c.sni) {
    out.push(name, ...unhex(name.split(".").join("")), ...name.split(".").flatMap(unhex));
  }
  for (const line of c.httpRequests) {
    let decoded = line;
    try {
      decoded = decodeURIComponent(line);
    } catch {
      // Left as sent.
    }
    out.push(line, decoded, ...unhex(line));
  }
  for (const user of c.stunUsernames) out.push(user, ...unhex(user));
  return out;
}
