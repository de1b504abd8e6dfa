import { useTranslation } from "react-i18next";
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { benchmarkLabel } from "../format/benchmarkLabel.js";
import { formatNumber } from "../format/formatNumber.js";
import type { AccuracySeries } from "./chartData.js";
import { useChartPalette } from "./chartColors.js";
import { timeAxis } from "./timeAxis.js";

/** Accuracy per benchmark across the model's runs, on a real time axis (dates, and times when close). */
export function AccuracyOverTimeChart({ series }: { series: AccuracySeries }) {
  const { t, i18n } = useTranslation();
  const palette = useChartPalette();
  const locale = i18n.language;
  if (series.points.length === 0) return <p className="chart-empty">{t("charts.noAccuracy")}</p>;
  const axis = timeAxis(
    series.points.map((point) => point.at),
    locale,
  );
  return (
    <>
      <ResponsiveContainer width="100%" height={220}>
        <LineChart data={series.points} margin={{ top: 8, right: 16, bottom: 4, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis
            dataKey="at"
            type="number"
            scale="time"
            domain={axis.domain}
            ticks={axis.ticks}
            tickFormatter={axis.format}
            tick={{ fontSize: 11 }}
            tickLine={false}
          />
          <YAxis
            domain={[0, 100]}
            tick={{ fontSize: 11 }}
            tickLine={false}
            width={48}
            tickFormatter={(value) => `${formatNumber(Number(value), locale, 0)} %`}
          />
          <Tooltip
            formatter={(value, name) => [`${formatNumber(Number(value), locale, 1)} %`, name]}
            labelFormatter={(label) =>
              new Date(Number(label)).toLocaleString(locale, { dateStyle: "medium", timeStyle: "short" })
            }
          />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          {series.benchmarks.map((benchmark, index) => (
            <Line
              key={benchmark}
              type="monotone"
              dataKey={benchmark}
              name={benchmarkLabel(benchmark)}
              stroke={palette.series[index % palette.series.length]}
              strokeWidth={2}
              dot={{ r: 4 }}
              connectNulls
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
      {series.points.length === 1 ? <p className="chart-note">{t("charts.singleAccuracy")}</p> : null}
    </>
  );
}
