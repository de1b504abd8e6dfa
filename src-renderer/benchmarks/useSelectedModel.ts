import { pickDefaultModel } from "../models/pickDefaultModel.js";
import { usePerch } from "../store/usePerch.js";

/** The model the benchmark page is about: the one picked, else the default (never a draft or embedding model). */
export function useSelectedModel(): [string, (modelId: string) => void] {
  const picked = usePerch((state) => state.benchmarkModelId);
  const models = usePerch((state) => state.models);
  const setModel = usePerch((state) => state.setBenchmarkModelId);
  const available = models.filter((model) => !model.missing);
  const modelId = available.some((model) => model.id === picked)
    ? (picked as string)
    : (pickDefaultModel(models)?.id ?? "");
  return [modelId, setModel];
}
