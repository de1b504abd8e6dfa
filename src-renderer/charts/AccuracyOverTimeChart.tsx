import { useTranslation } from "react-i18next";
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { benchmarkLabel } from "../format/benchmarkLabel.js";
import type { AccuracySeries } from "./chartData.js";
import { chartColors } from "./chartColors.js";

/** Accuracy per benchmark across the model's runs. */
export function AccuracyOverTimeChart({ series }: { series: AccuracySeries }) {
  const { t, i18n } = useTranslation();
  if (series.points.length === 0) return <p className="chart-empty">{t("charts.noAccuracy")}</p>;
  const day = (value: number) =>
    new Date(value).toLocaleDateString(i18n.language, { month: "short", day: "numeric" });
  return (
    <ResponsiveContainer width="100%" height={220}>
      <LineChart data={series.points} margin={{ top: 8, right: 12, bottom: 4, left: 0 }}>
        <CartesianGrid stroke="#e5e5ea" strokeDasharray="3 3" />
        <XAxis
          dataKey="at"
          type="number"
          scale="time"
          domain={["dataMin", "dataMax"]}
          tickFormatter={day}
          tick={{ fontSize: 11 }}
          tickLine={false}
          padding={{ left: 12, right: 12 }}
        />
        <YAxis domain={[0, 100]} unit="%" tick={{ fontSize: 11 }} tickLine={false} width={44} />
        <Tooltip
          formatter={(value) => `${String(value)}%`}
          labelFormatter={(label) => new Date(Number(label)).toLocaleString(i18n.language)}
        />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        {series.benchmarks.map((benchmark, index) => (
          <Line
            key={benchmark}
            type="monotone"
            dataKey={benchmark}
            name={benchmarkLabel(benchmark)}
            stroke={chartColors[index % chartColors.length]}
            strokeWidth={2}
            dot={{ r: 3 }}
            connectNulls
            isAnimationActive={false}
          />
        ))}
      </LineChart>
    </ResponsiveContainer>
  );
}
