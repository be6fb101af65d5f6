// What the benchmark loads. Each target is compared with the baseline route measured on the
// same server, in the same run and build. `as` names the demo user whose session is used;
// `server` names a server configuration (below), so cold and warm caches are measured apart.

export const servers = {
  default: {},
  // Every vendor read goes upstream (to the stand-in, over loopback HTTP): no cache.
  "vendor-cold": { CONNECTOR_CACHE_FRESH_MS: "0", CONNECTOR_CACHE_STALE_MS: "0" },
};

export const targets = [
  { name: "me", path: "/api/me", as: "csm@demo.test", server: "default" },
  { name: "tracker warm", path: "/api/vendors/tracker/issues", as: "csm@demo.test", server: "default" },
  { name: "calls warm", path: "/api/vendors/calls/calls/detailed", as: "csm@demo.test", server: "default" },
  { name: "tracker cold", path: "/api/vendors/tracker/issues", as: "csm@demo.test", server: "vendor-cold" },
  { name: "calls cold", path: "/api/vendors/calls/calls/detailed", as: "csm@demo.test", server: "vendor-cold" },
];
