import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Benchmark, BenchmarkItem } from "../src-main/evals/benchmarks/Benchmark.js";
import { humanEvalBenchmark } from "../src-main/evals/benchmarks/humaneval/humanEvalBenchmark.js";
import type { HumanEvalItem } from "../src-main/evals/benchmarks/humaneval/HumanEvalItem.js";
import { liveCodeBenchBenchmark } from "../src-main/evals/benchmarks/livecodebench/liveCodeBenchBenchmark.js";
import { mbppBenchmark } from "../src-main/evals/benchmarks/mbpp/mbppBenchmark.js";
import type { MbppItem } from "../src-main/evals/benchmarks/mbpp/MbppItem.js";
import { LocalFileDatasetReader } from "../src-main/evals/datasets/LocalFileDatasetReader.js";
import { InlineSandbox } from "../src-main/evals/scoring/InlineSandbox.js";
import type { CodeSandbox } from "../src-main/evals/scoring/SandboxRun.js";
import { SandboxPool } from "../src-main/evals/scoring/SandboxPool.js";
import { codeResponseShapes, type ShapeInput } from "../tests/corpus/codeResponseShapes.js";
import {
  humanEvalBrokenBody,
  humanEvalShapeInput,
  humanEvalWrongBody,
  liveCodeBenchShapeInput,
  mbppBrokenCode,
  mbppShapeInput,
  mbppWrongCode,
} from "../tests/corpus/codeShapeCases.js";
import { printTable, type BenchSection } from "./BenchSection.js";
import { splitResponse } from "../src-main/evals/runner/splitResponse.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dataset = (name: string) =>
  new LocalFileDatasetReader(
    name.endsWith(".jsonl") && name.startsWith("livecodebench")
      ? path.join(repoRoot, "tests/unit/evals/fixtures", name)
      : path.join(repoRoot, "tests/fixtures/datasets", `${name}.gz`),
  );

interface SetCase<Item> {
  item: Item;
  right: ShapeInput;
  /** Negatives only for a deterministic part of large sets (every one for HumanEval). */
  negatives: { wrong: ShapeInput; wrongProgram: string | null; broken: ShapeInput } | null;
}

interface ShapeRow {
  set: string;
  shape: string;
  correct: number;
  of: number;
  wrong_right_type: number;
  wrong_of: number;
  broken_syntax_error: number;
  broken_of: number;
}

/** Scores one set in every shape: positives must pass, negatives fail with their right type. */
async function scoreSet<Item extends BenchmarkItem>(
  set: string,
  benchmark: Benchmark<Item>,
  cases: SetCase<Item>[],
  sandbox: CodeSandbox,
): Promise<{ rows: ShapeRow[]; misses: string[] }> {
  const misses: string[] = [];
  const truth = await Promise.all(
    cases.map(async ({ negatives }) =>
      negatives?.wrongProgram
        ? (await sandbox.run({ code: negatives.wrongProgram })).outcome
        : "wrong_answer",
    ),
  );
  const rows: ShapeRow[] = [];
  for (const shape of codeResponseShapes) {
    const row: ShapeRow = {
      set,
      shape: shape.name,
      correct: 0,
      of: cases.length,
      wrong_right_type: 0,
      wrong_of: 0,
      broken_syntax_error: 0,
      broken_of: 0,
    };
    await Promise.all(
      cases.map(async ({ item, right, negatives }, index) => {
        const score = (input: ShapeInput) =>
          benchmark.score(item, splitResponse(shape.dress(input)), { sandbox });
        const pass = await score(right);
        if (pass.correct) row.correct += 1;
        else misses.push(`${set} ${shape.name} ${item.id}: ${pass.failure_type} ${pass.error}`);
        if (!negatives) return;
        const [wrong, broken] = await Promise.all([score(negatives.wrong), score(negatives.broken)]);
        row.wrong_of += 1;
        row.broken_of += 1;
        if (!wrong.correct && wrong.failure_type === truth[index]) row.wrong_right_type += 1;
        else misses.push(`${set} ${shape.name} ${item.id} wrong: ${wrong.pass_mode ?? wrong.failure_type}`);
        if (broken.failure_type === "syntax_error") row.broken_syntax_error += 1;
        else
          misses.push(`${set} ${shape.name} ${item.id} broken: ${broken.pass_mode ?? broken.failure_type}`);
      }),
    );
    rows.push(row);
  }
  return { rows, misses };
}

const humanEvalCase = (item: HumanEvalItem): SetCase<HumanEvalItem> => ({
  item,
  right: humanEvalShapeInput(item),
  negatives: {
    wrong: humanEvalShapeInput(item, humanEvalWrongBody),
    wrongProgram: `${item.prompt}${humanEvalWrongBody}\n${item.test}\ncheck(${item.entryPoint})\n`,
    broken: humanEvalShapeInput(item, humanEvalBrokenBody(item)),
  },
});

