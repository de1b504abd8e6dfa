import { useTranslation } from "react-i18next";
import { ChartsCard } from "../charts/ChartsCard.js";
import { PageHeader } from "../components/PageHeader.js";
import { AccuracyHistoryTable } from "./AccuracyHistoryTable.js";
import { AccuracyRunCard } from "./AccuracyRunCard.js";
import { ActiveRunsCard } from "./ActiveRunsCard.js";
import { PerformanceHistoryTable } from "./PerformanceHistoryTable.js";
import { PerformanceRunCard } from "./PerformanceRunCard.js";

/** Start runs, watch them, read the history and the charts. */
export function BenchmarksPage() {
  const { t } = useTranslation();
  return (
    <div className="page" data-testid="benchmarks-page">
      <PageHeader title={t("bench.title")} subtitle={t("bench.subtitle")} />
      <div className="two-columns">
        <AccuracyRunCard />
        <PerformanceRunCard />
      </div>
      <ActiveRunsCard />
      <ChartsCard />
      <AccuracyHistoryTable />
      <PerformanceHistoryTable />
    </div>
  );
}
