interface CheckboxGroupProps<T extends string | number> {
  options: readonly { value: T; label: string; disabled?: boolean; title?: string }[];
  selected: readonly T[];
  onChange: (selected: T[]) => void;
  testId?: string;
}

/** Toggle chips for a multi-choice (benchmarks, prompt lengths, batch sizes). */
export function CheckboxGroup<T extends string | number>({
  options,
  selected,
  onChange,
  testId,
}: CheckboxGroupProps<T>) {
  return (
    <div className="checkbox-group" data-testid={testId}>
      {options.map((option) => {
        const checked = selected.includes(option.value);
        return (
          <label
            key={String(option.value)}
            className={checked ? "toggle-chip toggle-chip-on" : "toggle-chip"}
            title={option.title}
          >
            <input
              type="checkbox"
              checked={checked}
              disabled={option.disabled}
              data-value={String(option.value)}
              onChange={() =>
                onChange(
                  checked
                    ? selected.filter((value) => value !== option.value)
                    : options
                        .map((o) => o.value)
                        .filter((value) => value === option.value || selected.includes(value)),
                )
              }
            />
            {option.label}
          </label>
        );
      })}
    </div>
  );
}
