// A move in a process of its own that kills itself with SIGKILL once `table` has `rows` rows
// copied, inside that table's transaction: what a crash or an operator's kill -9 leaves behind.
// node --import tsx --conditions=react-server move-child.ts <sqlite file> <pg url> <schema> <table> <rows>
import { moveDatabase } from "@/lib/db/move";

const [file, url, schema, table, rows] = process.argv.slice(2);
await moveDatabase({
  from: { kind: "sqlite", file: file! },
  to: { kind: "postgres", url: url!, schema: schema! },
  pageSize: 500,
  progress: (t, done) => {
    if (t === table && done >= Number(rows)) {
      console.log(`killing at ${t} ${done}`);
      process.kill(process.pid, "SIGKILL");
    }
  },
});
console.log("the move finished before the kill");
