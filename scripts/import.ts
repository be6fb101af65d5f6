// npm run import -- usage FILE | health FILE: loads product usage or health scores into the
// configured storage. The format follows the file's extension: .csv, or .ndjson / .jsonl with
// one JSON object per line. A file with any bad line loads nothing and names the lines; a line
// over 64 KiB is one, and is not read further.
// lib/ is `server-only`: run under the react-server condition (`tsx --conditions=react-server`,
// as the npm script does).
import { config } from "@/lib/config";
import { openDb, type Db } from "@/lib/db";
import { formatOfFile, ImportError, loadHealth, loadUsage, readHealthFile, readUsageFile } from "@/lib/crm/sources-import";

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

// The whole file is read and checked first, a line at a time: a bad line stops the import
// before storage is opened.
let load: (db: Db) => Promise<{ loaded: number; held: number }>;
try {
  if (kind === "usage") {
    const rows = await readUsageFile(file, format);
    load = (db) => loadUsage(db, rows);
  } else {
    const rows = await readHealthFile(file, format);
    load = (db) => loadHealth(db, rows);
  }
} catch (err) {
  if (err instanceof ImportError) {
    console.error(`${file}: nothing loaded; fix these lines:\n${err.message}`);
    process.exit(1);
  }
  // The file could not be read (missing, a folder, not permitted): say so as the system did.
  if (err instanceof Error && "code" in err) {
    console.error(`${file}: ${err.message}`);
    process.exit(2);
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
