import type { Page } from "@playwright/test";

export const HOST_ORIGIN: string;
/** The extension's lines a host may be built on. */
export const APPS_LINES: readonly [1, 2];
export function openHost(page: Page, callTool: (params: { name: string; arguments?: Record<string, unknown> }) => Promise<unknown>, line?: 1 | 2): Promise<void>;
export function showApp(page: Page, html: string, toolResult: unknown): Promise<void>;
export function openedLinks(page: Page): Promise<string[]>;
