import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Card } from "../components/Card.js";
import { ErrorNote } from "../components/ErrorNote.js";
import type { AccuracyRunForm } from "../store/createRunsSlice.js";
import { usePerch } from "../store/usePerch.js";
import { evalBatchSizes } from "../../src-shared/contracts/evalQueue.js";
import { accuracyBenchmarks } from "./benchmarkCatalog.js";
import { CheckboxGroup } from "./CheckboxGroup.js";
import { ModelSelect } from "./ModelSelect.js";
import { useSelectedModel } from "./useSelectedModel.js";

/** Starts an accuracy run: suites, sample size, batch size, sampling profile, thinking. */
export function AccuracyRunCard() {
  const { t } = useTranslation();
  const [modelId, setModelId] = useSelectedModel();
  const starting = usePerch((state) => state.startingRun === "accuracy");
  const runError = usePerch((state) => (state.runError?.kind === "accuracy" ? state.runError.error : null));
  const start = usePerch((state) => state.startAccuracyRun);
  const [form, setForm] = useState<Omit<AccuracyRunForm, "modelId">>({
    benchmarks: ["humaneval"],
    sampleSize: 20,
    batchSize: 4,
    samplingProfile: "deterministic",
    thinking: "auto",
  });
  const update = (patch: Partial<typeof form>) => setForm((current) => ({ ...current, ...patch }));

  return (
    <Card title={t("bench.accuracy.title")} testId="accuracy-run-card">
      <form
        className="run-form"
        onSubmit={(event) => {
          event.preventDefault();
          void start({ ...form, modelId });
        }}
      >
        <div className="form-row">
          <span className="form-label">{t("bench.model")}</span>
          <ModelSelect value={modelId} onChange={setModelId} testId="accuracy-model" />
        </div>
        <div className="form-row form-row-top">
          <span className="form-label">{t("bench.accuracy.benchmarks")}</span>
          <CheckboxGroup
            options={accuracyBenchmarks.map((benchmark) => ({
              value: benchmark.id,
              label: benchmark.name,
              title: benchmark.size ? t("bench.accuracy.questions", { count: benchmark.size }) : undefined,
            }))}
            selected={form.benchmarks}
            onChange={(benchmarks) => update({ benchmarks })}
            testId="accuracy-benchmarks"
          />
        </div>
        <div className="form-row">
          <label className="form-label" htmlFor="accuracy-sample-size">
            {t("bench.accuracy.sampleSize")}
          </label>
          <div className="inline-controls">
            <input
              id="accuracy-sample-size"
              type="number"
              min={1}
              step={1}
              className="input-narrow"
              value={form.sampleSize ?? ""}
              placeholder={t("bench.accuracy.all")}
              onChange={(event) =>
                update({ sampleSize: event.target.value === "" ? null : Number(event.target.value) })
              }
              data-testid="accuracy-sample-size"
            />
            <span className="muted">{t("bench.accuracy.sampleHint")}</span>
          </div>
        </div>
        <div className="form-row">
          <span className="form-label" id="accuracy-batch-size-label">
            {t("bench.accuracy.batchSize")}
          </span>
          <div
            className="segmented"
            role="radiogroup"
            aria-labelledby="accuracy-batch-size-label"
            data-testid="accuracy-batch-size"
            // A radio group: one Tab stop (the chosen size), the arrow keys choose.
            onKeyDown={(event) => {
              const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
              if (step === undefined) return;
              event.preventDefault();
              const at = evalBatchSizes.indexOf(form.batchSize);
              const next = evalBatchSizes[(at + step + evalBatchSizes.length) % evalBatchSizes.length]!;
              update({ batchSize: next });
              const buttons = event.currentTarget.querySelectorAll<HTMLButtonElement>("[role=radio]");
              buttons[evalBatchSizes.indexOf(next)]?.focus();
            }}
          >
            {evalBatchSizes.map((size) => (
              <button
                key={size}
                type="button"
                role="radio"
                aria-checked={form.batchSize === size}
                tabIndex={form.batchSize === size ? 0 : -1}
                className={form.batchSize === size ? "segment segment-on" : "segment"}
                onClick={() => update({ batchSize: size })}
              >
                {size}
              </button>
            ))}
          </div>
        </div>
        <div className="form-row">
          <label className="form-label" htmlFor="accuracy-sampling">
            {t("bench.accuracy.sampling")}
          </label>
          <select
            id="accuracy-sampling"
            value={form.samplingProfile}
            onChange={(event) =>
              update({ samplingProfile: event.target.value as AccuracyRunForm["samplingProfile"] })
            }
            data-testid="accuracy-sampling"
          >
            <option value="deterministic">{t("bench.accuracy.deterministic")}</option>
            <option value="model_settings">{t("bench.accuracy.modelSettings")}</option>
          </select>
        </div>
        <div className="form-row">
          <label className="form-label" htmlFor="accuracy-thinking">
            {t("bench.accuracy.thinking")}
          </label>
          <select
            id="accuracy-thinking"
            value={form.thinking}
            onChange={(event) => update({ thinking: event.target.value as AccuracyRunForm["thinking"] })}
            data-testid="accuracy-thinking"
          >
            <option value="auto">{t("bench.accuracy.thinkingAuto")}</option>
            <option value="on">{t("bench.accuracy.thinkingOn")}</option>
            <option value="off">{t("bench.accuracy.thinkingOff")}</option>
          </select>
        </div>
        <ErrorNote
          error={runError}
          testId="accuracy-run-error"
          labels={{ sample_size: t("bench.accuracy.sampleSize"), benchmarks: t("bench.accuracy.benchmarks") }}
        />
        <div className="form-actions">
          <button
            type="submit"
            className="button button-primary"
            disabled={starting || !modelId || form.benchmarks.length === 0}
            data-testid="start-accuracy-run"
          >
            {starting ? t("bench.starting") : t("bench.accuracy.start")}
          </button>
        </div>
      </form>
    </Card>
  );
}
