import fs from "node:fs";
import { randomBytes } from "node:crypto";
import { chromium, type Browser } from "playwright-core";

// The renderer's one browser: which Chromium, the switches that keep it from reaching anything but
// the server, and its start, forced stop and restart past the memory ceiling.

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome", "/usr/bin/google-chrome-stable"];

/** The Chromium to use: the configured path, the first candidate that exists for `auto`, or null. */
export function findChromium(setting: string): string | null {
  if (setting === "off") return null;
  const paths = setting === "auto" ? CANDIDATES : [setting];
  return paths.find((p) => {
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  }) ?? null;
}

/** Bytes of resident memory of a process and every process under it (Linux /proc; 0 elsewhere). */
function treeRss(root: number): number {
  let entries: string[];
  try {
    entries = fs.readdirSync("/proc").filter((e) => /^\d+$/.test(e));
  } catch {
    return 0;
  }
  const parent = new Map<number, number>();
  const rss = new Map<number, number>();
  for (const e of entries) {
    try {
      const stat = fs.readFileSync(`/proc/${e}/stat`, "utf8");
      // Fields after the command (which may hold spaces and parentheses): state, ppid, …, rss (24th).
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      parent.set(Number(e), Number(fields[1]));
      rss.set(Number(e), Number(fields[21]) * 4096);
    } catch {
      // The process ended while being read.
    }
  }
  let total = 0;
  for (const [pid, bytes] of rss) {
    for (let p: number | undefined = pid; p !== undefined && p > 1; p = parent.get(p)) {
      if (p === root) {
        total += bytes;
        break;
      }
    }
  }
  return total;
}

/**
 * Chromium reads one --disable-features, the last it is given: this list replaces the one
 * Playwright passes, so it carries Playwright's own (the first line) as well as the renderer's.
 */
const DISABLED_FEATURES = [
  ...["AvoidUnnecessaryBeforeUnloadCheckSync", "DestroyProfileOnBrowserClose", "HttpsUpgrades", "HttpsFirstBalancedModeAutoEnable", "LensOverlay", "MediaRouter", "PaintHolding", "ThirdPartyStoragePartitioning", "AvoidCorsURLLoaderRestartOnRedirect", "OptimizationHints", "NetworkTimeServiceQuerying", "AimEnabled", "PreconnectToSearch"],
  // The address bar's popups are pages of their own, started for every context: a render paid
  // about 0.8 s of CPU for a popup a headless browser never shows.
  "WebUIOmniboxPopup",
  "WebUIOmniboxAimPopup",
  // Services that call out on their own once a page has loaded (with a listener on the proxy:
  // form classification at content-autofill.googleapis.com on every page; Playwright's list above,
  // which the renderer had been replacing, stops network time and optimization hints), model
  // downloads, and the casting and translation services that would look for devices or servers.
  "AutofillServerCommunication",
  "OptimizationGuideModelDownloading",
  "OptimizationHintsFetching",
  "OptimizationTargetPrediction",
  "DialMediaRouteProvider",
  "CastMediaRouteProvider",
  "GlobalMediaControls",
  "Translate",
  "CertificateTransparencyComponentUpdater",
  "InterestFeedContentSuggestions",
];

/**
 * The proxy every request not for the server is sent to. 0.0.0.0 is an address the resolver rules
 * below turn into nothing, so a connection to it fails inside the browser: no DNS query, no socket,
 * and the name a page chose (which a proxy's CONNECT line would carry) never leaves. Were the
 * rules to stop applying to it, a connection to 0.0.0.0 would arrive at this machine's listener on
 * that port, where the renderer's test listens.
 */
const DEAD_PROXY_HOST = "0.0.0.0";
/** The discard port: nothing is expected to listen there. */
const DEAD_PROXY_PORT = 9;

