import "server-only";
import Before22 from "better-sqlite3";
import From22 from "better-sqlite3-node22";

/**
 * The SQLite driver for the Node running us. better-sqlite3 12 is written against V8's own API
 * and aborts Node 24 when a statement is collected (`Assertion failed: (env) != nullptr`, a change
 * in Node 24's object wrapping); 13 is written against Node-API and needs Node 22 or newer (on
 * Node 20 it crashes on the first open). Both load their addon only when a database is opened, so
 * importing both costs nothing, and both are one API.
 */
export const SQLite: typeof Before22 = Number(process.versions.node.split(".")[0]) >= 22 ? From22 : Before22;
