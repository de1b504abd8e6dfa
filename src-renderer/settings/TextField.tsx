import { FieldFrame } from "./FieldFrame.js";

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
    <FieldFrame label={label} hint={hint} error={error}>
      <input
        type={type ?? "text"}
        value={value}
        placeholder={placeholder}
        autoComplete={type === "password" ? "new-password" : "off"}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        data-testid={testId}
      />
    </FieldFrame>
  );
}
