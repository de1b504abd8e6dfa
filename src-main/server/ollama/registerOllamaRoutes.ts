import type { FastifyInstance } from "fastify";
import { ollamaDeleteRequestSchema, ollamaShowRequestSchema } from "../../../src-shared/contracts/ollama.js";
import type { LoadedModelInfo } from "../../../src-shared/contracts/stats.js";
import { PerchError } from "../../base/PerchError.js";
import { ollamaModelNames } from "../../catalog/ollamaModelNames.js";
import type { OllamaRouteDeps } from "./OllamaRouteDeps.js";
import { parseOllamaBody } from "./parseOllamaBody.js";
import { registerOllamaEmbedRoutes } from "./registerOllamaEmbedRoutes.js";
import { registerOllamaGenerationRoutes } from "./registerOllamaGenerationRoutes.js";
import { registerOllamaPullRoute } from "./registerOllamaPullRoute.js";
import { resolveOllamaModel } from "./resolveOllamaModel.js";
import { showOllamaModel } from "./showOllamaModel.js";
import { ollamaDigest, toOllamaDetails } from "./toOllamaDetails.js";
import { sendOllamaError, toOllamaError } from "./toOllamaError.js";

/** The Ollama API level Perch follows (what `/api/version` answers; clients gate features on it). */
export const ollamaApiVersion = "0.12.0";

/** A `keep_alive` that never expires, as Ollama writes it. */
const never = "9999-12-31T23:59:59Z";

/**
 * When a loaded model unloads if nothing uses it meanwhile (ms), or `"never"`: its idle TTL from
 * now while requests hold it, else from its last use. A draft model held by loaded targets
 * (speculative decoding) is released when the last of them unloads; its TTL runs from then.
 */
function expiresAt(
  info: LoadedModelInfo,
  loaded: readonly LoadedModelInfo[],
  seen = new Set<string>(),
): number | "never" {
  if (info.pinned || info.ttlSuspended) return "never";
  // `keep_alive: 0` on a busy model: it goes as soon as its requests end, i.e. about now.
  if (info.unloadWhenIdle) return info.activeUsers > 0 ? Date.now() : info.lastUsedAt;
  if (info.ttlSeconds <= 0) return "never";
  seen.add(info.id);
  let idleSince = info.activeUsers > 0 ? Date.now() : info.lastUsedAt;
  for (const targetId of info.draftFor ?? []) {
    const target = loaded.find((candidate) => candidate.id === targetId);
    if (!target || seen.has(targetId)) continue;
    const released = expiresAt(target, loaded, seen);
    if (released === "never") return "never";
    idleSince = Math.max(idleSince, released);
  }
  return idleSince + info.ttlSeconds * 1000;
}

/**
 * Ollama's HTTP API under `/api` on Perch's port, over the same scheduler, engine and catalog as
 * the OpenAI and Anthropic faces. Errors are Ollama's `{"error": "..."}` with the stable code in
 * `x-perch-error-code`. Names: `ollamaModelNames`.
 */
export async function registerOllamaRoutes(app: FastifyInstance, deps: OllamaRouteDeps): Promise<void> {
  await app.register(
    async (scope) => {
      scope.setErrorHandler((error, request, reply) => {
        const { code } = toOllamaError(error);
        // The server's own handler answers 413 while the body still arrives (and logs it).
        if (code === "body_too_large") throw error;
        sendOllamaError(reply, error);
      });
      scope.setNotFoundHandler((request, reply) =>
        sendOllamaError(
          reply,
          new PerchError("not_found", `404 page not found: ${request.method} ${request.url.split("?")[0]}`),
        ),
      );

      scope.get("/version", async () => ({ version: ollamaApiVersion }));

      scope.get("/tags", async () => {
        // What the folders hold now: a file copied in is listed (and one removed is not). A file
        // whose header is not a readable GGUF is no model a client could run: not listed.
        await deps.refreshModels?.();
        const entries = (await deps.listModels()).filter(
          (entry) => !entry.missing && entry.gguf_error === null,
        );
        const names = ollamaModelNames(entries);
        return {
          models: entries.map((entry) => ({
            name: names.nameOf(entry),
            model: names.nameOf(entry),
            modified_at: entry.updated_at ?? entry.downloaded_at ?? entry.discovered_at,
            size: entry.size_bytes,
            digest: ollamaDigest(entry),
            details: toOllamaDetails(entry),
          })),
        };
      });

      scope.get("/ps", async () => {
        const entries = await deps.listModels();
        const names = ollamaModelNames(entries);
        const loaded = deps.engine.list().filter((info) => info.state === "loaded");
        return {
          models: loaded.flatMap((info) => {
            const entry = entries.find((candidate) => candidate.id === info.id);
            if (!entry) return [];
            const expiry = expiresAt(info, loaded);
            // A draft model has no context of its own: its target's speculation holds one as large.
            const contextLength =
              deps.contextSizeOf(info.id) ??
              (info.draftFor ?? [])
                .map((target) => deps.contextSizeOf(target))
                .find((size) => size !== undefined);
            return [
              {
                name: names.nameOf(entry),
                model: names.nameOf(entry),
                size: info.estimatedBytes,
                digest: ollamaDigest(entry),
                details: toOllamaDetails(entry),
                expires_at: expiry === "never" ? never : new Date(expiry).toISOString(),
                // Perch does not measure how much of a model sits in GPU memory.
                size_vram: 0,
                ...(contextLength ? { context_length: contextLength } : {}),
              },
            ];
          }),
        };
      });

      scope.post("/show", async (request, reply) => {
        const { body, modelName } = parseOllamaBody(request, reply, ollamaShowRequestSchema);
        const id = await resolveOllamaModel(deps, modelName, { required: true });
        const entry = (await deps.listModels()).find((candidate) => candidate.id === id)!;
        return showOllamaModel(entry, await deps.modelSettings(id), body.verbose ?? false);
      });

      scope.delete("/delete", async (request, reply) => {
        const { modelName } = parseOllamaBody(request, reply, ollamaDeleteRequestSchema);
        const id = await resolveOllamaModel(deps, modelName, { required: true });
        const loaded = deps.engine.list().find((info) => info.id === id);
        if (loaded && (loaded.activeUsers > 0 || loaded.state === "loading")) {
          throw new PerchError("conflict", `Cannot delete '${id}': it is in use. Try again when it is idle.`);
        }
        if (loaded) await deps.engine.unload(id);
        await deps.deleteModel(id);
        return reply.status(200).send();
      });

      registerOllamaGenerationRoutes(scope, deps);
      registerOllamaEmbedRoutes(scope, deps);
      registerOllamaPullRoute(scope, deps);
    },
    { prefix: "/api" },
  );
}
