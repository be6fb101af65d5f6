// The SSE benchmark's baseline: a bare node:http server in a process of its own, as the app's
// server is. GET /events holds an event stream open; POST /send?id=N&bytes=B writes one frame
// of about B bytes to every open stream at once and answers 204. Asked over IPC, it reports its
// memory and open streams.
import http from "node:http";

const port = Number(process.argv[2] ?? 0);
const streams = new Set();

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://raw");
  if (req.method === "GET" && url.pathname === "/events") {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store" });
    res.write(": open\n\nid: 1\ndata: {}\n\n");
    streams.add(res);
    res.on("close", () => streams.delete(res));
    return;
  }
  if (req.method === "POST" && url.pathname === "/send") {
    req.resume();
    const id = Number(url.searchParams.get("id"));
    const bytes = Number(url.searchParams.get("bytes"));
    // One encoded frame for all, as the app's hub shares one per revision.
    const frame = Buffer.from(`id: ${id}\ndata: ${JSON.stringify({ pad: "x".repeat(Math.max(0, bytes - 20)) })}\n\n`);
    for (const s of streams) s.write(frame);
    res.writeHead(204).end();
    return;
  }
  res.writeHead(404).end();
});
server.listen(port, "127.0.0.1", () => process.send?.({ port: server.address().port }));
process.on("disconnect", () => process.exit(0));
// The benchmark asks for this process's memory after a full collection, as it does the app's,
// so the two figures are taken the same way (the parent forks this with --expose-gc).
process.on("message", (m) => {
  if (m?.memory) {
    globalThis.gc?.();
    process.send?.({ memory: process.memoryUsage(), streams: streams.size });
  }
});
