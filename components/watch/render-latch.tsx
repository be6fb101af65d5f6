// The render latch of a static render (`?static=1`). `chromium --headless --screenshot` takes
// its picture at the page's load event, which would come long before the dashboard has read its
// data and painted. A child frame whose document is still open holds its parent's load event, so
// the server's markup carries a hidden, empty frame whose document a script opens at once; the
// watch page closes it when the dashboard has settled (WatchDraft's markRendered), and the
// script itself after RENDER_LATCH_MAX_MS, so a screenshot always comes.

const RENDER_LATCH_ID = "render-latch";
/** Past the longest a render report waits (10 s), the draft's read and the page's start. */
const RENDER_LATCH_MAX_MS = 20_000;

const script = `(function () {
  var frame = document.getElementById(${JSON.stringify(RENDER_LATCH_ID)});
  var doc = frame && frame.contentDocument;
  if (!doc) return;
  doc.open();
  doc.write("<!doctype html><title>Rendering</title>");
  setTimeout(function () { try { doc.close(); } catch (e) {} }, ${RENDER_LATCH_MAX_MS});
})();`;

/** Server markup only: the script runs as the page is parsed, before anything can load. */
export function RenderLatch() {
  return (
    <>
      <iframe id={RENDER_LATCH_ID} hidden aria-hidden="true" tabIndex={-1} title="Render latch" />
      <script dangerouslySetInnerHTML={{ __html: script }} />
    </>
  );
}

/** Lets the page's load event happen: the dashboard has rendered. */
export function releaseRenderLatch(): void {
  const latch = document.getElementById(RENDER_LATCH_ID);
  if (latch instanceof HTMLIFrameElement) latch.contentDocument?.close();
}
