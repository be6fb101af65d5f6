/**
 * What lib/frame/bootstrap.ts hands the frame's script (as JSON, the argument of its function):
 * the bounds and names it shares with the host, read once as the script starts.
 */
export interface FrameConfig {
  /** The tallest height the frame asks for, and how often it says so at most. */
  heightMax: number;
  heightNoticeMs: number;
  /** The longest request path the broker takes; how long a read may take before fetch rejects. */
  pathMax: number;
  fetchTimeoutMs: number;
  /** Scroll notices at most this often; restoring the scroll position keeps trying this long. */
  scrollNoticeMs: number;
  scrollRestoreMs: number;
  snapshot: {
    elementId: string;
    takenAtAttribute: string;
    /** The source of the RegExp a snapshot's time must match (no flags). */
    time: string;
    panelMax: number;
    /** The name of the global function that answers the snapshot. */
    helper: string;
  };
  /** The longest link the frame sends the host (it sends one character more, so the host sees it is too long). */
  linkMax: number;
  /** Render report bounds: text lengths, then notices of each kind and console lines per document. */
  messageMax: number;
  reportPathMax: number;
  reasonMax: number;
  noticesMax: number;
  linesMax: number;
  params: {
    /** The source and flags of the RegExp a parameter's name must match. */
    name: string;
    nameFlags: string;
    valueMax: number;
    max: number;
  };
  /** The demo API's base: the frame says it is on demo data there, and on live data elsewhere. */
  demoApiBase: string;
}
