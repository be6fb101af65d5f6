// What the page showing an inert document must do, written once so the document, the page's frame
// and the response headers say the same thing.
//
// The document has no script and no address but `data:` images; these make sure that even a
// mistake in it could not act: the frame runs nothing and starts no request, and the document's
// own policy refuses every fetch but inline styles and `data:` images.

/** The inert document's policy, carried in its own `<meta http-equiv="Content-Security-Policy">`. */
export const INERT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src 'none'; form-action 'none'; base-uri 'none'";

/**
 * The `Content-Security-Policy` header for a response that serves an inert document by address:
 * the same policy, sandboxed even when opened outside its frame, and framed only by this site.
 */
export const INERT_FRAME_CSP = `${INERT_CSP}; sandbox; frame-ancestors 'self'`;

/**
 * The frame's attributes, as React props: `sandbox` present and empty (no scripts, forms, popups,
 * top navigation or same origin), and no referrer.
 */
export const INERT_FRAME_ATTRIBUTES = { sandbox: "", referrerPolicy: "no-referrer" } as const;

/**
 * The safe view's frame: the same, but a link kept in the document (an `<a target="_blank">` to a
 * URL the drawing's answers named, see lib/frame/links.ts) may open a tab, which is a page of its
 * own rather than sandboxed like this one. The document runs no script, so only a person's click
 * on such a link opens anything.
 */
export const INERT_LINKED_FRAME_ATTRIBUTES = { sandbox: "allow-popups allow-popups-to-escape-sandbox", referrerPolicy: "no-referrer" } as const;