const mbppCase = (item: MbppItem, index: number): SetCase<MbppItem> => ({
  item,
  right: mbppShapeInput(item),
  negatives:
    index % 5 === 0
      ? {
          wrong: mbppShapeInput(item, mbppWrongCode(item)),
          wrongProgram: `${mbppWrongCode(item)}\n${item.setup}\n${item.tests.join("\n")}\n`,
          broken: mbppShapeInput(item, mbppBrokenCode(item)),
        }
      : null,
});

/**
 * Seconds per item to score the canonical set as it always came (HumanEval bodies and fenced
 * full functions, MBPP plain code), one item after another on one sandbox process: what the
 * candidate search costs on answers that need none of it.
 */
export async function canonicalSecondsPerItem(): Promise<Record<string, number>> {
  const sandbox = await InlineSandbox.create({ processes: 1 });
  await sandbox.run({ code: "pass" });
  const humanEval = await humanEvalBenchmark.loadItems({ datasets: dataset("HumanEval.jsonl") });
  const mbpp = await mbppBenchmark.loadItems({ datasets: dataset("mbpp.jsonl") });
  const time = async <Item>(items: Item[], score: (item: Item) => Promise<unknown>) => {
    const started = performance.now();
    for (const item of items) await score(item);
    return (performance.now() - started) / 1000 / items.length;
  };
  const context = { sandbox };
  const result = {
    humaneval_body: await time(humanEval, (item) =>
      humanEvalBenchmark.score(item, splitResponse(item.canonicalSolution), context),
    ),
    humaneval_fenced: await time(humanEval, (item) =>
      humanEvalBenchmark.score(
        item,
        splitResponse(`\`\`\`python\n${item.prompt}${item.canonicalSolution}\`\`\``),
        context,
      ),
    ),
    mbpp_plain: await time(mbpp, (item) => mbppBenchmark.score(item, splitResponse(item.code), context)),
  };
  await sandbox.close();
  return result;
}

export const evalShapesSection: BenchSection = {
  name: "evals",
  onDemand: true,
  run: async () => {
    // `PERCH_EVAL_SHAPES_SETS=humaneval,livecodebench` runs only those sets (the whole section takes a while).
    const only = process.env.PERCH_EVAL_SHAPES_SETS?.split(",").filter(Boolean);
    const wanted = (set: string) => !only || only.includes(set);
    const seconds = wanted("timing") || !only ? await canonicalSecondsPerItem() : {};
    const pool = await SandboxPool.create();
    const sets = [];
    if (wanted("humaneval")) {
      const items = await humanEvalBenchmark.loadItems({ datasets: dataset("HumanEval.jsonl") });
      sets.push(await scoreSet("humaneval", humanEvalBenchmark, items.map(humanEvalCase), pool));
    }
    for (const [set, file] of [
      ["mbpp", "mbpp.jsonl"],
      ["mbpp-sanitized", "sanitized-mbpp.json"],
    ] as const) {
      if (!wanted(set)) continue;
      const items = await mbppBenchmark.loadItems({ datasets: dataset(file) });
      sets.push(await scoreSet(set, mbppBenchmark, items.map(mbppCase), pool));
    }
    if (wanted("livecodebench")) {
      const items = await liveCodeBenchBenchmark.loadItems({ datasets: dataset("livecodebench.jsonl") });
      const cases = items.map((item) => {
        const right = liveCodeBenchShapeInput(item, "right");
        return {
          item,
          right,
          negatives: {
            wrong: liveCodeBenchShapeInput(item, "wrong"),
            wrongProgram: null,
            broken: { ...right, code: `${right.code}\nresult = (` },
          },
        };
      });
      sets.push(await scoreSet("livecodebench", liveCodeBenchBenchmark, cases, pool));
    }
    await pool.close();
    const rows = sets.flatMap((set) => set.rows);
    const misses = sets.flatMap((set) => set.misses);
    return {
      json: { canonical_seconds_per_item: seconds, shapes: rows, misses: misses.slice(0, 200) },
      table: [
        {
          title: "Canonical set, sequential on one sandbox process: seconds per item",
          rows: Object.entries(seconds).map(([set, value]) => ({ set, seconds_per_item: value })),
        },
        {
          title: `Response shapes: canonical solutions that pass, negatives with their right failure type (${misses.length} misses)`,
          rows: rows.map((row) => ({
            set: row.set,
            shape: row.shape,
            correct: `${row.correct}/${row.of}`,
            wrong: `${row.wrong_right_type}/${row.wrong_of}`,
            syntax: `${row.broken_syntax_error}/${row.broken_of}`,
          })),
        },
        { title: "First misses", rows: misses.slice(0, 20).map((miss) => ({ miss })) },
      ],
    };
  },
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { json, table } = await evalShapesSection.run();
  for (const { title, rows } of table) printTable(title, rows);
  process.stdout.write(
    `\n${JSON.stringify((json as { canonical_seconds_per_item: unknown }).canonical_seconds_per_item)}\n`,
  );
}
