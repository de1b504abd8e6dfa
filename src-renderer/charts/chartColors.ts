import { useSyncExternalStore } from "react";

/** Series colours: distinguishable, and readable on white (WCAG non-text contrast ≥ 3:1). */
export const chartColors = ["#0a63c9", "#c2410c", "#15803d", "#7e22ce", "#b91c1c", "#0e7490", "#a16207"];
export const ppColor = "#0a63c9";
export const tgColor = "#c2410c";

/**
 * The same series for the dark theme's cards: light enough to read as legend text there (each
 * ≥ 4.5:1 on #252528; the light-theme blue was 2.65:1).
 */
export const darkChartColors = ["#8cbcff", "#f4a06b", "#6fd08c", "#c9a3ff", "#ff8a8a", "#5fd3e6", "#e6c05c"];

export interface ChartPalette {
  series: readonly string[];
  pp: string;
  tg: string;
}

const light: ChartPalette = { series: chartColors, pp: ppColor, tg: tgColor };
const dark: ChartPalette = { series: darkChartColors, pp: darkChartColors[0]!, tg: darkChartColors[1]! };
const darkQuery = "(prefers-color-scheme: dark)";

function subscribe(onChange: () => void): () => void {
  const query = window.matchMedia(darkQuery);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

/** The palette of the theme in use (it follows the system, as the page's CSS does). */
export function useChartPalette(): ChartPalette {
  const isDark = useSyncExternalStore(
    subscribe,
    () => window.matchMedia(darkQuery).matches,
    () => false,
  );
  return isDark ? dark : light;
}
