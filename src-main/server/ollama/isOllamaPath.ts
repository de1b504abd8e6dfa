/** Whether a request path (without its query) is under Ollama's API, whose errors take Ollama's shape. */
export function isOllamaPath(path: string): boolean {
  return path === "/api" || path.startsWith("/api/");
}
