import fs from "node:fs";
import path from "node:path";
import writeFileAtomic from "write-file-atomic";
import type {
  AccuracyResult,
  BenchmarkName,
  EffectiveSampling,
  QuestionResult,
  SamplingProfile,
} from "../../../src-shared/contracts/accuracy.js";
import type { EvalRunRequest } from "../../../src-shared/contracts/evalQueue.js";
import type { ModelFile } from "../../../src-shared/contracts/results.js";
import { createLogger } from "../../base/createLogger.js";
import { errorMessage } from "../../base/describeError.js";

const log = createLogger("evals");

/** What a partial result needs besides its questions: written when a benchmark of a run starts. */
export interface JournalHeader {
  run_id: string;
  model_id: string;
  benchmark: BenchmarkName;
  variant: string;
  batch_size: number;
  sampling_profile: SamplingProfile;
  effective_sampling: EffectiveSampling;
  thinking: boolean;
  started_at: string;
  /** The local model's file, as the result records it. */
  model_file?: ModelFile;
}

/** A run the queue held (waiting or running) when its process ended. */
export interface JournaledRun {
  run_id: string;
  request: EvalRunRequest;
  created_at: string;
  started_at: string | null;
}

/** A saved result but for its id and date, which the saver gives. */
export type PartialResult = Omit<AccuracyResult, "result_id" | "created_at">;

/** What a process that ended without closing its queue left behind. */
export interface InterruptedWork {
  runs: JournaledRun[];
  /** Partial results of the benchmarks that were running, by run id. */
  partials: Map<string, PartialResult>;
}

/** A question's result with its dataset position (results are saved in dataset order). */
type Line = { index: number; question: QuestionResult } | { thinking: true };

function alive(pid: number): boolean {
  if (pid === process.pid) return false; // a leftover of an earlier process that had our pid
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * The eval queue on disk, so a crash (kill -9, power loss) leaves a trace: `queue-<pid>.json`
 * (the runs waiting or running, rewritten atomically on each change) and `<pid>-<run>.jsonl` (the
 * running benchmark's header, then one appended line per answered question; a line cut by the
 * crash is skipped). A process recovers only files of processes that are gone, so a CLI run and
 * a server sharing the base folder never take each other's. Writing never fails a run.
 */
export class EvalJournal {
  #pending: Promise<unknown> = Promise.resolve();

  constructor(readonly dir: string) {}

  #queueFile(pid = process.pid) {
    return path.join(this.dir, `queue-${pid}.json`);
  }

  #runFile(runId: string, pid = process.pid) {
    return path.join(this.dir, `${pid}-${runId}.jsonl`);
  }

  /** Chains writes in order; a failed write is logged and never reaches the run. */
  #then(what: string, write: () => Promise<unknown>): Promise<unknown> {
    this.#pending = this.#pending
      .then(write)
      .catch((error: unknown) => log.warn({ err: errorMessage(error), what }, "eval journal write failed"));
    return this.#pending;
  }

  saveQueue(runs: JournaledRun[]): Promise<unknown> {
    // The runs are recorded, never rerun: an external endpoint's key stays out of the file.
    const redacted = runs.map((run) =>
      run.request.external
        ? { ...run, request: { ...run.request, external: { ...run.request.external, api_key: undefined } } }
        : run,
    );
    return this.#then("queue", async () => {
      if (redacted.length === 0) return fs.promises.rm(this.#queueFile(), { force: true });
      await fs.promises.mkdir(this.dir, { recursive: true });
      await writeFileAtomic(this.#queueFile(), JSON.stringify({ pid: process.pid, runs: redacted }), {
        mode: 0o600,
      });
    });
  }

  startBenchmark(header: JournalHeader): Promise<unknown> {
    return this.#then("start", async () => {
      await fs.promises.mkdir(this.dir, { recursive: true });
      await writeFileAtomic(this.#runFile(header.run_id), `${JSON.stringify(header)}\n`, { mode: 0o600 });
    });
  }

  append(runId: string, line: Line): Promise<unknown> {
    return this.#then("answer", () =>
      fs.promises.appendFile(this.#runFile(runId), `${JSON.stringify(line)}\n`),
    );
  }

  /** The benchmark's result is saved (or it failed): its journal goes. */
  endBenchmark(runId: string): Promise<unknown> {
    return this.#then("end", () => fs.promises.rm(this.#runFile(runId), { force: true }));
  }

  /** Waits for the writes so far (tests, shutdown). */
  flush(): Promise<unknown> {
    return this.#pending;
  }

  /**
   * Reads what processes that are gone left, and removes it: call once at startup, before this
   * process writes. Unreadable files are skipped (and removed).
   */
  takeInterrupted(): InterruptedWork {
    const work: InterruptedWork = { runs: [], partials: new Map() };
    let names: string[];
    try {
      names = fs.readdirSync(this.dir);
    } catch {
      return work;
    }
    for (const name of names) {
      const queue = /^queue-(\d+)\.json$/.exec(name);
      const run = /^(\d+)-(.+)\.jsonl$/.exec(name);
      const pid = Number((queue ?? run)?.[1]);
      if (!(queue ?? run) || alive(pid)) continue;
      const file = path.join(this.dir, name);
      try {
        const text = fs.readFileSync(file, "utf8");
        if (queue) work.runs.push(...(JSON.parse(text) as { runs: JournaledRun[] }).runs);
        else {
          const partial = readPartial(text, fs.statSync(file).mtimeMs);
          if (partial) work.partials.set(run![2], partial);
        }
      } catch (error) {
        log.warn({ file, err: errorMessage(error) }, "unreadable eval journal skipped");
      }
      fs.rmSync(file, { force: true });
    }
    return work;
  }
}

/** The result a cancel would have saved, from a journal's header and answered questions. */
function readPartial(text: string, lastWriteMs: number): PartialResult | null {
  const [first, ...rest] = text.split("\n");
  const header = JSON.parse(first!) as JournalHeader;
  const answered: { index: number; question: QuestionResult }[] = [];
  let thinking = header.thinking;
  for (const raw of rest) {
    if (!raw.trim()) continue;
    let line: Line;
    try {
      line = JSON.parse(raw) as Line;
    } catch {
      continue; // the line the crash cut
    }
    if ("question" in line) answered.push(line);
    else thinking = true;
  }
  const questions = answered.sort((a, b) => a.index - b.index).map((line) => line.question);
  if (questions.length === 0) return null;
  // Counted as the runner counts: scoring and generation errors are out of the accuracy.
  const judged = questions.filter(
    (question) =>
      question.failure_type !== "scoring_error" &&
      question.failure_type !== "generation_error" &&
      question.failure_type !== "cancelled",
  );
  const correct = judged.filter((question) => question.correct).length;
  const generation = questions.reduce((sum, question) => sum + question.time_s, 0);
  return {
    model_id: header.model_id,
    benchmark: header.benchmark,
    variant: header.variant,
    accuracy: judged.length === 0 ? 0 : correct / judged.length,
    total: judged.length,
    batch_size: header.batch_size,
    sampling_profile: header.sampling_profile,
    effective_sampling: header.effective_sampling,
    thinking,
    status: "cancelled",
    questions,
    // Until the last answer was written: the crash itself left no time.
    timings: {
      total_s: Math.max(0, (lastWriteMs - Date.parse(header.started_at)) / 1000) || 0,
      generation_s: generation,
      scoring_s: 0,
    },
    ...(header.model_file ? { model_file: header.model_file } : {}),
  };
}
