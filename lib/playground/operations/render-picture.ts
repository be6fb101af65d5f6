import "server-only";
import { oneParam } from "@/lib/http/edge";
import { playgroundOperation } from "./operation";

export const renderPicture = playgroundOperation({
  op: "playground.renderPicture",
  route: "renderPicture",
  mount: { refuse: "A render's picture is read with GET.", params: (raw) => ({ token: oneParam(raw, "token"), file: oneParam(raw, "file") }) },
  method: (on, { playground, stages }) =>
    on({
      limit: async (request) => (await stages()).spend("reads", request),
      handle: async ({ request, params }) => {
        const p = await playground();
        const { png, etag } = await p.renders.picture(params.token, params.file, p.stages.address(request));
        const headers = { "content-type": "image/png", "cache-control": "public, max-age=31536000, immutable", etag, "content-length": String(png.byteLength) };
        if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
        return new Response(request.method === "HEAD" ? null : new Uint8Array(png), { headers });
      },
    }),
});
