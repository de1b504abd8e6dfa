import { useEffect, useRef, type RefObject } from "react";

/**
 * Gives the focus to `target` when `open` turns false (an inline edit or rename box closing by
 * Enter, Escape or Cancel), so it goes back to the control that opened it, not to the page.
 */
export function useFocusWhenClosed(open: boolean, target: RefObject<HTMLElement | null>): void {
  const wasOpen = useRef(false);
  useEffect(() => {
    if (wasOpen.current && !open) target.current?.focus();
    wasOpen.current = open;
  }, [open, target]);
}
