import { parseDecimal } from "../format/parseDecimal.js";
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
        // Text, not `number`: a browser in English refuses the decimal comma a German UI invites
        // (`0,7` became `07`); `parseDecimal` reads both.
        type="text"
        inputMode="decimal"
        value={value}
        placeholder={placeholder}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={(event) => {
          // The arrow keys step the value, as they did in a number field.
          const by = Number(step);
          if ((event.key !== "ArrowUp" && event.key !== "ArrowDown") || !(by > 0)) return;
          const current = parseDecimal(value);
          if (current !== undefined && Number.isNaN(current)) return;
          event.preventDefault();
          const decimals = (step!.split(".")[1] ?? "").length;
          const next = (current ?? 0) + (event.key === "ArrowUp" ? by : -by);
          onChange(next.toFixed(decimals));
        }}
        onBlur={onBlur}
        aria-invalid={error ? true : undefined}
        data-testid={testId}
      />
    </FieldFrame>
  );
}
