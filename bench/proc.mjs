// CPU time by process, read off /proc: what the scale and broker benchmarks charge each part of
// the stack for a load (Linux only).
import fs from "node:fs";

const TICK_MS = 10; // USER_HZ: /proc's CPU times are in hundredths of a second on Linux

/** Every process's parent, name and CPU time (ms), from /proc. */
export function processes() {
  const out = new Map();
  for (const pid of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    let stat;
    try {
      stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue; // gone meanwhile
    }
    // "pid (comm) state ppid …": comm may hold spaces and parentheses, so split after the last ")".
    const close = stat.lastIndexOf(")");
    const comm = stat.slice(stat.indexOf("(") + 1, close);
    const f = stat.slice(close + 2).split(" ");
    // utime + stime, and cutime + cstime: the children it has reaped, so that a PostgreSQL backend
    // that ends during a load still counts (in the postmaster's figure).
    out.set(Number(pid), { comm, ppid: Number(f[1]), cpuMs: (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * TICK_MS });
  }
  return out;
}

/** CPU ms so far of every process named `comm`, with the children each has reaped. */
export function cpuOf(comm) {
  let ms = 0;
  for (const p of processes().values()) if (p.comm === comm) ms += p.cpuMs;
  return ms;
}
