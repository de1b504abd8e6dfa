import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ErrorNote } from "../components/ErrorNote.js";
import { isComposing } from "../components/isComposing.js";
import { modelChoiceLabels, modelDisplayName } from "../models/modelDisplayName.js";
import { isHelperModel, pickDefaultModel } from "../models/pickDefaultModel.js";
import { usePerch } from "../store/usePerch.js";
import { replyFailureKey } from "./replyFailureKey.js";
import { ReplyStats } from "./ReplyStats.js";
import { useChatSettings } from "./useChatSettings.js";
import { useFocusWhenLost } from "./useFocusWhenLost.js";

/**
 * The same prompt to two models side by side, each reply with its time to first token and speed:
 * the quickest way to choose between models. Each side is saved as a conversation of its own.
 */
export function ComparePanel() {
  const { t } = useTranslation();
  const models = usePerch((state) => state.models);
  const comparison = usePerch((state) => state.comparison);
  const compareModels = usePerch((state) => state.compareModels);
  const stopComparison = usePerch((state) => state.stopComparison);
  const { model_id: chatModel } = useChatSettings();
  const choices = models.filter((model) => !model.missing);
  const labels = modelChoiceLabels(choices);
  const first = chatModel ?? pickDefaultModel(models)?.id ?? "";
  const [left, setLeft] = useState(first);
  const [right, setRight] = useState(choices.find((model) => model.id !== first)?.id ?? first);
  const [prompt, setPrompt] = useState(comparison?.prompt ?? "");
  const running = comparison?.lanes.some((lane) => lane.status === "running") ?? false;
  // Compare turns disabled when the replies start and Stop goes away when they end: the focus
  // either had fell to the page (a keyboard user started again from the top). It comes to the
  // prompt instead, never taken from anything else that has it (as the chat's message box does).
  const promptBox = useRef<HTMLTextAreaElement>(null);
  useFocusWhenLost(promptBox, running);
  const select = (value: string, onChange: (id: string) => void, testId: string) => (
    <select value={value} onChange={(event) => onChange(event.target.value)} data-testid={testId}>
      {choices.map((model) => (
        <option key={model.id} value={model.id}>
          {labels.get(model.id)}
          {isHelperModel(model, models) ? ` · ${t("chat.helperModel")}` : ""}
        </option>
      ))}
    </select>
  );
  return (
    <div className="compare-panel" data-testid="compare-panel">
      <form
        className="compare-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (prompt.trim() && left && right && !running) void compareModels(prompt.trim(), [left, right]);
        }}
      >
        <div className="compare-models">
          {select(left, setLeft, "compare-model-left")}
          <span className="muted">{t("chat.compare.versus")}</span>
          {select(right, setRight, "compare-model-right")}
        </div>
        <textarea
          ref={promptBox}
          rows={2}
          value={prompt}
          placeholder={t("chat.compare.placeholder")}
          onChange={(event) => setPrompt(event.target.value)}
          // As in the message box: Enter runs it, Shift+Enter breaks the line.
          onKeyDown={(event) => {
            if (event.key === "Enter" && !event.shiftKey && !isComposing(event)) {
              event.preventDefault();
              event.currentTarget.form?.requestSubmit();
            }
          }}
          data-testid="compare-prompt"
        />
        <div className="toolbar">
          <button
            type="submit"
            className="button button-primary"
            disabled={running || !prompt.trim()}
            data-testid="compare-run"
          >
            {t("chat.compare.run")}
          </button>
          {running ? (
            // The chat's composer (and its Stop) is hidden while comparing: this stops both sides.
            <button
              type="button"
              className="button"
              disabled={comparison?.stopping}
              onClick={() => void stopComparison()}
              data-testid="compare-stop"
            >
              {comparison?.stopping ? t("chat.stopping") : t("chat.stop")}
            </button>
          ) : null}
        </div>
      </form>
      {comparison ? (
        <div className="compare-lanes">
          {comparison.lanes.map((lane, index) => {
            const model = models.find((entry) => entry.id === lane.modelId);
            return (
              <section
                key={index}
                className="compare-lane"
                data-testid="compare-lane"
                data-status={lane.status}
              >
                <h3 className="compare-lane-title">
                  {model ? (labels.get(model.id) ?? modelDisplayName(model)) : lane.modelId}
                </h3>
                {lane.text || lane.status === "running" ? (
                  <div className="compare-text">{lane.text || "…"}</div>
                ) : null}
                <ErrorNote error={lane.error} />
                {lane.failure ? (
                  <p className="chat-failure" role="alert" data-testid="chat-failure">
                    {t(replyFailureKey(lane.failure.code), { message: lane.failure.message })}
                  </p>
                ) : null}
                {lane.finishReason === "cancelled" ? <p className="chat-note">{t("chat.stopped")}</p> : null}
                {lane.stats ? <ReplyStats stats={lane.stats} /> : null}
              </section>
            );
          })}
        </div>
      ) : (
        <p className="muted compare-empty">{t("chat.compare.hint")}</p>
      )}
    </div>
  );
}
