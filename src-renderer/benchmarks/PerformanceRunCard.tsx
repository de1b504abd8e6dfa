import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Card } from "../components/Card.js";
import { ErrorNote } from "../components/ErrorNote.js";
import { usePerch } from "../store/usePerch.js";
import { perfBatchSizeOptions, perfPromptLengthOptions } from "../../src-shared/contracts/performance.js";
import type { ConcurrentRequests, PromptLength } from "../store/createRunsSlice.js";
import { CheckboxGroup } from "./CheckboxGroup.js";
import { ModelSelect } from "./ModelSelect.js";
import { UploadChoice } from "./UploadChoice.js";
import { useSelectedModel } from "./useSelectedModel.js";

/** Starts a performance run: prompt lengths, batch sizes, and the opt-in community upload. */
export function PerformanceRunCard() {
  const { t } = useTranslation();
  const [modelId, setModelId] = useSelectedModel();
  const models = usePerch((state) => state.models);
  const starting = usePerch((state) => state.startingRun === "performance");
  const runError = usePerch((state) =>
    state.runError?.kind === "performance" ? state.runError.error : null,
  );
  const upload = usePerch((state) => state.uploadChoice);
  const start = usePerch((state) => state.startPerformanceRun);
  const [promptLengths, setPromptLengths] = useState<PromptLength[]>([512, 1024]);
  const [batchSizes, setBatchSizes] = useState<ConcurrentRequests[]>([4]);
  const model = models.find((candidate) => candidate.id === modelId);
  const context = model?.settings.context_size ?? model?.gguf?.context_length ?? null;
  const fits = (length: number) => context === null || length + 128 <= context;
  const chosenLengths = promptLengths.filter(fits);

  return (
    <Card title={t("bench.performance.title")} testId="performance-run-card">
      <form
        className="run-form"
        onSubmit={(event) => {
          event.preventDefault();
          void start({ modelId, promptLengths: chosenLengths, batchSizes, upload });
        }}
      >
        <div className="form-row">
          <span className="form-label">{t("bench.model")}</span>
          <ModelSelect value={modelId} onChange={setModelId} testId="performance-model" />
        </div>
        <div className="form-row form-row-top">
          <span className="form-label">{t("bench.performance.promptLengths")}</span>
          <CheckboxGroup
            options={perfPromptLengthOptions.map((length) => ({
              value: length,
              label: length >= 1024 ? `${length / 1024}K` : String(length),
              disabled: !fits(length),
              title: fits(length) ? undefined : t("bench.performance.tooLong", { tokens: context ?? 0 }),
            }))}
            selected={chosenLengths}
            onChange={setPromptLengths}
            testId="performance-prompt-lengths"
          />
        </div>
        <div className="form-row form-row-top">
          <span className="form-label">{t("bench.performance.batchSizes")}</span>
          <CheckboxGroup
            options={perfBatchSizeOptions.map((size) => ({ value: size, label: `×${size}` }))}
            selected={batchSizes}
            onChange={setBatchSizes}
            testId="performance-batch-sizes"
          />
        </div>
        <UploadChoice modelId={modelId} />
        <ErrorNote error={runError} testId="performance-run-error" />
        <div className="form-actions">
          <span className="muted">{t("bench.performance.generated")}</span>
          <button
            type="submit"
            className="button button-primary"
            disabled={starting || !modelId || chosenLengths.length === 0}
            data-testid="start-performance-run"
          >
            {starting ? t("bench.starting") : t("bench.performance.start")}
          </button>
        </div>
      </form>
    </Card>
  );
}
