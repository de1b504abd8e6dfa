import type { ReactNode } from "react";

interface FieldFrameProps {
  label: string;
  hint?: string;
  error?: string;
  /** The control itself (an input). */
  children: ReactNode;
}

/** The frame every settings field shares: its label, the control, then its error or hint. */
export function FieldFrame({ label, hint, error, children }: FieldFrameProps) {
  return (
    <label className={error ? "field field-invalid" : "field"}>
      <span className="field-label">{label}</span>
      {children}
      {error ? (
        <span className="field-error">{error}</span>
      ) : hint ? (
        <span className="field-hint">{hint}</span>
      ) : null}
    </label>
  );
}
