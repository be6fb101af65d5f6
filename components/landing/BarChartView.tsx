"use client";

import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from "recharts";
import styles from "./landing.module.css";

// Loaded with next/dynamic from CrmSummary, so recharts stays out of the page's first load.

export interface Bars {
  rows: readonly { label: string; value: number }[];
  /** The chart's accessible name: a sentence reading the data. The full data is in a table beside it. */
  summary: string;
  valueName: string;
  format: (n: number) => string;
  formatTick: (n: number) => string;
  color: string;
}

export default function BarChartView({ rows, summary, valueName, format, formatTick, color }: Bars) {
  // Horizontal bars: stage names are long and stay readable on the category axis.
  const height = Math.max(180, rows.length * 34 + 48);
  return (
    <div className={styles.chart} style={{ minHeight: height }} data-testid="chart">
      <BarChart
        data={[...rows]}
        layout="vertical"
        responsive
        style={{ width: "100%", height }}
        margin={{ top: 4, right: 24, bottom: 4, left: 8 }}
        // role img with the summary as its title; focusable so the arrow keys can step through
        // the bars with the tooltip (recharts' accessibility layer).
        role="img"
        title={summary}
        tabIndex={0}
      >
        <CartesianGrid horizontal={false} stroke="#d0d7de" />
        <XAxis type="number" allowDecimals={false} tickFormatter={formatTick} tick={{ fill: "#424a53" }} stroke="#6e7781" />
        <YAxis type="category" dataKey="label" width={180} tick={{ fill: "#1b1f24" }} stroke="#6e7781" interval={0} />
        <Tooltip formatter={(v) => [format(Number(v)), valueName]} cursor={{ fill: "#eaeef2" }} />
        <Bar dataKey="value" name={valueName} fill={color} isAnimationActive={false} />
      </BarChart>
    </div>
  );
}
