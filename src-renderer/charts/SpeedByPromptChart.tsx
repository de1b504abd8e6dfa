import { useTranslation } from "react-i18next";
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatNumber } from "../format/formatNumber.js";
import type { SpeedPoint } from "./chartData.js";
import { useChartPalette } from "./chartColors.js";

/**
 * Small multiples: prompt processing and generation each get their own chart and axis, since
 * they differ by orders of magnitude (one shared axis would flatten generation to the floor).
 */
export function SpeedByPromptChart({ data }: { data: SpeedPoint[] }) {
  const { t } = useTranslation();
  const palette = useChartPalette();
  if (data.length === 0) return <p className="chart-empty">{t("charts.noPerformance")}</p>;
  return (
    <>
      <div className="small-multiples">
        <SpeedLine data={data} measure="pp" color={palette.pp} title={t("charts.pp")} />
        <SpeedLine data={data} measure="tg" color={palette.tg} title={t("charts.tg")} />
      </div>
      {data.length === 1 ? <p className="chart-note">{t("charts.singlePrompt")}</p> : null}
    </>
  );
}

function SpeedLine({
  data,
  measure,
  color,
  title,
}: {
  data: SpeedPoint[];
  measure: "pp" | "tg";
  color: string;
  title: string;
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  return (
    <div className="small-multiple" data-testid={`chart-speed-${measure}`}>
      <div className="small-multiple-title">{title}</div>
      <ResponsiveContainer width="100%" height={170}>
        <LineChart data={data} margin={{ top: 8, right: 12, bottom: 16, left: 4 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis
            dataKey="promptTokens"
            type="category"
            tick={{ fontSize: 11 }}
            tickLine={false}
            tickFormatter={(value) => formatNumber(Number(value), locale, 0)}
            label={{
              value: t("charts.promptTokensAxis"),
              position: "insideBottom",
              offset: -8,
              fontSize: 11,
            }}
          />
          <YAxis
            tick={{ fontSize: 11 }}
            tickLine={false}
            width={52}
            domain={[0, "auto"]}
            tickFormatter={(value) => formatNumber(Number(value), locale, 0)}
          />
          <Tooltip
            formatter={(value) => [`${formatNumber(Number(value), locale, 1)} tok/s`, title]}
            labelFormatter={(label) =>
              t("charts.promptTokens", { tokens: formatNumber(Number(label), locale, 0) })
            }
          />
          <Line
            type="monotone"
            dataKey={measure}
            name={title}
            stroke={color}
            strokeWidth={2}
            dot={{ r: 3 }}
            isAnimationActive={false}
          />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
