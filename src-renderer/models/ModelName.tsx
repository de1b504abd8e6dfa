import { usePerch } from "../store/usePerch.js";
import { modelDisplayName } from "./modelDisplayName.js";

/**
 * A model named as the pickers name it (its alias, else the GGUF's name), with its id in the
 * title; an id no model row has (a deleted model, an external server's) shows as it is.
 */
export function ModelName({ modelId }: { modelId: string }) {
  const model = usePerch((state) => state.models.find((entry) => entry.id === modelId));
  return <span title={modelId}>{model ? modelDisplayName(model) : modelId}</span>;
}
