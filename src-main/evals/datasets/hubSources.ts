import type { BenchmarkName } from "../../../src-shared/contracts/accuracy.js";
import { PerchError } from "../../base/PerchError.js";
import type { DatasetRow } from "./DatasetReader.js";
import type { DatasetSource } from "./DatasetSource.js";

const liveCodeBenchFiles = [
  "test.jsonl",
  "test2.jsonl",
  "test3.jsonl",
  "test4.jsonl",
  "test5.jsonl",
  "test6.jsonl",
];

/** `release_vN` is the union of the first N files (each release appends one). */
function liveCodeBenchRelease(release: number): DatasetSource {
  return {
    repo: "livecodebench/code_generation_lite",
    // Unpinned (no commit id was available to verify); the release files are append-only by name.
    revision: "main",
    files: liveCodeBenchFiles.slice(0, release),
    title: `LiveCodeBench (release_v${release})`,
    columns: ["question_id", "question_content", "platform", "contest_date", "public_test_cases"],
  };
}

/** MBPP's splits are task_id ranges: prompt 1–10, test 11–510, validation 511–600, train 601–974. */
const inMbppTestSplit = (row: DatasetRow) =>
  typeof row.task_id === "number" && row.task_id >= 11 && row.task_id <= 510;

const mbpp = (config: "full" | "sanitized"): DatasetSource => ({
  repo: "google-research-datasets/mbpp",
  revision: "4bb6404fdc6cacfda99d4ac4205087b89d32030c",
  files: [`${config}/test-00000-of-00001.parquet`],
  title: config === "full" ? "full MBPP" : "sanitized MBPP",
  columns: ["task_id", config === "full" ? "text" : "prompt", "code", "test_list"],
  rowCount: config === "full" ? 500 : 257,
  inSplit: inMbppTestSplit,
});

const gsm8k: DatasetSource = {
  repo: "openai/gsm8k",
  revision: "cc7b047b6e5bb11b4f1af84efc572db110a51b3c",
  files: ["main/test-00000-of-00001.parquet"],
  title: "GSM8K",
  columns: ["question", "answer"],
  rowCount: 1319,
};

/**
 * Where each benchmark variant's rows live on the Hub, at pinned revisions (SOURCES.md says how
 * each layout was checked). Variants that differ only in prompting share their rows.
 */
export const hubSources: Record<BenchmarkName, Record<string, DatasetSource>> = {
  humaneval: {
    test: {
      repo: "openai/openai_humaneval",
      revision: "7dce6050a7d6d172f3cc5c32aa97f52fa1a2e544",
      files: ["openai_humaneval/test-00000-of-00001.parquet"],
      title: "HumanEval",
      columns: ["task_id", "prompt", "canonical_solution", "test", "entry_point"],
      rowCount: 164,
    },
  },
  mbpp: { full: mbpp("full"), sanitized: mbpp("sanitized") },
  gsm8k: { zero_shot: gsm8k, few_shot: gsm8k },
  livecodebench: Object.fromEntries(
    liveCodeBenchFiles.map((_file, index) => [`release_v${index + 1}`, liveCodeBenchRelease(index + 1)]),
  ),
  mmlu: {
    test: {
      repo: "cais/mmlu",
      revision: "c30699e8356da336a370243923dbaf21066bb9fe",
      files: ["all/test-00000-of-00001.parquet"],
      title: "MMLU (test)",
      columns: ["question", "subject", "choices", "answer"],
      rowCount: 14042,
    },
  },
  mmlu_pro: {
    test: {
      repo: "TIGER-Lab/MMLU-Pro",
      revision: "b189ec765aa7ed75c8acfea42df31fdae71f97be",
      files: ["data/test-00000-of-00001.parquet"],
      title: "MMLU-Pro (test)",
      columns: ["question_id", "question", "options", "answer_index", "category"],
      rowCount: 12032,
    },
  },
  arc_challenge: {
    test: {
      repo: "allenai/ai2_arc",
      revision: "210d026faf9955653af8916fad021475a3f00453",
      files: ["ARC-Challenge/test-00000-of-00001.parquet"],
      title: "ARC-Challenge (test)",
      columns: ["id", "question", "choices", "answerKey"],
      rowCount: 1172,
    },
  },
  hellaswag: {
    validation: {
      repo: "Rowan/hellaswag",
      // The repo's main branch holds a loading script; the Hub's parquet export is the data.
      revision: "refs/convert/parquet",
      files: ["default/validation/0000.parquet"],
      title: "HellaSwag (validation)",
      columns: ["ind", "activity_label", "ctx", "endings", "label"],
      rowCount: 10042,
    },
  },
  truthfulqa_mc1: {
    validation: {
      repo: "truthfulqa/truthful_qa",
      revision: "741b8276f2d1982aa3d5b832d3ee81ed3b896490",
      files: ["multiple_choice/validation-00000-of-00001.parquet"],
      title: "TruthfulQA MC1 (validation)",
      columns: ["question", "mc1_targets"],
      rowCount: 817,
    },
  },
  winogrande: {
    validation: {
      repo: "allenai/winogrande",
      revision: "80a230ebd8264349cca0c400a9b4f08f26d1fc75",
      files: ["winogrande_xl/validation-00000-of-00001.parquet"],
      title: "WinoGrande (validation)",
      columns: ["sentence", "option1", "option2", "answer"],
      rowCount: 1267,
    },
  },
};

/** The source of one variant; an unknown variant is the caller's error. */
export function hubSource(benchmark: BenchmarkName, variant: string): DatasetSource {
  const source = hubSources[benchmark][variant];
  if (!source) {
    const known = Object.keys(hubSources[benchmark]).join(", ");
    throw new PerchError("invalid_request", `unknown ${benchmark} variant "${variant}" (known: ${known})`, {
      param: "variant",
    });
  }
  return source;
}
