import { z } from "zod";

/** One check as the sandbox zygote reads it (snake_case: it is read by Python). */
export interface ZygoteRequest {
  id: number;
  code: string;
  /** Run after `code` on restored builtins and standard modules (`SandboxRunRequest.tests`). */
  tests: string | null;
  /** Names the tests take from `code` even where they hide a builtin. */
  test_names: string[];
  stdin: string | null;
  /** Wall-clock limit: the zygote kills the check's process group (and namespace) after it. */
  timeout_s: number;
  /** CPU-time limit per process (RLIMIT_CPU; SIGXCPU past it). */
  cpu_s: number;
  memory_bytes: number | null;
  output_limit_bytes: number;
  file_size_bytes: number;
  /** All the check writes in its dir together: a tmpfs of this size (linux modes), else a watcher. */
  scratch_bytes: number | null;
  processes: number | null;
  env: Record<string, string>;
}

const statusSchema = z.object({
  kind: z.enum(["completed", "exception", "exit", "syntax_error", "sandbox_error"]),
  type: z.string().optional(),
  message: z.string().optional(),
  code: z.number().int().nullable().optional(),
});

/** How one check ended, as the zygote saw it. */
export const zygoteResponseSchema = z.object({
  id: z.number().int().nullable().optional(),
  /** What the check's own process reported last; null when it died or exited without reporting. */
  status: statusSchema.nullable().optional(),
  exit_code: z.number().int().nullable().optional(),
  signal: z.number().int().nullable().optional(),
  timed_out: z.boolean().optional(),
  output_exceeded: z.boolean().optional(),
  /** Its CPU time reached the limit (so a SIGKILL was the kernel's hard CPU limit). */
  cpu_exceeded: z.boolean().optional(),
  /** Its dir was full (the tmpfs) or over the quota (the watcher). */
  scratch_exceeded: z.boolean().optional(),
  stdout: z.string().optional(),
  stderr: z.string().optional(),
  duration_s: z.number().optional(),
  cpu_s: z.number().nullable().optional(),
  /** Set when the zygote (not the candidate) failed; the Node side also sets it when the zygote died. */
  sandbox_error: z.string().optional(),
});
export type ZygoteResponse = z.infer<typeof zygoteResponseSchema>;

export const zygoteReadySchema = z.object({
  ready: z.literal(true),
  mode: z.string(),
  namespace_init: z.boolean(),
  python: z.string(),
});
export type ZygoteReady = z.infer<typeof zygoteReadySchema>;