function argsFor(origin: string, proxyPort: number): string[] {
  const { host, hostname } = new URL(origin);
  return [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    // The browser's own traffic: background fetches, component updates, sync, extensions and their
    // updates, error reports, network-error reports, hyperlink auditing pings.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--disable-default-apps",
    "--disable-domain-reliability",
    "--no-pings",
    "--no-first-run",
    "--disable-quic",
    "--mute-audio",
    `--disable-features=${DISABLED_FEATURES.join(",")}`,
    // No name resolves: the server is reached by its address, and a dashboard's names go nowhere.
    `--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE ${hostname}`,
    // Anything not for the server goes to the dead proxy (loopback included, which Chromium would
    // otherwise reach directly): what no interception catches first — a WebSocket, a TURN server
    // over TCP, the connection Chromium opens ahead of a navigation it will never send, the two
    // calls of Chromium's own no switch here stops (its account list at accounts.google.com, the
    // on-device models' manifest from the component updater) — fails there, inside the browser.
    // WebRTC may send no UDP but through that proxy, which is none.
    `--proxy-server=http://${DEAD_PROXY_HOST}:${proxyPort}`,
    `--proxy-bypass-list=<-loopback>;${host}`,
    "--webrtc-ip-handling-policy=disable_non_proxied_udp",
  ];
}

/** The browser process started with `marker` among its arguments (Linux /proc), or null. */
function pidWithArgument(marker: string): number | null {
  try {
    for (const e of fs.readdirSync("/proc")) {
      if (!/^\d+$/.test(e)) continue;
      try {
        if (fs.readFileSync(`/proc/${e}/cmdline`, "utf8").split("\0").includes(marker)) return Number(e);
      } catch {
        // The process ended while being read.
      }
    }
  } catch {
    // No /proc: the memory ceiling and the forced stop are not available here.
  }
  return null;
}

interface BrowserOptions {
  executablePath: string;
  origin: string;
  env: Record<string, string>;
  proxyPort?: number;
  memoryBytes: number;
  log?: (line: string) => void;
}

/** The browser the renderer's pages are opened in: started when first needed and after it died. */
export class RendererBrowser {
  /** The running browser and its process id (found by the marker it was started with). */
  private current: { browser: Browser; pid: number | null } | null = null;
  private browser: Promise<Browser> | null = null;

  constructor(private readonly o: BrowserOptions) {}

  /**
   * The browser, started when there is none; restarted first when it grew past the memory ceiling
   * and `alone` (no other render is drawing in it).
   */
  async forRender(alone: boolean): Promise<Browser> {
    const pid = this.current?.pid;
    if (pid && alone && treeRss(pid) > this.o.memoryBytes) {
      this.o.log?.(`the renderer's browser uses more than ${Math.round(this.o.memoryBytes / 1048576)} MiB; restarting it`);
      await this.stop();
    }
    this.browser ??= this.launch().catch((err: unknown) => {
      this.browser = null;
      throw err;
    });
    return this.browser;
  }

  async stop(): Promise<void> {
    const current = this.current;
    this.current = null;
    this.browser = null;
    if (!current) return;
    await Promise.race([current.browser.close(), new Promise((r) => setTimeout(r, 3_000))]).catch(() => {});
    if (current.pid) {
      try {
        process.kill(current.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
  }

  private async launch(): Promise<Browser> {
    // Chromium ignores a switch it does not know: this one names the process, for its memory and a forced stop.
    const marker = `--dashboards-renderer=${randomBytes(8).toString("hex")}`;
    const browser = await chromium.launch({
      executablePath: this.o.executablePath,
      args: [...argsFor(this.o.origin, this.o.proxyPort ?? DEAD_PROXY_PORT), marker],
      env: this.o.env,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    const current = { browser, pid: pidWithArgument(marker) };
    this.current = current;
    // A browser that crashed is started again for the next render.
    browser.on("disconnected", () => {
      if (this.current === current) {
        this.current = null;
        this.browser = null;
      }
    });
    return browser;
  }
}
