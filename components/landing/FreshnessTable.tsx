"use client";

import {
  createColumnHelper,
  flexRender,
  getCoreRowModel,
  getSortedRowModel,
  useReactTable,
  type SortingState,
} from "@tanstack/react-table";
import { useMemo, useState } from "react";
import useSWR from "swr";
import { z } from "zod";
import { crmSource, type CrmSource } from "@/lib/contract/resources";
import { getJson } from "./fetch-json";
import { formatCount, freshnessRows, type FreshnessRow } from "./crm-data";
import { RelativeTime } from "@/components/ui/RelativeTime";
import { Empty, Failure, Loading } from "./states";
import styles from "./landing.module.css";

// The success shape of GET /crm/:instance/sources (lib/contract/endpoints.ts).
const sourcesSchema = z.object({ sources: z.array(crmSource) });

// A sync in progress moves quickly; a settled one changes every 15 minutes at most.
const refreshWhile = (sources: readonly CrmSource[] | undefined) =>
  sources?.some((s) => s.status === "running" || s.status === "never_run") ? 5_000 : 60_000;

const column = createColumnHelper<FreshnessRow>();

const columns = [
  column.accessor("source", { header: "Source" }),
  column.accessor("object", { header: "Data" }),
  column.accessor("rows", { header: "Rows", cell: (c) => formatCount(c.getValue()), meta: { numeric: true } }),
  // A null time ("never") is read as undefined so it sorts after every real time, either way.
  column.accessor((r) => r.newestChange ?? undefined, {
    id: "newestChange",
    header: "Newest change synced",
    sortUndefined: "last",
    cell: (c) => <When ms={c.row.original.newestChange} />,
  }),
  column.accessor((r) => r.lastSuccess ?? undefined, {
    id: "lastSuccess",
    header: "Last successful sync",
    sortUndefined: "last",
    cell: (c) => <When ms={c.row.original.lastSuccess} />,
  }),
  column.accessor("status", { header: "Status" }),
];

/** A column's header as plain words, for the label a phone shows beside each value. */
function labelOf(header: unknown, id: string): string {
  return typeof header === "string" ? header : id;
}

function When({ ms }: { ms: number | null }) {
  return ms === null ? <span className="muted">Never</span> : <RelativeTime ms={ms} />;
}

export function FreshnessTable() {
  const { data, error, isValidating, mutate } = useSWR("/api/crm/customers/sources", (url: string) => getJson(url, sourcesSchema), {
    shouldRetryOnError: false,
    refreshInterval: (latest) => refreshWhile(latest?.sources),
  });
  const rows = useMemo(() => (data ? freshnessRows(data.sources) : []), [data]);
  const failures = data?.sources.filter((s) => s.lastError) ?? [];

  return (
    <section className={`card ${styles.section}`} aria-labelledby="freshness-title" data-testid="freshness">
      <div className={styles.sectionHeader}>
        <h2 id="freshness-title">Data freshness</h2>
        <p className="muted">How recent the CRM numbers above are.</p>
      </div>
      {error ? (
        <Failure error={error} what="the data freshness" onRetry={() => void mutate()} retrying={isValidating} />
      ) : !data ? (
        <Loading>Loading the sync state…</Loading>
      ) : rows.length === 0 ? (
        <Empty>
          <p>No data sources feed this CRM yet.</p>
          <p className="muted">An admin connects the CRM portal for the organisation; its sync state then shows here.</p>
        </Empty>
      ) : (
        <>
          {failures.map((s) => (
            <div key={s.connector} className={styles.state} data-testid="sync-error">
              <p>
                <strong>{s.title}:</strong> {s.lastError}
              </p>
              <p className="muted">The figures above are from its last successful sync; tell your admin if this persists.</p>
            </div>
          ))}
          <SortableTable rows={rows} />
        </>
      )}
    </section>
  );
}

function SortableTable({ rows }: { rows: FreshnessRow[] }) {
  const [sorting, setSorting] = useState<SortingState>([]);
  // TanStack Table hands back functions whose identity changes on every render, so this component
  // is deliberately left unmemoised; nothing it returns is passed to a memoised child.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: rows,
    columns,
    state: { sorting },
    onSortingChange: setSorting,
    // The first press sorts ascending in every column, so a header behaves the same wherever it is.
    sortDescFirst: false,
    getRowId: (row) => row.id,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
  });

  return (
    <div className={styles.tableWrap}>
      <table className={`${styles.table} ${styles.stacking}`} data-testid="freshness-table">
        <caption className={styles.srOnly}>Sync state of each source, per data type. Column headers sort the table.</caption>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const sorted = header.column.getIsSorted();
                const numeric = (header.column.columnDef.meta as { numeric?: boolean } | undefined)?.numeric;
                return (
                  <th
                    key={header.id}
                    scope="col"
                    className={numeric ? styles.num : undefined}
                    aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : "none"}
                  >
                    <button type="button" onClick={header.column.getToggleSortingHandler()}>
                      {flexRender(header.column.columnDef.header, header.getContext())}
                      <span aria-hidden="true">{sorted === "asc" ? "▲" : sorted === "desc" ? "▼" : "↕"}</span>
                    </button>
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id}>
              {row.getVisibleCells().map((cell) => {
                const numeric = (cell.column.columnDef.meta as { numeric?: boolean } | undefined)?.numeric;
                return (
                  <td key={cell.id} className={numeric ? styles.num : undefined} data-label={labelOf(cell.column.columnDef.header, cell.column.id)}>
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
