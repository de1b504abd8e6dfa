import {
  defaultHfEndpoint,
  defaultModelScopeEndpoint,
  type GlobalSettings,
} from "../../src-shared/contracts/settings.js";

export interface HubEndpoints {
  hf: string;
  modelscope: string;
}

/**
 * Which hubs to talk to: the settings win, then `HF_ENDPOINT` / `MODELSCOPE_ENDPOINT` (the
 * usual way to point at a mirror), then the public sites. Trailing slashes are dropped.
 */
export function resolveHubEndpoints(
  settings: Pick<GlobalSettings, "hf_endpoint" | "modelscope_endpoint">,
  env: NodeJS.ProcessEnv = process.env,
): HubEndpoints {
  const pick = (...candidates: (string | null | undefined)[]) =>
    (candidates.find((value) => typeof value === "string" && value.trim().length > 0) as string).replace(
      /\/+$/,
      "",
    );
  return {
    hf: pick(settings.hf_endpoint, env.HF_ENDPOINT, defaultHfEndpoint),
    modelscope: pick(settings.modelscope_endpoint, env.MODELSCOPE_ENDPOINT, defaultModelScopeEndpoint),
  };
}
