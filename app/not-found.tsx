import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Not found", robots: { index: false, follow: false } };

// Every address nothing answers, and every notFound() of a page (a space or a saved dashboard
// that does not exist), ends here inside the site's own frame, with somewhere to go next.
export default function NotFound() {
  return (
    <div className="stack" data-testid="not-found">
      <h1>Nothing here</h1>
      <p>This address does not lead to a page. It may have been mistyped, or what it named was removed.</p>
      <ul>
        <li>
          <Link href="/">The start page</Link>
        </li>
        <li>
          <Link href="/dashboards/playground">The playground</Link>, to draft a dashboard
        </li>
        <li>
          <Link href="/docs">The API reference</Link>
        </li>
      </ul>
    </div>
  );
}
