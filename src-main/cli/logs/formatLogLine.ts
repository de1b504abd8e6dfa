const levelNames: Record<number, string> = {
  10: "TRACE",
  20: "DEBUG",
  30: "INFO",
  40: "WARN",
  50: "ERROR",
  60: "FATAL",
};
const standardFields = new Set(["level", "time", "pid", "hostname", "module", "msg"]);

/** A pino JSON line as `time LEVEL module: message {other fields}`; other text as it is. */
export function formatLogLine(line: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  if (typeof record !== "object" || record === null) return line;
  const time = typeof record.time === "number" ? new Date(record.time).toISOString() : "";
  const level = levelNames[record.level as number] ?? String(record.level ?? "");
  const module = typeof record.module === "string" ? `${record.module}: ` : "";
  const rest = Object.fromEntries(Object.entries(record).filter(([key]) => !standardFields.has(key)));
  const extra = Object.keys(rest).length > 0 ? ` ${JSON.stringify(rest)}` : "";
  return `${time} ${level.padEnd(5)} ${module}${String(record.msg ?? "")}${extra}`;
}
