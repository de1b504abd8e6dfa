import { useTranslation } from "react-i18next";
import { Bar, BarChart, CartesianGrid, Cell, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatNumber } from "../format/formatNumber.js";
import type { ComparisonBar } from "./chartData.js";
import { useChartPalette } from "./chartColors.js";

const shortName = (name: string) => (name.length > 18 ? `${name.slice(0, 17)}…` : name);

/**
 * Every measured model's canonical speed: one chart per measure (its own axis), the chosen model
 * at full colour and the others faded.
 */
export function ModelComparisonChart({ data }: { data: ComparisonBar[] }) {
  const { t } = useTranslation();
  const palette = useChartPalette();
  if (data.length === 0) return <p className="chart-empty">{t("charts.noPerformance")}</p>;
  return (
    <>
      <div className="small-multiples">
        <ComparisonBars data={data} measure="pp" color={palette.pp} title={t("charts.pp")} />
        <ComparisonBars data={data} measure="tg" color={palette.tg} title={t("charts.tg")} />
      </div>
      {data.length === 1 ? <p className="chart-note">{t("charts.singleModel")}</p> : null}
    </>
  );
}

function ComparisonBars({
  data,
  measure,
  color,
  title,
}: {
  data: ComparisonBar[];
  measure: "pp" | "tg";
  color: string;
  title: string;
}) {
  const { i18n } = useTranslation();
  const locale = i18n.language;
  const sorted = [...data].sort((a, b) => b[measure] - a[measure]);
  return (
    <div className="small-multiple" data-testid={`chart-comparison-${measure}`}>
      <div className="small-multiple-title">{title}</div>
      <ResponsiveContainer width="100%" height={Math.max(90, 34 + sorted.length * 26)}>
        <BarChart data={sorted} layout="vertical" margin={{ top: 4, right: 16, bottom: 4, left: 4 }}>
          <CartesianGrid strokeDasharray="3 3" horizontal={false} />
          <XAxis
            type="number"
            domain={[0, "auto"]}
            tick={{ fontSize: 11 }}
            tickLine={false}
            tickFormatter={(value) => formatNumber(Number(value), locale, 0)}
          />
          <YAxis
            type="category"
            dataKey="name"
            width={110}
            tick={{ fontSize: 11 }}
            tickLine={false}
            tickFormatter={shortName}
          />
          <Tooltip formatter={(value) => [`${formatNumber(Number(value), locale, 1)} tok/s`, title]} />
          <Bar dataKey={measure} name={title} fill={color} isAnimationActive={false} barSize={16}>
            {sorted.map((bar) => (
              <Cell key={bar.modelId} fillOpacity={bar.selected ? 1 : 0.35} />
            ))}
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
