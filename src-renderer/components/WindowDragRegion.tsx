import { useEffect } from "react";
import { hasInsetTitleBar } from "./hasInsetTitleBar.js";

/**
 * The strip across the top of the Mac app's window that moves it (controls inside it stay
 * clickable), and the mark on `<html>` that keeps the sidebar brand clear of the traffic lights.
 * Renders nothing in a browser.
 */
export function WindowDragRegion() {
  const inset = hasInsetTitleBar(window as unknown as Parameters<typeof hasInsetTitleBar>[0]);
  useEffect(() => {
    if (inset) document.documentElement.dataset.titleBar = "inset";
  }, [inset]);
  return inset ? (
    <div className="window-drag-region" aria-hidden="true" data-testid="window-drag-region" />
  ) : null;
}
