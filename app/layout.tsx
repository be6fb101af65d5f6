import type { Metadata } from "next";
import { IntentLink } from "@/components/ui/IntentLink";
import { NarrowMenu } from "@/components/ui/NarrowMenu";
import type { ReactNode } from "react";
import { currentUser } from "@/lib/root/current";
import { app } from "@/lib/root";
import { homeOf } from "@/lib/auth/users";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Dashboards", template: "%s · Dashboards" },
  description: "Draft a data dashboard as one HTML file, watch it render live, and save it for your team.",
  referrer: "no-referrer",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  const user = await currentUser();
  // With a home set, "/" opens that dashboard; the start page then needs a way in of its own.
  const home = user ? await homeOf(await app().db(), user.id) : null;
  return (
    <html lang="en">
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <header className="site-header">
          <IntentLink className="brand" href="/">
            Dashboards
          </IntentLink>
          <nav aria-label="Main" className="nav-wide">
            <NavLinks home={home} signedIn={user != null} />
          </nav>
          <NarrowMenu>
            <nav aria-label="Main">
              <NavLinks home={home} signedIn={user != null} />
            </nav>
          </NarrowMenu>
          <div className="account">
            {user ? (
              <>
                <IntentLink href="/account" data-testid="signed-in-email" title="Your account">
                  {user.email}
                </IntentLink>
                <form className="inline" method="post" action="/signout">
                  <button type="submit">Sign out</button>
                </form>
              </>
            ) : (
              <a className="button primary" href="/signin">
                Sign in
              </a>
            )}
          </div>
        </header>
        <main id="main">{children}</main>
      </body>
    </html>
  );
}

/** The site's sections: shown in the header's row on a wide screen, in its menu on a phone. */
function NavLinks({ home, signedIn }: { home: string | null; signedIn: boolean }) {
  return (
    <ul>
      {home ? (
        <li>
          <IntentLink href="/?start">Start page</IntentLink>
        </li>
      ) : null}
      <li>
        <IntentLink href="/dashboards/playground">Playground</IntentLink>
      </li>
      <li>
        <IntentLink href="/docs">API reference</IntentLink>
      </li>
      {signedIn ? (
        <li>
          <IntentLink href="/connections">Connections</IntentLink>
        </li>
      ) : null}
    </ul>
  );
}
