import { useEffect, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { usePerch } from "../store/usePerch.js";

export interface JsonTextFieldProps {
  /** The saved text; null: the option is off. */
  saved: string | null;
  /** Shown when the option is turned on with nothing saved yet. */
  example: string;
  /** Throws (with a message to show) when the parsed value is not the right shape. */
  check: (value: unknown) => void;
  /** Saves the text, or null to turn the option off. */
  onSave: (value: string | null) => void;
  label: string;
  hint: string;
  /** The i18n key of "not valid: {{message}}". */
  invalidKey: string;
  testIds: { toggle: string; text: string };
  rows?: number;
  /** More controls under the text area while the option is on. */
  children?: ReactNode;
}

/** A chat option that is a JSON text: a switch, the text (checked as JSON on blur), its error or hint. */
export function JsonTextField(props: JsonTextFieldProps) {
  const { t } = useTranslation();
  const { saved } = props;
  const [on, setOn] = useState(saved !== null);
  const [text, setText] = useState(saved ?? props.example);
  const [error, setErrorText] = useState<string | null>(null);
  const setChatOptionError = usePerch((state) => state.setChatOptionError);
  const option = props.testIds.text;
  const setError = (message: string | null) => {
    setErrorText(message);
    setChatOptionError(option, message !== null);
  };

  useEffect(() => {
    setOn(saved !== null);
    if (saved !== null) setText(saved);
    setErrorText(null);
    setChatOptionError(option, false);
  }, [saved, option, setChatOptionError]);
  // Unmounted (the options closed): its text is dropped, the saved value applies again.
  useEffect(() => () => setChatOptionError(option, false), [option, setChatOptionError]);

  const save = (enabled: boolean, value: string) => {
    if (!enabled) {
      setError(null);
      if (saved !== null) props.onSave(null);
      return;
    }
    try {
      props.check(JSON.parse(value) as unknown);
      setError(null);
      if (value !== saved) props.onSave(value);
    } catch (failure) {
      setError(
        t(props.invalidKey, { message: failure instanceof Error ? failure.message : String(failure) }),
      );
    }
  };

  return (
    <div className={error ? "field field-invalid chat-json" : "field chat-json"}>
      <label className="field-checkbox">
        <input
          type="checkbox"
          checked={on}
          onChange={(event) => {
            setOn(event.target.checked);
            save(event.target.checked, text);
          }}
          data-testid={props.testIds.toggle}
        />
        <span>{props.label}</span>
      </label>
      {on ? (
        <>
          <textarea
            rows={props.rows ?? 5}
            className="mono"
            value={text}
            spellCheck={false}
            onChange={(event) => setText(event.target.value)}
            onBlur={() => save(true, text)}
            aria-label={props.label}
            aria-invalid={error ? true : undefined}
            data-testid={props.testIds.text}
          />
          {props.children}
        </>
      ) : null}
      {error ? (
        <span className="field-error">{error}</span>
      ) : (
        <span className="field-hint">{props.hint}</span>
      )}
    </div>
  );
}
