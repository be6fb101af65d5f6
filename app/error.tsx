"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { startTransition, useEffect, useRef } from "react";

// A page that failed while rendering ends here, inside the site's own frame, instead of the
// framework's bare message. The server has logged the failure with its digest; the person sees
// that digest too, so a report can be matched to the log line, and never the error's text, which
// may carry what the page was reading.
export default function PageError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const router = useRouter();
  // The failure was on the server: asking it again for the page, then rendering the segment over.
  const retry = () =>
    startTransition(() => {
      router.refresh();
      reset();
    });
  useEffect(() => {
    document.title = "Something went wrong · Dashboards";
    heading.current?.focus();
  }, []);
  return (
    <div className="stack" data-testid="page-error" role="alert">
      <h1 ref={heading} tabIndex={-1}>
        Something went wrong
      </h1>
      <p>This page could not be shown. Nothing you had saved is lost; trying again often works.</p>
      {error.digest ? (
        <p className="muted">
          If it keeps happening, mention reference <code>{error.digest}</code>.
        </p>
      ) : null}
      <p>
        <button type="button" className="primary" onClick={retry}>
          Try again
        </button>
      </p>
      <ul>
        <li>
          <Link href="/">The start page</Link>
        </li>
        <li>
          <Link href="/dashboards/playground">The playground</Link>
        </li>
      </ul>
    </div>
  );
}
