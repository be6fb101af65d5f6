// What the benchmark loads. Each target is compared with the baseline route measured on the
// same server, in the same run and build. `as` names the demo user whose session is used;
// `server` names a server configuration (below). A `path` may be a function that works the
// path out from the running server (e.g. the largest book's owner).

export const servers = {
  default: {},
  // Every vendor read goes upstream (to the stand-in, over loopback HTTP): no cache.
  "vendor-cold": { CONNECTOR_CACHE_FRESH_MS: "0", CONNECTOR_CACHE_STALE_MS: "0" },
  // The demo tenant at ten times its size, for the CRM and CX views.
  scale10: { DEMO_SCALE: "10" },
};

/** The owner with the most schools, from the server's own book sizes. */
async function largestBook(getJson) {
  const owners = await getJson("/api/cx/owners");
  let best = null;
  for (const o of owners.data.owners) {
    const book = await getJson(`/api/cx/book?owner=${o.ownerId}`);
    if (!best || book.data.rows.length > best.rows) best = { owner: o.ownerId, rows: book.data.rows.length };
  }
  // An explicit window makes a query the server has not answered yet, so the first answer is computed.
  return `/api/cx/book?owner=${best.owner}&days=30`;
}

export const targets = [
  { name: "me", path: "/api/me", as: "csm@demo.test", server: "default" },
  { name: "tracker warm", path: "/api/vendors/tracker/issues", as: "csm@demo.test", server: "default" },
  { name: "calls warm", path: "/api/vendors/calls/calls/detailed", as: "csm@demo.test", server: "default" },
  { name: "tracker cold", path: "/api/vendors/tracker/issues", as: "csm@demo.test", server: "vendor-cold" },
  { name: "calls cold", path: "/api/vendors/calls/calls/detailed", as: "csm@demo.test", server: "vendor-cold" },
  { name: "crm companies 200", path: "/api/crm/customers/companies?limit=200", as: "csm@demo.test", server: "scale10" },
  { name: "cx book largest", path: largestBook, as: "admin@demo.test", server: "scale10" },
  { name: "cx districts", path: "/api/cx/districts", as: "admin@demo.test", server: "scale10" },
];
