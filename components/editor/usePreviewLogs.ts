"use client";

import { useCallback, useState } from "react";
import type { ConsoleNotice, ErrorNotice, RequestLogEntry } from "@/components/dashboard-frame/DashboardFrame";
import { emptyLog, logged, type ConsoleLog } from "./console-log";

/** The request log keeps the newest entries of the dashboard now running. */
const REQUESTS_SHOWN = 200;

/**
 * What the console shows of the dashboard now in the preview (`previewHtml`): every console line
 * and uncaught error from its start, and its requests. A new document starts new logs; a restart
 * of the same one (a scenario switch) goes on with them.
 */
export function usePreviewLogs(previewHtml: string) {
  const [consoleLog, setConsoleLog] = useState<ConsoleLog>(() => emptyLog(""));
  const onRuntime = useCallback((notice: ErrorNotice | ConsoleNotice) => setConsoleLog((log) => logged(log, previewHtml, notice)), [previewHtml]);
  const log = consoleLog.html === previewHtml ? consoleLog : emptyLog(previewHtml);
  const clearLog = useCallback(() => setConsoleLog(emptyLog(previewHtml)), [previewHtml]);

  const [requestLog, setRequestLog] = useState<{ html: string; entries: RequestLogEntry[] }>({ html: "", entries: [] });
  const onRequest = useCallback(
    (entry: RequestLogEntry) =>
      setRequestLog((kept) => {
        const entries = kept.html === previewHtml ? [...kept.entries, entry].slice(-REQUESTS_SHOWN) : [entry];
        return { html: previewHtml, entries };
      }),
    [previewHtml],
  );
  const requests = requestLog.html === previewHtml ? requestLog.entries : [];
  return { log, clearLog, onRuntime, requests, onRequest };
}
