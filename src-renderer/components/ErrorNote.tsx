import type { ErrorInfo } from "../store/ErrorInfo.js";

/** A failure shown where it happened, with the server's message. */
export function ErrorNote({ error, testId }: { error: ErrorInfo | null; testId?: string }) {
  if (!error) return null;
  return (
    <div className="error-note" role="alert" data-testid={testId}>
      {error.message}
    </div>
  );
}
