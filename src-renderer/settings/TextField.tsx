interface TextFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  hint?: string;
  error?: string;
  type?: "text" | "password" | "url";
  testId?: string;
}

/** A labelled text field with its hint, or its error once the value was refused. */
export function TextField({
  label,
  value,
  onChange,
  placeholder,
  hint,
  error,
  type,
  testId,
}: TextFieldProps) {
  return (
    <label className={error ? "field field-invalid" : "field"}>
      <span className="field-label">{label}</span>
      <input
        type={type ?? "text"}
        value={value}
        placeholder={placeholder}
        autoComplete={type === "password" ? "new-password" : "off"}
        onChange={(event) => onChange(event.target.value)}
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
