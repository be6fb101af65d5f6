"use client";

import dynamic from "next/dynamic";
import { useState, type ReactNode } from "react";
import useSWR from "swr";
import { crmSummary } from "@/lib/contract/resources";
import { ApiRequestError, getJson } from "./fetch-json";
import { crmCharts, describeBars, formatCount, formatMoney, formatMoneyShort, hasAmounts, type PipelineStage, type StageCount } from "./crm-data";
import { Empty, Failure, Loading } from "./states";
import styles from "./landing.module.css";

const BarChartView = dynamic(() => import("./BarChartView"), {
  ssr: false,
  loading: () => (
    <div className={styles.chartPlaceholder} role="status">
      Loading the chart…
    </div>
  ),
});

const SUMMARY = "/api/crm/customers/summary";
// While the first sync runs the summary answers crm_not_synced; asking again every few seconds
// shows the charts as soon as it completes, without a reload.
const NOT_SYNCED_RETRY_MS = 5_000;

export function CrmSummary() {
  const { data, error, isValidating, mutate } = useSWR(SUMMARY, (url: string) => getJson(url, crmSummary), {
    onErrorRetry: (err, _key, _config, revalidate, { retryCount }) => {
      if (err instanceof ApiRequestError && err.code === "crm_not_synced") {
        setTimeout(() => void revalidate({ retryCount }), NOT_SYNCED_RETRY_MS);
      }
    },
  });
  const charts = data ? crmCharts(data) : null;

  return (
    <section className={`card ${styles.section}`} aria-labelledby="crm-title" data-testid="crm-summary">
      <div className={styles.sectionHeader}>
        <h2 id="crm-title">Customers CRM</h2>
        {charts ? (
          <dl className={styles.totals} data-testid="crm-totals">
            <div>
              <dt>Companies</dt>
              <dd>{formatCount(charts.totals.companies)}</dd>
            </div>
            <div>
              <dt>Contacts</dt>
              <dd>{formatCount(charts.totals.contacts)}</dd>
            </div>
            <div>
              <dt>Deals</dt>
              <dd>{formatCount(charts.totals.deals)}</dd>
            </div>
          </dl>
        ) : null}
      </div>
      {error ? (
        <Failure error={error} what="the CRM summary" onRetry={() => void mutate()} retrying={isValidating} />
      ) : !charts ? (
        <Loading>Loading the CRM summary…</Loading>
      ) : (
        <div className={styles.grid}>
          <PipelineFigure pipeline={charts.pipeline} />
          <LifecycleFigure lifecycle={charts.lifecycle} />
        </div>
      )}
    </section>
  );
}

function NoneSyncedYet({ records }: { records: "deals" | "contacts" }) {
  return (
    <Empty>
      <p>No {records} yet.</p>
      <p className="muted">
        {records[0]!.toUpperCase() + records.slice(1)} appear after the next CRM sync; the data freshness table shows when it last ran.
      </p>
    </Empty>
  );
}

function PipelineFigure({ pipeline }: { pipeline: PipelineStage[] | null }) {
  const [measure, setMeasure] = useState<"count" | "amount">("count");
  if (pipeline === null) {
    return (
      <Figure id="pipeline" caption="Pipeline by stage">
        <Empty>
          <p>This CRM instance does not track a deal pipeline.</p>
        </Empty>
      </Figure>
    );
  }
  if (pipeline.every((p) => p.count === 0)) {
    return (
      <Figure id="pipeline" caption="Pipeline by stage">
        <NoneSyncedYet records="deals" />
      </Figure>
    );
  }
  const withMoney = hasAmounts(pipeline);
  const shown = withMoney ? measure : "count";
  const rows = pipeline.map((p) => ({ label: p.label, value: shown === "amount" ? (p.amount ?? 0) : p.count }));
  const what = shown === "amount" ? "Deal amount by stage" : "Deal count by stage";
  const format = shown === "amount" ? formatMoney : formatCount;
  return (
    <Figure id="pipeline" caption="Pipeline by stage">
      {withMoney ? (
        <div className={styles.toggle} role="group" aria-label="Pipeline measure">
          <button type="button" aria-pressed={shown === "count"} onClick={() => setMeasure("count")}>
            Deal count
          </button>
          <button type="button" aria-pressed={shown === "amount"} onClick={() => setMeasure("amount")}>
            Amount
          </button>
        </div>
      ) : null}
      <BarChartView
        rows={rows}
        summary={describeBars(what, rows, format)}
        valueName={shown === "amount" ? "Amount" : "Deals"}
        format={format}
        formatTick={shown === "amount" ? formatMoneyShort : formatCount}
        color="#0b5cad"
      />
      {/* A table ignores a 1px width; the wrapper is what keeps it from widening the page. */}
      <div className={styles.srOnly}>
        <table data-testid="chart-data">
          <caption>Pipeline by stage, in funnel order</caption>
          <thead>
            <tr>
              <th scope="col">Stage</th>
              <th scope="col">Deals</th>
              {withMoney ? <th scope="col">Amount</th> : null}
            </tr>
          </thead>
          <tbody>
            {pipeline.map((p) => (
              <tr key={p.stage}>
                <th scope="row">{p.label}</th>
                <td>{formatCount(p.count)}</td>
                {withMoney ? <td>{formatMoney(p.amount ?? 0)}</td> : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Figure>
  );
}

function LifecycleFigure({ lifecycle }: { lifecycle: StageCount[] }) {
  if (lifecycle.every((l) => l.count === 0)) {
    return (
      <Figure id="lifecycle" caption="Contacts by lifecycle stage">
        <NoneSyncedYet records="contacts" />
      </Figure>
    );
  }
  const rows = lifecycle.map((l) => ({ label: l.label, value: l.count }));
  return (
    <Figure id="lifecycle" caption="Contacts by lifecycle stage">
      <BarChartView
        rows={rows}
        summary={describeBars("Contacts by lifecycle stage", rows, formatCount)}
        valueName="Contacts"
        format={formatCount}
        formatTick={formatCount}
        color="#1a7f37"
      />
      <div className={styles.srOnly}>
        <table data-testid="chart-data">
          <caption>Contacts by lifecycle stage, in funnel order</caption>
          <thead>
            <tr>
              <th scope="col">Stage</th>
              <th scope="col">Contacts</th>
            </tr>
          </thead>
          <tbody>
            {lifecycle.map((l) => (
              <tr key={l.stage}>
                <th scope="row">{l.label}</th>
                <td>{formatCount(l.count)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Figure>
  );
}

function Figure({ id, caption, children }: { id: string; caption: string; children: ReactNode }) {
  return (
    <figure className={styles.figure} aria-labelledby={`${id}-caption`} data-testid={`${id}-chart`}>
      <figcaption id={`${id}-caption`}>
        <h3>{caption}</h3>
      </figcaption>
      {children}
    </figure>
  );
}
