// Module hooks for tests that check what a command imports: every resolved URL is appended to
// the file named by TRACE_IMPORTS_FILE.
import fs from "node:fs";

export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (process.env.TRACE_IMPORTS_FILE) fs.appendFileSync(process.env.TRACE_IMPORTS_FILE, `${result.url}\n`);
  return result;
}
