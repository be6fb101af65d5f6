// Run by scripts/start.mjs before the server starts, under the server's environment: the same
// validation the app applies (lib/config.ts), so a bad value ends `npm start` with its name
// and nothing listening. Exit 1 and one line on stderr when the configuration is refused.
import { configProblems } from "@/lib/config";

const problems = configProblems(process.env);
if (problems.length > 0) {
  process.stderr.write(`[start] invalid configuration: ${problems.join("; ")}\n`);
  process.exit(1);
}
