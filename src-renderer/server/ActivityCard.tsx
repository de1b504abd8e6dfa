import { useTranslation } from "react-i18next";
import { Area, AreaChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { Card } from "../components/Card.js";
import { useChartPalette } from "../charts/chartColors.js";
import { ErrorNote } from "../components/ErrorNote.js";
import { formatBytes } from "../../src-shared/text/formatBytes.js";
import { formatNumber } from "../format/formatNumber.js";
import { formatPercent } from "../format/formatPercent.js";
import { formatSpeed } from "../format/formatSpeed.js";
import { usePerch } from "../store/usePerch.js";

/** Active requests, queue depth, the prompt cache, and the last minutes of generation throughput. */
export function ActivityCard() {
  const { t, i18n } = useTranslation();
  const palette = useChartPalette();
  const samples = usePerch((state) => state.throughput);
  const error = usePerch((state) => state.statsError);
  const last = samples[samples.length - 1];
  const promptCache = usePerch((state) => state.stats?.totals.promptCache);
  return (
    <Card title={t("server.activity.title")} testId="server-activity">
      <div className="stat-row">
        <div className="stat">
          <span className="stat-value" data-testid="active-requests">
            {last?.active ?? 0}
          </span>
          <span className="stat-label">{t("server.activity.active")}</span>
        </div>
        <div className="stat">
          <span className="stat-value" data-testid="queued-requests">
            {last?.queued ?? 0}
          </span>
          <span className="stat-label">{t("server.activity.queued")}</span>
        </div>
        <div className="stat">
          <span className="stat-value" data-testid="throughput-now">
            {formatSpeed(last?.tokensPerSecond ?? 0, i18n.language)}
          </span>
          <span className="stat-label">{t("server.activity.throughput")}</span>
        </div>
        <div className="stat">
          <span className="stat-value">{formatSpeed(last?.minuteAverage ?? 0, i18n.language)}</span>
          <span className="stat-label">{t("server.activity.minuteAverage")}</span>
        </div>
        <div className="stat">
          <span className="stat-value" data-testid="prompt-cache-hit-rate">
            {formatPercent(promptCache?.hitRate ?? 0, i18n.language)}
          </span>
          <span className="stat-label">
            {t("server.activity.promptCacheHitRate", {
              hits: promptCache?.hits ?? 0,
              lookups: promptCache?.lookups ?? 0,
            })}
          </span>
        </div>
        <div className="stat">
          <span className="stat-value" data-testid="prompt-cache-size">
            {formatBytes((promptCache?.ramBytes ?? 0) + (promptCache?.diskBytes ?? 0))}
          </span>
          <span className="stat-label">
            {t("server.activity.promptCacheSize", {
              ram: formatBytes(promptCache?.ramBytes ?? 0),
              disk: formatBytes(promptCache?.diskBytes ?? 0),
            })}
          </span>
        </div>
      </div>
      <ErrorNote error={error} />
      <div className="sparkline">
        <ResponsiveContainer width="100%" height={120}>
          <AreaChart data={samples} margin={{ top: 4, right: 8, bottom: 0, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis
              dataKey="at"
              type="number"
              scale="time"
              domain={["dataMin", "dataMax"]}
              tick={{ fontSize: 10 }}
              tickLine={false}
              tickFormatter={(value) =>
                new Date(Number(value)).toLocaleTimeString(i18n.language, {
                  hour: "2-digit",
                  minute: "2-digit",
                  second: "2-digit",
                })
              }
            />
            <YAxis
              domain={[0, "auto"]}
              allowDecimals={false}
              width={44}
              tick={{ fontSize: 10 }}
              tickLine={false}
              tickFormatter={(value) => formatNumber(Number(value), i18n.language, 0)}
            />
            <Tooltip
              formatter={(value) => [
                `${formatNumber(Number(value), i18n.language, 1)} tok/s`,
                t("server.activity.throughput"),
              ]}
              labelFormatter={(label) => new Date(Number(label)).toLocaleTimeString(i18n.language)}
            />
            <Area
              type="monotone"
              dataKey="tokensPerSecond"
              stroke={palette.series[0]}
              fill={palette.series[0]}
              fillOpacity={0.15}
              isAnimationActive={false}
            />
          </AreaChart>
        </ResponsiveContainer>
      </div>
    </Card>
  );
}
