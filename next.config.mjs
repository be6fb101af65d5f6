/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Draft update URLs carry a write token; the development server must not print them.
  logging: { incomingRequests: { ignore: [/\/dashboards\/playground\/draft\//] } },
  // Native and Node-only drivers stay outside the server bundle.
  serverExternalPackages: ["better-sqlite3", "better-sqlite3-node22", "pg", "openid-client", "prom-client", "playwright-core"],
  typescript: { ignoreBuildErrors: true },
  // proxy.ts handles trailing slashes itself: a JSON route serves the address without it, a page
  // redirects there (lib/http/edge.ts).
  skipTrailingSlashRedirect: true,
  // Agents asking for Markdown get the reference as Markdown at the same address. /docs/<x>.md is
  // served by app/docs/md/[name]: /docs/<section> is the section's page, and one segment cannot
  // hold both a page and a route handler.
  async rewrites() {
    const wantsMarkdown = [{ type: "header", key: "accept", value: ".*text/markdown.*" }];
    return {
      beforeFiles: [
        { source: "/docs", has: wantsMarkdown, destination: "/docs/md/index" },
        { source: "/docs/:section([a-z-]+)", has: wantsMarkdown, destination: "/docs/md/:section" },
        { source: "/docs/:name([a-z0-9-]+).md", destination: "/docs/md/:name" },
      ],
    };
  },
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "Referrer-Policy", value: "no-referrer" },
          { key: "X-Content-Type-Options", value: "nosniff" },
        ],
      },
      {
        // Our own pages are never framed by anyone (clickjacking); the dashboard frame's document
        // is the one exception, and it sends its own sandboxing policy. No Content-Security-Policy
        // here: a header set here replaces the one a route sends itself. proxy.ts sends the page
        // policy (frame-ancestors 'none' among it) where the route has none of its own.
        source: "/((?!dashboards/frame$).*)",
        headers: [{ key: "X-Frame-Options", value: "DENY" }],
      },
    ];
  },
};

export default nextConfig;
