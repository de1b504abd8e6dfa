import {
  LlamaText,
  type ChatModelFunctions,
  type ChatWrapper,
  type ChatWrapperGenerateContextStateOptions,
  type ChatWrapperGeneratedContextState,
} from "node-llama-cpp";

/**
 * The model's own chat format, changed in one way: the answer starts with a tool call. The prompt
 * is what the format renders (all `documented` tools listed, with their parameters); then, instead
 * of letting the model choose between text and a call, `LlamaChat` enters function-calling mode at
 * once, where the function name and its arguments are grammar-constrained to the callable tools.
 * Formats that reach a call through a prefix trigger (gpt-oss: `<|channel|>commentary to=`) get that
 * trigger's injection; formats that start in function mode (Functionary) stay engaged.
 */
export function forceToolCall(base: ChatWrapper, documented: ChatModelFunctions): ChatWrapper {
  const forced = Object.create(base) as ChatWrapper;
  forced.generateContextState = (options: ChatWrapperGenerateContextStateOptions) => {
    const state = base.generateContextState({
      ...options,
      availableFunctions: documented,
      documentFunctionParams: true,
    });
    return forcedState(state);
  };
  return forced;
}

function forcedState(state: ChatWrapperGeneratedContextState): ChatWrapperGeneratedContextState {
  if (state.functionCall) {
    return { ...state, functionCall: { initiallyEngaged: true, disengageInitiallyEngaged: [] } };
  }
  const trigger = state.prefixTriggers?.find((candidate) => candidate.type === "functionCall");
  let inject = LlamaText([]);
  if (trigger?.type === "functionCall") {
    inject =
      trigger.replaceTrigger === false
        ? LlamaText([trigger.triggers[0] ?? "", trigger.inject ?? ""])
        : (trigger.inject ?? LlamaText([]));
  }
  return {
    contextText: state.contextText,
    stopGenerationTriggers: state.stopGenerationTriggers,
    ...(state.rerender ? { rerender: state.rerender } : {}),
    ...(state.detectFunctionCalls !== undefined ? { detectFunctionCalls: state.detectFunctionCalls } : {}),
    noPrefixTrigger: { type: "functionCall", inject },
  };
}
