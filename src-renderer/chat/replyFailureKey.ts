/** The i18n key of the sentence (what happened, what to do) for a failed reply's error code. */
export function replyFailureKey(code: string): string {
  switch (code) {
    case "model_not_found":
    case "not_found":
      return "chat.failure.modelNotFound";
    case "insufficient_memory":
      return "chat.failure.memory";
    case "context_length_exceeded":
      return "chat.failure.context";
    case "model_load_failed":
      return "chat.failure.load";
    case "queue_full":
      return "chat.failure.busy";
    case "storage_error":
      return "chat.failure.storage";
    case "invalid_request":
      return "chat.failure.invalid";
    default:
      return "chat.failure.other";
  }
}
