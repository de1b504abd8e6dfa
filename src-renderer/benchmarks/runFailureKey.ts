/**
 * The i18n key of a sentence saying what went wrong with a run and what to do next, from the
 * error's stable code (the raw message stays available as a detail).
 */
export function runFailureKey(code: string | null, message: string | null): string {
  switch (code) {
    case "upstream_error":
      return "bench.runs.failure.download";
    case "model_not_found":
      return "bench.runs.failure.modelNotFound";
    case "model_load_failed":
      return "bench.runs.failure.load";
    case "insufficient_memory":
      return "bench.runs.failure.memory";
    case "storage_error":
      return "bench.runs.failure.storage";
    case "context_length_exceeded":
      return "bench.runs.failure.context";
    default:
      // Older servers and some failures carry no code: a download failure still reads as one.
      return message && /download|fetch failed|ENOTFOUND|ECONNREFUSED/i.test(message)
        ? "bench.runs.failure.download"
        : "bench.runs.failure.other";
  }
}
