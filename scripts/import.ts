// npm run import -- usage FILE | health FILE: loads product usage or health scores into the
// configured storage. The format follows the file's extension: .csv, or .ndjson / .jsonl with
// one JSON object per line. A file with any bad line loads nothing and names the lines.
// lib/ is `server-only`: run under the react-server condition (`tsx --conditions=react-server`,
// as the npm script does).
import fs from "node:fs";
import { config } from "@/lib/config";
import { openDb, type Db } from "@/lib/db";
import { formatOfFile, ImportError, loadHealth, loadUsage, parseHealthFile, parseUsageFile } from "@/lib/crm/sources-import";

const usage = `usage: npm run import -- usage FILE | health FILE   (FILE: .csv, .ndjson or .jsonl)
  usage   columns productSchoolId, weekStart (YYYY-MM-DD), activePersons
  health  columns companyId, date (YYYY-MM-DD), score (0-100, or blank/null)`;

const [kind, file, ...rest] = process.argv.slice(2).filter((a) => a !== "--");
if ((kind !== "usage" && kind !== "health") || !file || rest.length) {
  console.error(usage);
  process.exit(2);
}
const format = formatOfFile(file);
if (!format) {
  console.error(`${file}: cannot tell the format; name the file .csv, .ndjson or .jsonl`);
  process.exit(2);
}

let text: string;
try {
  text = fs.readFileSync(file, "utf8");
} catch (err) {
  console.error(`${file}: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(2);
}

// The whole file is parsed first: a bad line stops the import before storage is opened.
let load: (db: Db) => Promise<{ loaded: number; held: number }>;
try {
  if (kind === "usage") {
    const rows = parseUsageFile(text, format);
    load = (db) => loadUsage(db, rows);
  } else {
    const rows = parseHealthFile(text, format);
    load = (db) => loadHealth(db, rows);
  }
} catch (err) {
  if (err instanceof ImportError) {
    console.error(`${file}: nothing loaded; fix these lines:\n${err.message}`);
    process.exit(1);
  }
  throw err;
}

const open = await openDb(config().storage);
try {
  const result = await load(open.db);
  console.log(`${kind}: loaded ${result.loaded} rows from ${file} (${result.held} rows held in all)`);
} finally {
  await open.close();
}
