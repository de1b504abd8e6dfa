import { useTranslation } from "react-i18next";
import { Area, AreaChart, ResponsiveContainer, Tooltip, YAxis } from "recharts";
import { Card } from "../components/Card.js";
import { ErrorNote } from "../components/ErrorNote.js";
import { formatSpeed } from "../format/formatSpeed.js";
import { usePerch } from "../store/usePerch.js";

/** Active requests, queue depth and the last minutes of generation throughput. */
export function ActivityCard() {
  const { t, i18n } = useTranslation();
  const samples = usePerch((state) => state.throughput);
  const error = usePerch((state) => state.statsError);
  const last = samples[samples.length - 1];
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
          <span className="stat-value">{formatSpeed(last?.tokensPerSecond ?? 0, i18n.language)}</span>
          <span className="stat-label">{t("server.activity.throughput")}</span>
        </div>
      </div>
      <ErrorNote error={error} />
      <div className="sparkline">
        <ResponsiveContainer width="100%" height={90}>
          <AreaChart data={samples} margin={{ top: 4, right: 0, bottom: 0, left: 0 }}>
            <YAxis hide domain={[0, "auto"]} />
            <Tooltip formatter={(value) => `${String(value)} tok/s`} labelFormatter={() => ""} />
            <Area
              type="monotone"
              dataKey="tokensPerSecond"
              stroke="#0a63c9"
              fill="#0a63c9"
              fillOpacity={0.15}
              isAnimationActive={false}
            />
          </AreaChart>
        </ResponsiveContainer>
      </div>
    </Card>
  );
}
