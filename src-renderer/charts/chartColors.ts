/** Series colours: distinguishable, and readable on white (WCAG non-text contrast ≥ 3:1). */
export const chartColors = ["#0a63c9", "#c2410c", "#15803d", "#7e22ce", "#b91c1c", "#0e7490", "#a16207"];
export const ppColor = "#0a63c9";
export const tgColor = "#c2410c";
