// Test stand-in for the organisation's identity provider: a real OpenID provider (oidc-provider)
// on loopback with one client and fixed accounts, so sign-in is tested against the protocol
// itself rather than a mock. Never deploy it. Run directly for end-to-end tests
// (PORT, OIDC_REDIRECT_URI) or import startProvider() in-process for integration tests.
import http from "node:http";
import { generateKeyPairSync } from "node:crypto";
import { fileURLToPath } from "node:url";
import Provider from "oidc-provider";

export const CLIENT_ID = "dashboards-e2e";
export const CLIENT_SECRET = "e2e-client-secret-not-for-production";

/** @typedef {{ email: string, name: string, groups: string[], emailVerified?: boolean }} Account */

/** @type {Account[]} */
export const defaultAccounts = [
  { email: "oidc-admin@example.test", name: "OIDC Admin", groups: ["admin", "cx"] },
  { email: "oidc-member@example.test", name: "OIDC Member", groups: [] },
];

const MAX_FORM_BYTES = 4096;

/**
 * @param {{ port: number, redirectUri: string, accounts?: Account[], claimsInIdToken?: boolean }} options
 *   claimsInIdToken: put profile, email and groups claims in the ID token too. By default the
 *   provider conforms to the spec and releases them only from userinfo, as many real ones do.
 * @returns {Promise<{ issuer: string, setGroups(email: string, groups: string[]): void, close(): Promise<void> }>}
 */
export async function startProvider({ port, redirectUri, accounts = defaultAccounts, claimsInIdToken = false }) {
  const host = "127.0.0.1";
  const server = http.createServer();
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve(undefined));
  });
  const address = server.address();
  const actualPort = typeof address === "object" && address ? address.port : port;
  const issuer = `http://${host}:${actualPort}`;

  /** @type {Map<string, Account>} */
  const byEmail = new Map(accounts.map((a) => [a.email, { ...a, groups: [...a.groups] }]));

  // A fresh signing key per start: relying parties fetch the JWKS, so nothing needs to persist.
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const signingKey = { ...privateKey.export({ format: "jwk" }), kid: "stand-in", alg: "RS256", use: "sig" };

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: [redirectUri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        // openid-client authenticates with client_secret_post when given a secret.
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    jwks: { keys: [signingKey] },
    cookies: { keys: ["stand-in-cookie-key-not-for-production"] },
    pkce: { required: () => true },
    claims: {
      openid: ["sub", "groups"],
      email: ["email", "email_verified"],
      profile: ["name"],
    },
    conformIdTokenClaims: !claimsInIdToken,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
    async findAccount(_ctx, sub) {
      const account = byEmail.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        async claims() {
          return {
            sub,
            email: account.email,
            email_verified: account.emailVerified ?? true,
            name: account.name,
            groups: [...account.groups],
          };
        },
      };
    },
    // The dashboards are a first-party client of this provider: consent is implied.
    async loadExistingGrant(ctx) {
      const oidc = ctx.oidc;
      const grantId = oidc.result?.consent?.grantId || oidc.session.grantIdFor(oidc.client.clientId);
      if (grantId) return oidc.provider.Grant.find(grantId);
      const grant = new oidc.provider.Grant({ clientId: oidc.client.clientId, accountId: oidc.session.accountId });
      grant.addOIDCScope([...oidc.requestParamScopes].join(" "));
      await grant.save();
      return grant;
    },
  });
  provider.on("server_error", (_ctx, err) => console.error("[oidc stand-in] server error:", err));

  const providerCallback = provider.callback();
  server.on("request", (req, res) => {
    const url = new URL(req.url ?? "/", issuer);
    const match = /^\/interaction\/([A-Za-z0-9_-]+)(\/login)?$/.exec(url.pathname);
    if (!match) {
      providerCallback(req, res);
      return;
    }
    const submitted = match[2] === "/login";
    interaction(provider, byEmail, req, res, submitted).catch((err) => {
      if (!res.headersSent) {
        res.statusCode = 400;
        res.setHeader("content-type", "text/plain; charset=utf-8");
      }
      res.end(`Sign-in could not continue: ${err instanceof Error ? err.name : "error"}. Start again from the application.`);
    });
  });

  return {
    issuer,
    setGroups(email, groups) {
      const account = byEmail.get(email);
      if (!account) throw new Error(`no stand-in account ${email}`);
      account.groups = [...groups];
    },
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve(undefined)));
      }),
  };
}

/**
 * @param {Provider} provider
 * @param {Map<string, Account>} accounts
 * @param {http.IncomingMessage} req
 * @param {http.ServerResponse} res
 * @param {boolean} submitted
 */
async function interaction(provider, accounts, req, res, submitted) {
  const details = await provider.interactionDetails(req, res);
  if (details.prompt.name !== "login") {
    // Consent is granted by loadExistingGrant; any other prompt has nothing to ask.
    await provider.interactionFinished(req, res, {}, { mergeWithLastSubmission: true });
    return;
  }
  if (!submitted || req.method !== "POST") {
    loginPage(res, details.uid);
    return;
  }
  const form = new URLSearchParams(await readBody(req));
  const login = (form.get("login") ?? "").trim().toLowerCase();
  if (!accounts.has(login)) {
    loginPage(res, details.uid, "No such account.");
    return;
  }
  await provider.interactionFinished(req, res, { login: { accountId: login } }, { mergeWithLastSubmission: false });
}

/** @param {http.ServerResponse} res @param {string} uid @param {string} [error] */
function loginPage(res, uid, error) {
  res.statusCode = error ? 401 : 200;
  res.setHeader("content-type", "text/html; charset=utf-8");
  res.setHeader("cache-control", "no-store");
  res.end(`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Stand-in identity provider</title></head>
<body>
<h1>Stand-in identity provider</h1>
${error ? `<p role="alert">${error}</p>` : ""}
<form method="post" action="/interaction/${uid}/login">
<label for="login">Email</label>
<input id="login" name="login" type="text" autocomplete="username" autofocus>
<button type="submit">Sign in</button>
</form>
</body>
</html>`);
}

/** @param {http.IncomingMessage} req @returns {Promise<string>} */
function readBody(req) {
  return new Promise((resolve, reject) => {
    let size = 0;
    /** @type {Buffer[]} */
    const chunks = [];
    req.on("data", (chunk) => {
      size += chunk.length;
      if (size > MAX_FORM_BYTES) {
        reject(new Error("form too large"));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const port = Number(process.env.PORT ?? 3199);
  const redirectUri = process.env.OIDC_REDIRECT_URI;
  if (!redirectUri) throw new Error("OIDC_REDIRECT_URI is required");
  const handle = await startProvider({ port, redirectUri });
  console.log(`[oidc stand-in] issuer ${handle.issuer}, redirect_uri ${redirectUri}`);
  for (const sig of ["SIGINT", "SIGTERM"]) {
    process.on(sig, () => {
      handle.close().finally(() => process.exit(0));
    });
  }
}
