import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

// The browser side of e2e/support/mcp-app-host.ts, bundled by it.

/** What a host offers the view, as hosts differ: saving files, display modes, storage for its frame. */
export interface HostOffer {
  downloads?: boolean;
  displayModes?: ("inline" | "fullscreen" | "pip")[];
  /** The frame gets an origin of its own with storage (allow-same-origin), as hosts that serve views from a sandbox origin do. */
  storage?: boolean;
}

interface HostWindow {
  hostCallTool(params: unknown): Promise<CallToolResult>;
  showApp(html: string, toolResult: CallToolResult, offer?: HostOffer): Promise<void>;
  hideApp(): void;
  /** What the apps asked to open (ui/open-link): recorded, never opened. */
  openedLinks: string[];
  /** What the apps asked to save (ui/download-file): recorded, never saved. */
  downloads: unknown[];
  /** The display modes the apps asked for, in order. */
  displayModeRequests: string[];
}
const host = window as unknown as HostWindow;
host.openedLinks = [];
host.downloads = [];
host.displayModeRequests = [];

host.hideApp = () => document.getElementById("app")?.remove();

host.showApp = async (html, toolResult, offer = {}) => {
  const frame = document.createElement("iframe");
  frame.id = "app";
  frame.title = "MCP App";
  frame.setAttribute("sandbox", offer.storage ? "allow-scripts allow-same-origin" : "allow-scripts");
  frame.style.cssText = "width:100%;height:480px;border:1px solid #ccc";
  document.getElementById("chat")!.appendChild(frame);
  const modes = offer.displayModes ?? [];
  const bridge = new AppBridge(
    null,
    { name: "e2e-host", version: "1.0.0" },
    { serverTools: {}, ...(offer.downloads ? { downloadFile: {} } : {}) },
    modes.length > 0 ? { hostContext: { displayMode: "inline", availableDisplayModes: modes } } : undefined,
  );
  bridge.oncalltool = (params) => host.hostCallTool(params);
  bridge.onopenlink = async ({ url }) => {
    host.openedLinks.push(url);
    return {};
  };
  bridge.ondownloadfile = async ({ contents }) => {
    host.downloads.push(...contents);
    return {};
  };
  bridge.onrequestdisplaymode = async ({ mode }) => {
    host.displayModeRequests.push(mode);
    return { mode: modes.includes(mode) ? mode : "inline" };
  };
  bridge.onsizechange = ({ height }) => {
    if (typeof height === "number") frame.style.height = `${height}px`;
  };
  const initialized = new Promise<void>((resolve) => {
    bridge.oninitialized = () => resolve();
  });
  // Connected before the document loads, so the app's first message finds the bridge listening.
  await bridge.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));
  frame.srcdoc = html;
  await initialized;
  await bridge.sendToolResult(toolResult);
};
