import { FieldFrame } from "./FieldFrame.js";

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
    <FieldFrame label={label} hint={hint} error={error}>
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
    </FieldFrame>
  );
}
