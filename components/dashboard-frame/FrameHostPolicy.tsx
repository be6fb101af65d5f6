/**
 * For pages that host a dashboard frame. The frame may navigate itself; this keeps every
 * navigation it makes on this site, so it cannot carry data off in a URL.
 */
export function FrameHostPolicy() {
  return <meta httpEquiv="Content-Security-Policy" content="frame-src 'self'" />;
}
