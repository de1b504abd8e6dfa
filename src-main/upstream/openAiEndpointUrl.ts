/**
 * The URL of an OpenAI-compatible endpoint from a server's base URL given with or without `/v1`:
 * `http://host:8080`, `http://host:8080/`, `http://host:8080/v1` and `http://host:8080/v1/` all
 * give `http://host:8080/v1/<endpoint>`.
 */
export function openAiEndpointUrl(baseUrl: string, endpoint: "chat/completions" | "completions"): string {
  const base = baseUrl.replace(/\/+$/, "");
  return /\/v1$/.test(base) ? `${base}/${endpoint}` : `${base}/v1/${endpoint}`;
}
