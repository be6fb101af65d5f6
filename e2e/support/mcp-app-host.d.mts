import type { Page } from "@playwright/test";

export const HOST_ORIGIN: string;
/** The extension's lines a host may be built on. */
export const APPS_LINES: readonly [1, 2];
export function openHost(page: Page, callTool: (params: { name: string; arguments?: Record<string, unknown> }) => Promise<unknown>, line?: 1 | 2): Promise<void>;
/** What a host offers the view: saving files, display modes, storage for its frame. */
export interface HostOffer {
  downloads?: boolean;
  displayModes?: ("inline" | "fullscreen" | "pip")[];
  storage?: boolean;
}
export function showApp(page: Page, html: string, toolResult: unknown, offer?: HostOffer): Promise<void>;
export function hideApp(page: Page): Promise<void>;
export function hostRecord(page: Page): Promise<{ downloads: unknown[]; displayModeRequests: string[] }>;
export function openedLinks(page: Page): Promise<string[]>;
