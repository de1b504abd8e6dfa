import { useState } from "react";
import { useTranslation } from "react-i18next";
import { suggestedModelTags } from "../../src-shared/contracts/settings.js";
import { isComposing } from "../components/isComposing.js";
import { addTags, splitTagInput } from "./SettingsDraft.js";

interface TagsEditorProps {
  tags: string[];
  /** Tags the GGUF header suggests for this model (shown first, highlighted). */
  suggested: string[];
  onChange: (tags: string[]) => void;
  error?: string;
}

/**
 * Chips with remove buttons, a text field (Enter or comma adds; `x, y, z` typed or pasted adds
 * three), and one-click suggestions.
 */
export function TagsEditor({ tags, suggested, onChange, error }: TagsEditorProps) {
  const { t } = useTranslation();
  const [input, setInput] = useState("");
  const suggestions = suggestedModelTags.filter(
    (tag) => !tags.some((existing) => existing.toLowerCase() === tag.toLowerCase()),
  );
  const commit = () => {
    if (!input.trim()) return;
    onChange(addTags(tags, input));
    setInput("");
  };

  return (
    <div className="tags-editor" data-testid="tags-editor">
      <div className={error ? "tags-box tags-box-invalid" : "tags-box"}>
        {tags.map((tag) => (
          <span key={tag} className="chip chip-tag chip-removable" data-testid="editor-tag">
            {tag}
            <button
              type="button"
              aria-label={t("settings.tags.remove", { tag })}
              onClick={() => onChange(tags.filter((other) => other !== tag))}
              data-testid={`remove-tag-${tag}`}
            >
              ×
            </button>
          </span>
        ))}
        <input
          value={input}
          placeholder={tags.length === 0 ? t("settings.tags.placeholder") : ""}
          aria-label={t("settings.tags.label")}
          onChange={(event) => {
            const value = event.target.value;
            // While an IME composes, its text is not final: split it once it is.
            const { done, rest } = (event.nativeEvent as InputEvent).isComposing
              ? { done: [], rest: value }
              : splitTagInput(value);
            if (done.length > 0) onChange(addTags(tags, done.join(",")));
            setInput(rest);
          }}
          onKeyDown={(event) => {
            if (isComposing(event)) return;
            if (event.key === "Enter") {
              event.preventDefault();
              commit();
            } else if (event.key === "Backspace" && input === "" && tags.length > 0) {
              onChange(tags.slice(0, -1));
            }
          }}
          onBlur={commit}
          data-testid="tag-input"
        />
      </div>
      {suggestions.length > 0 ? (
        <div className="tag-suggestions">
          <span className="muted">{t("settings.tags.suggestions")}</span>
          {suggestions.map((tag) => (
            <button
              key={tag}
              type="button"
              className={
                suggested.includes(tag) ? "chip chip-suggestion chip-suggested" : "chip chip-suggestion"
              }
              title={suggested.includes(tag) ? t("settings.tags.fromHeader") : undefined}
              onClick={() => onChange(addTags(tags, tag))}
              data-testid={`suggest-tag-${tag}`}
            >
              + {tag}
            </button>
          ))}
        </div>
      ) : null}
      {error ? <div className="field-error">{error}</div> : null}
    </div>
  );
}
