// better-sqlite3 13 under the name package.json installs it as (lib/db/sqlite-driver.ts); its
// API is 12's, so 12's published types describe it.
declare module "better-sqlite3-node22" {
  import Database from "better-sqlite3";
  export = Database;
}
