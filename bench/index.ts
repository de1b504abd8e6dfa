import fs from "node:fs";
import path from "node:path";
import os from "node:os";
import { printTable, type BenchSection } from "./BenchSection.js";
import { benchSections } from "./benchSections.js";

// `npm run bench` runs every default section; `npm run bench -- soak engine` runs the named ones.
const requested = process.argv.slice(2).filter((arg) => !arg.startsWith("-"));
const selected: BenchSection[] =
  requested.length > 0
    ? benchSections.filter((section) => requested.includes(section.name))
    : benchSections.filter((section) => !section.onDemand);
if (requested.length > 0 && selected.length !== requested.length) {
  const known = benchSections.map((section) => section.name).join(", ");
  process.stderr.write(`Unknown bench section in ${requested.join(", ")}; known: ${known}\n`);
  process.exit(2);
}

const report: Record<string, unknown> = {
  created_at: new Date().toISOString(),
  machine: {
    platform: process.platform,
    arch: process.arch,
    cpus: os.cpus()[0]?.model,
    cores: os.cpus().length,
    memory_bytes: os.totalmem(),
    node: process.version,
  },
  sections: {},
};
let failed = false;
for (const section of selected) {
  process.stdout.write(`\n== ${section.name} ==\n`);
  try {
    const { json, table } = await section.run();
    (report.sections as Record<string, unknown>)[section.name] = json;
    for (const part of table) printTable(part.title, part.rows);
  } catch (error) {
    failed = true;
    (report.sections as Record<string, unknown>)[section.name] = { error: (error as Error).message };
    process.stderr.write(`section ${section.name} failed: ${(error as Error).stack}\n`);
  }
}
const outDir = path.resolve("bench/results");
fs.mkdirSync(outDir, { recursive: true });
const file = path.join(outDir, `bench-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
fs.copyFileSync(file, path.join(outDir, "latest.json"));
process.stdout.write(`\nJSON report: ${file}\n`);
process.exit(failed ? 1 : 0);
