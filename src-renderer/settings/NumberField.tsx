interface NumberFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  hint?: string;
  error?: string;
  step?: string;
  testId?: string;
  /** Called when the field loses focus (to save a value once it is typed). */
  onBlur?: () => void;
}

/** A labelled numeric text field; empty means "use the default" (shown as placeholder). */
export function NumberField({
  label,
  value,
  onChange,
  placeholder,
  hint,
  error,
  step,
  testId,
  onBlur,
}: NumberFieldProps) {
  return (
    <label className={error ? "field field-invalid" : "field"}>
      <span className="field-label">{label}</span>
      <input
        type="number"
        inputMode="decimal"
        step={step ?? "any"}
        value={value}
        placeholder={placeholder}
        onChange={(event) => onChange(event.target.value)}
        onBlur={onBlur}
        aria-invalid={error ? true : undefined}
        data-testid={testId}
      />
      {error ? (
        <span className="field-error">{error}</span>
      ) : hint ? (
        <span className="field-hint">{hint}</span>
      ) : null}
    </label>
  );
}
