import type { Page } from "@playwright/test";

// Page objects for /connections and the stand-in vendor consent page it sends people to.

export type ConnectorCardSlug = "tracker" | "coderepo" | "calls" | "support" | "crmportal";

export class ConnectionsPage {
  constructor(private readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.goto("/connections");
  }

  heading() {
    return this.page.getByRole("heading", { level: 1, name: "Connections" });
  }

  signInLink() {
    return this.page.getByRole("main").getByRole("link", { name: "Sign in" });
  }

  card(slug: ConnectorCardSlug) {
    return this.page.getByTestId(`connector-${slug}`);
  }

  /** "Connected" or "Not connected": what the server knows about the person's own credential. */
  connectionState(slug: ConnectorCardSlug) {
    return this.card(slug).getByTestId("connection-state");
  }

  /** The live check region; its `data-state` is the check's status once the answer arrives. */
  liveStatus(slug: ConnectorCardSlug) {
    return this.card(slug).getByTestId("live-status");
  }

  outcome() {
    return this.page.getByTestId("outcome");
  }

  connectButton(slug: ConnectorCardSlug) {
    return this.card(slug).getByRole("button", { name: /^Connect\b/ });
  }

  reconnectButton(slug: ConnectorCardSlug) {
    return this.card(slug).getByRole("button", { name: /^Reconnect\b/ });
  }

  disconnectButton(slug: ConnectorCardSlug) {
    return this.card(slug).getByRole("button", { name: /^Disconnect\b/ });
  }

  async connect(slug: ConnectorCardSlug): Promise<void> {
    await this.connectButton(slug).click();
  }

  /** The question asked before a stored credential is deleted. */
  confirmDialog() {
    return this.page.getByRole("dialog");
  }

  /** Disconnects and answers the confirmation that follows. */
  async disconnect(slug: ConnectorCardSlug): Promise<void> {
    await this.disconnectButton(slug).click();
    await this.confirmDialog().getByRole("button", { name: "Disconnect", exact: true }).click();
  }

  callsOptInSwitch() {
    return this.card("calls").getByRole("switch", { name: "Read call recordings" });
  }

  donorState() {
    return this.card("calls").getByTestId("donor-state");
  }

  donorControls() {
    return this.card("calls").getByTestId("donor-controls");
  }
}

export class ConsentPage {
  constructor(private readonly page: Page) {}

  /** The account access is granted to: always the signed-in person's own. */
  account() {
    return this.page.getByTestId("consent-account");
  }

  async authorize(): Promise<void> {
    await this.page.getByRole("button", { name: "Authorize" }).click();
  }

  async cancel(): Promise<void> {
    await this.page.getByRole("button", { name: "Cancel" }).click();
  }
}
