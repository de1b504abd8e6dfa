import type { ButtonHTMLAttributes } from "react";

/**
 * A button that is unavailable for a while (its work running) without losing the keyboard's
 * focus: a focused button that turns `disabled` drops the focus to the page, so Enter on Rescan
 * disk or Load sent a keyboard user back to the top. This one says so with aria-disabled (read
 * out, drawn as disabled) and ignores clicks meanwhile, and the focus stays on it.
 */
export function BusyButton({
  unavailable,
  onClick,
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { unavailable: boolean }) {
  return (
    <button
      type="button"
      {...props}
      aria-disabled={unavailable || undefined}
      onClick={(event) => {
        if (unavailable) {
          event.preventDefault();
          return;
        }
        onClick?.(event);
      }}
    />
  );
}
