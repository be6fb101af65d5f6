import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

// The browser side of e2e/support/mcp-app-host.ts, bundled by it.

interface HostWindow {
  hostCallTool(params: unknown): Promise<CallToolResult>;
  showApp(html: string, toolResult: CallToolResult): Promise<void>;
  /** What the apps asked to open (ui/open-link): recorded, never opened. */
  openedLinks: string[];
}
const host = window as unknown as HostWindow;
host.openedLinks = [];

host.showApp = async (html, toolResult) => {
  const frame = document.createElement("iframe");
  frame.id = "app";
  frame.title = "MCP App";
  frame.setAttribute("sandbox", "allow-scripts");
  frame.style.cssText = "width:100%;height:480px;border:1px solid #ccc";
  document.getElementById("chat")!.appendChild(frame);
  const bridge = new AppBridge(null, { name: "e2e-host", version: "1.0.0" }, { serverTools: {} });
  bridge.oncalltool = (params) => host.hostCallTool(params);
  bridge.onopenlink = async ({ url }) => {
    host.openedLinks.push(url);
    return {};
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
