import { ModelName } from "../models/ModelName.js";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Card } from "../components/Card.js";
import { ConfirmDialog } from "../components/ConfirmDialog.js";
import { EmptyState } from "../components/EmptyState.js";
import { ErrorNote } from "../components/ErrorNote.js";
import type { ErrorInfo } from "../store/ErrorInfo.js";
import { formatDate } from "../format/formatDate.js";
import { ModelSelect } from "./ModelSelect.js";
import { saveFile } from "./saveFile.js";

type Pending = { kind: "delete"; resultId: string } | { kind: "reset" } | null;

interface StoredResult {
  result_id: string;
  created_at: string;
  model_id: string;
}

export interface ResultHistoryCardProps<R extends StoredResult> {
  /** `accuracy` or `performance`: prefixes the test ids (`<kind>-history`, `<kind>-reset`...). */
  kind: string;
  title: string;
  results: R[];
  error: ErrorInfo | null;
  deleting: string[];
  onDelete: (resultId: string) => void;
  onReset: (modelId: string | undefined) => void;
  /** Header cells after date and model. */
  columns: ReactNode;
  /** Row cells after date and model, matching `columns`. */
  cells: (result: R) => ReactNode;
  /** Buttons before the exports (details, retry...). */
  actions?: (result: R) => ReactNode;
  csv: (result: R) => string;
}

/**
 * A benchmark history table: a model filter, date and model columns then the kind's own, JSON and
 * CSV export, delete and reset behind a confirmation.
 */
export function ResultHistoryCard<R extends StoredResult>(props: ResultHistoryCardProps<R>) {
  const { t, i18n } = useTranslation();
  const [filter, setFilter] = useState("");
  const [pending, setPending] = useState<Pending>(null);
  const shown = filter ? props.results.filter((result) => result.model_id === filter) : props.results;

  return (
    <Card
      title={props.title}
      testId={`${props.kind}-history`}
      actions={
        <>
          <ModelSelect value={filter} onChange={setFilter} allowAll testId={`${props.kind}-history-filter`} />
          <button
            type="button"
            className="button button-small button-danger-quiet"
            disabled={shown.length === 0}
            onClick={() => setPending({ kind: "reset" })}
            data-testid={`${props.kind}-reset`}
          >
            {t("history.reset")}
          </button>
        </>
      }
    >
      <ErrorNote error={props.error} />
      {shown.length === 0 ? (
        <EmptyState title={t("history.empty")} />
      ) : (
        <div className="table-scroll">
          <table className="table">
            <thead>
              <tr>
                <th>{t("history.date")}</th>
                <th>{t("history.model")}</th>
                {props.columns}
                <th />
              </tr>
            </thead>
            <tbody>
              {shown.map((result) => (
                <tr
                  key={result.result_id}
                  data-testid={`${props.kind}-history-row`}
                  data-result-id={result.result_id}
                >
                  <td className="nowrap">{formatDate(result.created_at, i18n.language)}</td>
                  <td className="truncate">
                    <ModelName modelId={result.model_id} />
                  </td>
                  {props.cells(result)}
                  <td className="history-actions">
                    <div className="row-actions">
                      {props.actions?.(result)}
                      <button
                        type="button"
                        className="button button-small"
                        onClick={() =>
                          saveFile(
                            `${result.result_id}.json`,
                            JSON.stringify(result, null, 2),
                            "application/json",
                          )
                        }
                        data-testid="export-json"
                      >
                        JSON
                      </button>
                      <button
                        type="button"
                        className="button button-small"
                        onClick={() => saveFile(`${result.result_id}.csv`, props.csv(result), "text/csv")}
                        data-testid="export-csv"
                      >
                        CSV
                      </button>
                      <button
                        type="button"
                        className="button button-small button-danger-quiet"
                        disabled={props.deleting.includes(result.result_id)}
                        onClick={() => setPending({ kind: "delete", resultId: result.result_id })}
                        data-testid="delete-result"
                      >
                        {t("history.delete")}
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pending ? (
        <ConfirmDialog
          title={pending.kind === "reset" ? t("history.resetTitle") : t("history.deleteTitle")}
          message={
            pending.kind === "reset"
              ? t("history.resetMessage", { count: shown.length })
              : t("history.deleteMessage")
          }
          confirmLabel={pending.kind === "reset" ? t("history.reset") : t("history.delete")}
          onCancel={() => setPending(null)}
          onConfirm={() => {
            if (pending.kind === "reset") props.onReset(filter || undefined);
            else props.onDelete(pending.resultId);
            setPending(null);
          }}
        />
      ) : null}
    </Card>
  );
}
