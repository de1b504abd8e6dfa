import {
  defaultHfEndpoint,
  defaultModelScopeEndpoint,
  type GlobalSettings,
} from "../../src-shared/contracts/settings.js";

export interface HubEndpoints {
  hf: string;
  modelscope: string;
  /** The Hugging Face token: the settings' one, else `$HF_TOKEN`; undefined when neither is set. */
  hfToken: string | undefined;
  hfTokenSource: "settings" | "environment" | null;
}

/**
 * Which hubs to talk to: the settings win, then `HF_ENDPOINT` / `MODELSCOPE_ENDPOINT` (the
 * usual way to point at a mirror), then the public sites. Trailing slashes are dropped. The Hub
 * token likewise: the settings' one, else `HF_TOKEN`.
 */
export function resolveHubEndpoints(
  settings: Pick<GlobalSettings, "hf_endpoint" | "modelscope_endpoint"> &
    Partial<Pick<GlobalSettings, "hf_token">>,
  env: NodeJS.ProcessEnv = process.env,
): HubEndpoints {
  const pick = (...candidates: (string | null | undefined)[]) =>
    (candidates.find((value) => typeof value === "string" && value.trim().length > 0) as string).replace(
      /\/+$/,
      "",
    );
  const environmentToken = env.HF_TOKEN?.trim() ? env.HF_TOKEN.trim() : undefined;
  const hfTokenSource = settings.hf_token ? "settings" : environmentToken ? "environment" : null;
  return {
    hfToken: settings.hf_token ?? environmentToken,
    hfTokenSource,
    hf: pick(settings.hf_endpoint, env.HF_ENDPOINT, defaultHfEndpoint),
    modelscope: pick(settings.modelscope_endpoint, env.MODELSCOPE_ENDPOINT, defaultModelScopeEndpoint),
  };
}
