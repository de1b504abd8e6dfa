/**
 * A failed run's error as the CLI says it: a dataset download that could not reach the Hub names
 * the Hub and the ways around it (a local file, a mirror, the cache).
 */
export function explainEvalFailure(
  error: { code: string; message: string },
  hubUrl: string | undefined,
): string {
  if (error.code !== "upstream_error") return `${error.message} (${error.code})`;
  const hub = hubUrl ?? process.env.HF_ENDPOINT ?? "https://huggingface.co";
  return (
    `The Hugging Face Hub (${hub}) could not be reached to download the dataset: ${error.message}. ` +
    "Give a local copy with --dataset FILE, point HF_ENDPOINT at a mirror, or use what is cached with --offline. " +
    `(${error.code})`
  );
}
