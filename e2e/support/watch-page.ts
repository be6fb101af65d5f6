import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { ConsentGatePage } from "./consent";

// Page objects for the playground's watch page, and the agent side that feeds it drafts.

export interface CreatedDraft {
  id: string;
  postUrl: string;
  watchUrl: string;
  eventsUrl: string;
  revision: number;
}

/**
 * An agent's calls come seconds apart, about as long as the server keeps an idle connection: a
 * reused one can be closed by the server just as the next request goes out (ECONNRESET). An
 * agent that hangs up after each call, as these do, never meets that race.
 */
const ONE_SHOT = { connection: "close" };

export class DraftAuthor {
  constructor(private readonly request: APIRequestContext) {}

  async create(html: string, extra: Record<string, unknown> = {}): Promise<CreatedDraft> {
    const res = await this.request.post("/dashboards/playground/draft", { data: { html, ...extra }, headers: ONE_SHOT });
    if (res.status() !== 201) throw new Error(`draft creation answered ${res.status()}: ${await res.text()}`);
    return (await res.json()) as CreatedDraft;
  }

  async update(draft: CreatedDraft, html: string): Promise<number> {
    const res = await this.request.post(new URL(draft.postUrl).pathname, { data: { html }, headers: ONE_SHOT });
    if (res.status() !== 200) throw new Error(`draft update answered ${res.status()}: ${await res.text()}`);
    return ((await res.json()) as { revision: number }).revision;
  }

  /** The draft's render reports, as an agent reads them (`revision`: the current one when left out). */
  async reports(draft: CreatedDraft, revision?: number): Promise<{ status: number; body: unknown }> {
    const query = revision === undefined ? "" : `?revision=${revision}`;
    const res = await this.request.get(`/dashboards/playground/draft/${draft.id}/reports${query}`, { headers: ONE_SHOT });
    return { status: res.status(), body: await res.json() };
  }

  async current(draft: CreatedDraft): Promise<{ revision: number; html: string }> {
    return (await (await this.request.get(`/dashboards/playground/draft/${draft.id}`, { headers: ONE_SHOT })).json()) as { revision: number; html: string };
  }
}

export class WatchPage {
  constructor(private readonly page: Page) {}

  async open(watchUrl: string): Promise<void> {
    await this.page.goto(new URL(watchUrl).pathname);
  }

  /** The screenshot-friendly render: the current revision once, no stream. */
  async openStatic(watchUrl: string): Promise<void> {
    await this.page.goto(`${new URL(watchUrl).pathname}?static=1`);
  }

  /** What the page says about how the current revision rendered. */
  renderReport() {
    return this.page.getByTestId("render-report");
  }

  heading() {
    return this.page.getByRole("heading", { level: 1 });
  }

  /** The dashboard's own document, inside the sandboxed frame. */
  dashboard() {
    return this.page.frameLocator('[data-testid="dashboard-frame"]');
  }

  frameElement() {
    return this.page.getByTestId("dashboard-frame");
  }

  connectionState() {
    return this.page.getByTestId("connection-state");
  }

  provenance() {
    return this.page.getByTestId("provenance");
  }

  revision() {
    return this.page.getByTestId("revision");
  }

  notFound() {
    return this.page.getByTestId("watch-not-found");
  }

  async openRequestLog(): Promise<void> {
    const log = this.page.getByTestId("request-log");
    if (!(await log.evaluate((d) => (d as HTMLDetailsElement).open))) await log.locator("summary").click();
  }

  /**
   * Opens the request log and waits for an entry to show in it. A click that lands while the page
   * is still drawing the log can find it replaced and closed again, so it is opened until the
   * entry is seen.
   */
  async expectLoggedRequest(path: string, status: string): Promise<void> {
    const entry = this.requestLogEntries().filter({ hasText: path }).filter({ hasText: status }).first();
    await expect(async () => {
      await this.openRequestLog();
      await expect(entry).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 10_000 });
  }

  requestLogEntries() {
    return this.page.getByTestId("request-log-entry");
  }

  /**
   * The viewer's consent to run the dashboard on their own (live) data. No page asks for it
   * yet; once a consent gate exists, its button carries this test id and live-mode tests go
   * through here. A no-op while there is no such button.
   */
  /** The safe view: a stranger's live draft drawn by the site on the signed-in viewer's data. */
  safeView() {
    return this.page.getByTestId("safe-view");
  }

  /** The drawn document, in its frame that runs no script. */
  drawn() {
    return this.page.frameLocator('[data-testid="safe-view-frame"]');
  }

  /** From the safe view to today's interactive view: the consent gate. */
  async makeInteractive(): Promise<void> {
    await this.page.getByTestId("make-interactive").click();
  }

  /** Answers the consent gate a live draft shows a signed-in viewer, once made interactive. */
  async runWithMyData(): Promise<void> {
    await new ConsentGatePage(this.page).runWithMyData();
  }

  /** What the page says above the frame while the dashboard shows its embedded snapshot. */
  snapshotNotice() {
    return this.page.getByTestId("snapshot-notice");
  }
}
