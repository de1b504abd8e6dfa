import { Command } from "commander";
import type { LoadedModelInfo, ServerStats } from "../../src-shared/contracts/stats.js";
import { describeOtherFolders, lookUpServer } from "./client/findServer.js";
import { formatSeconds } from "./formatEvalSummary.js";
import { formatBytes } from "../../src-shared/text/formatBytes.js";
import { formatTable } from "./formatTable.js";
import { addGlobalOptions, type GlobalOptionValues } from "./globalOptions.js";
import { reportError } from "./reportError.js";

/** `perch ps`: what the running server holds — memory, TTL left, requests in flight and queued. */
export function createPsCommand(): Command {
  return addGlobalOptions(new Command("ps"))
    .description("show the models the running server has loaded")
    .option("--json", "print the server's stats as JSON")
    .action(async (options: GlobalOptionValues & { json?: boolean }) => {
      try {
        const { server, url, otherFolders } = await lookUpServer(options);
        if (!server) {
          // Scripts get JSON either way: no server holds nothing.
          if (options.json) {
            // The same shape as a server's answer, all of it idle.
            const idle = {
              running: false,
              url,
              models: [],
              totals: {
                activeSequences: 0,
                queueDepth: 0,
                generatedTokensLastMinute: 0,
                tokensPerSecond: 0,
                promptCache: { lookups: 0, hits: 0, hitRate: 0, reusedTokens: 0, ramBytes: 0, diskBytes: 0 },
              },
              loadedModels: [],
              at: new Date().toISOString(),
            };
            process.stdout.write(`${JSON.stringify(idle, null, 2)}\n`);
          } else if (otherFolders) {
            process.stdout.write(
              `${describeOtherFolders(url, otherFolders)}; no server for those folders runs. Leave out --models-dir to see its models.\n`,
            );
          } else {
            process.stdout.write(
              `No server is running at ${url}, so no model is loaded. Start one: perch serve\n`,
            );
          }
          return;
        }
        const stats = await server.request("stats");
        // One shape with or without a server: `running` and `url` first, then the server's stats.
        if (options.json)
          process.stdout.write(`${JSON.stringify({ running: true, url: server.url, ...stats }, null, 2)}\n`);
        else process.stdout.write(formatPs(stats, Date.parse(stats.at)));
      } catch (error) {
        process.exitCode = reportError("ps", error);
      }
    });
}

export function formatPs(stats: ServerStats, now: number): string {
  if (stats.loadedModels.length === 0) return "No model is loaded.\n";
  const scheduling = new Map(stats.models.map((model) => [model.modelId, model]));
  return formatTable(
    ["NAME", "STATE", "MEMORY", "CONTEXT", "TTL LEFT", "ACTIVE", "QUEUED", "TOK/S"],
    stats.loadedModels.map((model) => {
      const lane = scheduling.get(model.id);
      return [
        model.id,
        model.state,
        formatBytes(model.estimatedBytes),
        lane ? String(lane.contextSize) : "-",
        describeTtl(model, now),
        // Requests of its own: a model without a lane (a draft a target holds) has none to count.
        lane ? String(lane.activeSequences) : "-",
        String(lane?.queueDepth ?? 0),
        lane ? lane.tokensPerSecond.toFixed(1) : "-",
      ];
    }),
  );
}

function describeTtl(model: LoadedModelInfo, now: number): string {
  if (model.pinned) return "pinned";
  if (model.ttlSeconds <= 0) return "never";
  if (model.ttlSuspended) return "held by a run";
  if (model.activeUsers > 0) return "in use";
  const left = model.ttlSeconds - (now - model.lastUsedAt) / 1000;
  return formatSeconds(Math.max(0, left));
}
