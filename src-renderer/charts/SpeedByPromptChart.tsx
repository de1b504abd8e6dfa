import { useTranslation } from "react-i18next";
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { SpeedPoint } from "./chartData.js";
import { ppColor, tgColor } from "./chartColors.js";

/** Prompt processing (left axis) and generation (right axis) against prompt length. */
export function SpeedByPromptChart({ data }: { data: SpeedPoint[] }) {
  const { t } = useTranslation();
  if (data.length === 0) return <p className="chart-empty">{t("charts.noPerformance")}</p>;
  return (
    <ResponsiveContainer width="100%" height={220}>
      <LineChart data={data} margin={{ top: 8, right: 8, bottom: 4, left: 0 }}>
        <CartesianGrid stroke="#e5e5ea" strokeDasharray="3 3" />
        <XAxis dataKey="promptTokens" tick={{ fontSize: 11 }} tickLine={false} />
        <YAxis yAxisId="pp" tick={{ fontSize: 11 }} tickLine={false} width={44} />
        <YAxis yAxisId="tg" orientation="right" tick={{ fontSize: 11 }} tickLine={false} width={40} />
        <Tooltip
          formatter={(value) => `${String(value)} tok/s`}
          labelFormatter={(label) => t("charts.promptTokens", { tokens: String(label) })}
        />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        <Line
          yAxisId="pp"
          type="monotone"
          dataKey="pp"
          name={t("charts.pp")}
          stroke={ppColor}
          strokeWidth={2}
          dot={{ r: 3 }}
          isAnimationActive={false}
        />
        <Line
          yAxisId="tg"
          type="monotone"
          dataKey="tg"
          name={t("charts.tg")}
          stroke={tgColor}
          strokeWidth={2}
          dot={{ r: 3 }}
          isAnimationActive={false}
        />
      </LineChart>
    </ResponsiveContainer>
  );
}
