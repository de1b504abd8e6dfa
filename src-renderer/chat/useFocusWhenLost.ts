import { useEffect, useRef, type RefObject } from "react";

/**
 * Moves the keyboard's focus to `target` when `trigger` changes and the focus was lost on the way:
 * a button that went away (Send and Stop swap, Regenerate's message is replaced) or turned
 * disabled (the browser moves such focus to the page only at its next rendering step, after this
 * effect). Never takes the focus from anything else that has it, and not on the first render.
 */
export function useFocusWhenLost(target: RefObject<HTMLElement | null>, trigger: unknown): void {
  const mounted = useRef(false);
  useEffect(() => {
    if (!mounted.current) {
      mounted.current = true;
      return;
    }
    const active = document.activeElement;
    const lost =
      active === null || active === document.body || (active instanceof HTMLButtonElement && active.disabled);
    if (lost) target.current?.focus();
  }, [trigger, target]);
}
