import { useTranslation } from "react-i18next";
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Legend,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { ComparisonBar } from "./chartData.js";
import { ppColor, tgColor } from "./chartColors.js";

const shortName = (name: string) => (name.length > 22 ? `${name.slice(0, 21)}…` : name);

/** Canonical pp and tg of every measured model; the chosen model at full colour, others faded. */
export function ModelComparisonChart({ data }: { data: ComparisonBar[] }) {
  const { t } = useTranslation();
  if (data.length === 0) return <p className="chart-empty">{t("charts.noPerformance")}</p>;
  return (
    <ResponsiveContainer width="100%" height={220}>
      <BarChart data={data} margin={{ top: 8, right: 8, bottom: 4, left: 0 }}>
        <CartesianGrid stroke="#e5e5ea" strokeDasharray="3 3" vertical={false} />
        <XAxis
          dataKey="name"
          tick={{ fontSize: 11 }}
          tickLine={false}
          interval={0}
          tickFormatter={shortName}
        />
        <YAxis yAxisId="pp" tick={{ fontSize: 11 }} tickLine={false} width={44} />
        <YAxis yAxisId="tg" orientation="right" tick={{ fontSize: 11 }} tickLine={false} width={40} />
        <Tooltip formatter={(value) => `${String(value)} tok/s`} />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        <Bar yAxisId="pp" dataKey="pp" name={t("charts.pp")} fill={ppColor} isAnimationActive={false}>
          {data.map((bar) => (
            <Cell key={bar.modelId} fillOpacity={bar.selected ? 1 : 0.35} />
          ))}
        </Bar>
        <Bar yAxisId="tg" dataKey="tg" name={t("charts.tg")} fill={tgColor} isAnimationActive={false}>
          {data.map((bar) => (
            <Cell key={bar.modelId} fillOpacity={bar.selected ? 1 : 0.35} />
          ))}
        </Bar>
      </BarChart>
    </ResponsiveContainer>
  );
}
