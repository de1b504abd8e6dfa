/** One section of `npm run bench`: its JSON goes into the report, its rows into the printed table. */
export interface BenchSection {
  name: string;
  /** Sections run only when named (`npm run bench -- soak`). */
  onDemand?: boolean;
  run: () => Promise<{ json: unknown; table: { title: string; rows: Record<string, string | number>[] }[] }>;
}

export function printTable(title: string, rows: Record<string, string | number>[]): void {
  process.stdout.write(`\n${title}\n`);
  if (rows.length === 0) {
    process.stdout.write("  (no rows)\n");
    return;
  }
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const cell = (value: string | number | undefined) =>
    value === undefined ? "" : typeof value === "number" ? formatNumber(value) : value;
  const widths = columns.map((column) =>
    Math.max(column.length, ...rows.map((row) => cell(row[column]).length)),
  );
  const line = (values: string[]) => `  ${values.map((value, i) => value.padEnd(widths[i])).join("  ")}\n`;
  process.stdout.write(line(columns));
  process.stdout.write(line(widths.map((width) => "-".repeat(width))));
  for (const row of rows) process.stdout.write(line(columns.map((column) => cell(row[column]))));
}

function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value)) return String(value);
  return Math.abs(value) >= 100 ? value.toFixed(1) : value.toFixed(3);
}
