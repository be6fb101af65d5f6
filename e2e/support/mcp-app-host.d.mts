import type { Page } from "@playwright/test";

export const HOST_ORIGIN: string;
export function openHost(page: Page, callTool: (params: { name: string; arguments?: Record<string, unknown> }) => Promise<unknown>): Promise<void>;
export function showApp(page: Page, html: string, toolResult: unknown): Promise<void>;
export function openedLinks(page: Page): Promise<string[]>;
