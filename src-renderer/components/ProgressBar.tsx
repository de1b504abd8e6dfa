interface ProgressBarProps {
  /** 0..1; null shows an indeterminate bar. */
  value: number | null;
  label?: string;
  testId?: string;
}

export function ProgressBar({ value, label, testId }: ProgressBarProps) {
  const percent = value === null ? null : Math.max(0, Math.min(1, value)) * 100;
  return (
    <div
      className={percent === null ? "progress progress-indeterminate" : "progress"}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent === null ? undefined : Math.round(percent)}
      data-testid={testId}
    >
      <div className="progress-fill" style={percent === null ? undefined : { width: `${percent}%` }} />
    </div>
  );
}
