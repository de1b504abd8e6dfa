import type { CommunityUploadPayload } from "../../../src-shared/contracts/performance.js";
import { PerchError } from "../../base/PerchError.js";
import type { ResolvedModel } from "../../engine/LoadedModel.js";
import { buildUploadPayload, type UploadPayloadInput } from "./buildUploadPayload.js";
import { describeSystem, type SystemFacts } from "./describeSystem.js";
import type { FileHashCache } from "./FileHashCache.js";
import { readOwnerHash } from "./readOwnerHash.js";
import { errorMessage } from "../../base/describeError.js";

export interface PayloadBuilderOptions {
  /** Base folder holding the owner salt. */
  basePath: string;
  /** Maps a model id to its file (the catalog's resolver). */
  resolveModel: (modelId: string) => Promise<ResolvedModel>;
  hashes: FileHashCache;
  /** Hardware and OS facts. Defaults to `describeSystem`. */
  system?: () => Promise<SystemFacts>;
}

export type PayloadBuilder = (
  result: UploadPayloadInput["result"] & { model_id: string },
) => Promise<CommunityUploadPayload>;

/**
 * Builds the payload of a local result: hashes the model file (cached), reads the owner hash and
 * the system facts. The same function serves uploads and the dashboard's preview, so the preview
 * is exactly what would be sent.
 */
export function createPayloadBuilder(options: PayloadBuilderOptions): PayloadBuilder {
  return async (result) => {
    const model = await options.resolveModel(result.model_id).catch((error: unknown) => {
      throw new PerchError(
        "model_not_found",
        `The model file of '${result.model_id}' is needed for its sha256 and could not be found: ${errorMessage(error)}`,
      );
    });
    const [fileSha256, ownerHash, system] = await Promise.all([
      options.hashes.sha256(model.path),
      readOwnerHash(options.basePath),
      (options.system ?? describeSystem)(),
    ]);
    return buildUploadPayload({ result, fileSha256, ownerHash, system });
  };
}
