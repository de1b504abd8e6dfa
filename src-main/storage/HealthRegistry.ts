import fs from "node:fs/promises";
import type { HealthWarning } from "../../src-shared/contracts/catalog.js";
import { errorMessage } from "../base/describeError.js";

export type HealthWarningInput = Omit<HealthWarning, "at">;

/**
 * Warnings `GET /admin/api/health` shows: reported ones (a corrupt file moved aside) stay until
 * the process ends or the moved-aside file is deleted; providers (the catalog's missing models) are asked each time, so what they
 * report is always current.
 */
export class HealthRegistry {
  private reported: HealthWarning[] = [];
  private readonly providers = new Set<() => HealthWarningInput[] | Promise<HealthWarningInput[]>>();

  report(warning: HealthWarningInput): void {
    const duplicate = this.reported.some(
      (known) =>
        known.code === warning.code && known.path === warning.path && known.message === warning.message,
    );
    if (!duplicate) this.reported.push({ ...warning, at: new Date().toISOString() });
  }

  /** Registers a source of current warnings; returns a function that removes it. */
  addProvider(provider: () => HealthWarningInput[] | Promise<HealthWarningInput[]>): () => void {
    this.providers.add(provider);
    return () => this.providers.delete(provider);
  }

  async list(): Promise<HealthWarning[]> {
    const at = new Date().toISOString();
    // A moved-aside file the user deleted (as its warning asks) is no longer a warning.
    const present = await Promise.all(
      this.reported.map(async (warning) =>
        warning.code !== "corrupt_file" || !warning.path
          ? true
          : fs.lstat(warning.path).then(
              () => true,
              (error: NodeJS.ErrnoException) => error.code !== "ENOENT",
            ),
      ),
    );
    this.reported = this.reported.filter((_, index) => present[index]);
    const provided = await Promise.all(
      [...this.providers].map(async (provider) => {
        try {
          return await provider();
        } catch (error) {
          return [{ code: "storage_error" as const, message: `Health check failed: ${errorMessage(error)}` }];
        }
      }),
    );
    // A file reported as it was moved aside is also found by the set-aside scan: named once.
    const reportedPaths = new Set(this.reported.map((warning) => warning.path).filter(Boolean));
    const current = provided.flat().filter((warning) => !warning.path || !reportedPaths.has(warning.path));
    return [...this.reported, ...current.map((warning) => ({ ...warning, at }))];
  }
}
