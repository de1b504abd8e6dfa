import { useTranslation } from "react-i18next";
import type { ModelRow } from "../../src-shared/contracts/models.js";
import type { AccuracyResult } from "../../src-shared/contracts/accuracy.js";
import { formatBytes } from "../../src-shared/text/formatBytes.js";
import { formatParameters } from "../format/formatParameters.js";
import { repoUrl } from "../format/repoUrl.js";
import { AccuracyChips } from "./AccuracyChips.js";
import { LoadStateIndicator } from "./LoadStateIndicator.js";
import { fileName, modelDisplayName } from "./modelDisplayName.js";
import { ModelRowActions } from "./ModelRowActions.js";
import { SourceBadge } from "./SourceBadge.js";
import { SpeedSummary } from "./SpeedSummary.js";
import { TagChips } from "./TagChips.js";
import { UpdateStatusBadge } from "./UpdateStatusBadge.js";

interface ModelRowViewProps {
  model: ModelRow;
  accuracyResults: AccuracyResult[];
}

/** One model: identity and source, tags, accuracy, speed, size, state, actions. */
export function ModelRowView({ model, accuracyResults }: ModelRowViewProps) {
  const { t } = useTranslation();
  const name = modelDisplayName(model);
  const url = repoUrl(model.source, model.repo);
  const facts = [
    model.gguf?.quantization,
    model.gguf?.architecture,
    formatParameters(model.gguf?.parameter_count),
  ].filter(Boolean);

  return (
    <div
      className={model.missing ? "model-row model-row-missing" : "model-row"}
      role="row"
      data-testid="model-row"
      data-model-id={model.id}
    >
      <div className="model-identity" role="cell">
        <div className="model-title">
          <span className="model-name" data-testid="model-name" title={name}>
            {name}
          </span>
          <SourceBadge source={model.source} />
          <UpdateStatusBadge model={model} />
          {url ? (
            <a
              className="repo-link"
              href={url}
              target="_blank"
              rel="noreferrer"
              data-testid="repo-link"
              title={t("models.openRepo")}
            >
              {model.repo} ↗
            </a>
          ) : null}
        </div>
        <div className="model-details" title={model.path}>
          {model.settings.alias ? (
            <span className="model-id" title={model.id}>
              {model.id}
            </span>
          ) : null}
          {facts.length > 0 ? <span className="model-facts">{facts.join(" · ")}</span> : null}
          <span className="model-facts model-size-inline">{formatBytes(model.size_bytes)}</span>
          <span className="model-file" data-testid="model-file">
            {fileName(model.path)}
          </span>
        </div>
        {model.gguf_error && !model.missing ? (
          <div
            className="notice notice-warning model-unreadable"
            data-testid="model-unreadable"
            title={model.gguf_error}
          >
            {t("models.load.unreadable", { error: model.gguf_error })}
          </div>
        ) : (
          <LoadStateIndicator model={model} />
        )}
      </div>
      <div className="model-tags" role="cell">
        <TagChips tags={model.tags} />
      </div>
      <div className="model-accuracy" role="cell">
        <AccuracyChips model={model} results={accuracyResults} />
      </div>
      <div className="model-speed" role="cell">
        <SpeedSummary model={model} />
      </div>
      <div className="model-size" role="cell" data-testid="model-size">
        {formatBytes(model.size_bytes)}
      </div>
      <div className="model-actions" role="cell">
        <ModelRowActions model={model} name={name} />
      </div>
    </div>
  );
}
