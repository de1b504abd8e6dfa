import type { ErrorCode } from "../../src-shared/contracts/errors.js";
import { seededRandom, type Random } from "../../src-main/base/seededRandom.js";

/**
 * A seeded generator of malformed and adversarial HTTP requests across `/v1/*`, Ollama's
 * `/api/*` and `/admin/api/*`. Every request it makes is invalid by construction (one bad part on an
 * otherwise valid request), so the only right answer is a 4xx in the documented error shape.
 * Bodies never make a valid request by accident: mutations replace a field with a value its
 * schema refuses, and requests that could start work (downloads, perf runs) name no real target.
 */

export interface BadRequest {
  /** Category, for reports (`wrong_value`, `invalid_utf8`, ...). */
  kind: string;
  method: string;
  /** Sent as is: percent-escapes and dot segments are not normalized. */
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** Codes a right answer may carry; any code of the enum when absent. */
  codes?: ErrorCode[];
  /** The exact status expected; any 4xx when absent. */
  status?: number;
}

export interface BadRequestContext {
  /** A model that exists (requests stay invalid in some other part). */
  modelId: string;
  /** Tokens the model's context holds; long prompts exceed it. */
  contextTokens: number;
}

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

/** A JSON fragment written verbatim (values JSON.stringify cannot produce, like `1e309`). */
class RawJson {
  constructor(readonly text: string) {}
}

function toJson(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, item: unknown) => {
    if (item instanceof RawJson) {
      raws.push(item.text);
      return `\u0001raw${raws.length - 1}\u0001`;
    }
    return item;
  });
  return text.replace(/"\\u0001raw(\d+)\\u0001"/g, (_match, index: string) => raws[Number(index)]!);
}

const json = { "content-type": "application/json" };
const segment = encodeURIComponent;

interface BodyRoute {
  name: string;
  method: string;
  path: (context: BadRequestContext) => string;
  /** A body that is valid, or harmlessly refused (unknown target), before the mutation. */
  base: (context: BadRequestContext) => Record<string, unknown>;
  /** Values each field's schema refuses. */
  wrong: Record<string, readonly unknown[]>;
  required: readonly string[];
  /** Unknown fields are accepted (Ollama's routes list them in `x-perch-ignored-fields`). */
  loose?: true;
  /** Names a model to generate or embed with (unknown models, long prompts). */
  generates?: true;
}

const wrongMaxTokens = [-1, 0, 1.5, "10", 1e12, 1_000_001, new RawJson("1e309"), true, [], {}];
const wrongSampling = {
  temperature: [-0.1, 2.5, "hot"],
  top_p: [-0.1, 1.5, "x"],
  top_k: [-1, 1.5, 1001],
  min_p: [2, -1],
  presence_penalty: [3, -3],
  frequency_penalty: [9],
  repetition_penalty: [-1, 6],
  stop: [Array.from({ length: 17 }, () => "x"), "", [""], 5, ["x".repeat(513)]],
  seed: [1.5, "s", 2 ** 60],
  // Up to 8 parallel choices are served.
  n: [9, 0, "1", 1.5],
  stream: ["yes", 1],
  stream_options: [{ include_usage: "y" }, "yes"],
  user: [5, "u".repeat(300)],
  logit_bias: [{ a: "x" }, [1], { abc: 1 }, { "99999999": 1 }, { "5": 101 }, { "-1": 1 }],
  service_tier: [5],
};
const wrongModel = [123, null, "", "m".repeat(513), ["x"], {}, true];

const bodyRoutes: BodyRoute[] = [
  {
    name: "chat",
    method: "POST",
    path: () => "/v1/chat/completions",
    generates: true,
    // Unknown fields are dropped and listed in x-perch-ignored-fields (the OpenAI field policy).
    loose: true,
    base: (context) => ({
      model: context.modelId,
      messages: [{ role: "user", content: "hi" }],
      max_tokens: 2,
    }),
    wrong: {
      ...wrongSampling,
      model: wrongModel,
      max_tokens: wrongMaxTokens,
      max_completion_tokens: [-5, 0, 2.5, "x"],
      messages: [
        [],
        "hi",
        [{}],
        [{ role: "wizard", content: "x" }],
        [{ role: "user", content: 5 }],
        [{ role: "user", content: [{ type: "image_url", image_url: { url: "http://x" } }] }],
        [{ role: "tool", content: "x" }],
        [{ role: "assistant", content: "x", tool_calls: [{ id: "c", type: "function" }] }],
        null,
        {},
      ],
      tools: [
        "x",
        [{ type: "function" }],
        [{ type: "function", function: { name: "bad name!" } }],
        [{ type: "code", function: { name: "a" } }],
        [{ type: "function", function: { name: "a", parameters: "x" } }],
        [{ type: "function", function: { name: "x".repeat(65) } }],
      ],
      tool_choice: ["always", { type: "function" }, { type: "function", function: { name: "nope" } }, 5],
      parallel_tool_calls: ["yes", 1],
      // Chat logprobs are a switch; top_logprobs is 0–20 and needs logprobs: true (3 alone is refused).
      logprobs: ["y", 1, {}],
      top_logprobs: [3, 21, -1, 1.5, "5"],
      modalities: [["audio"], "text"],
      functions: ["x", [{ name: "bad name!" }], [{ parameters: {} }], [{ name: "f", parameters: "x" }]],
      function_call: ["always", 5, { name: "nope" }],
      response_format: [
        { type: "xml" },
        { type: "json_schema" },
        { type: "json_schema", json_schema: { schema: "x" } },
        "json",
        { type: "json_object", extra: 1 },
      ],
      metadata: [{ a: 1 }],
      store: ["y"],
    },
    required: ["model", "messages"],
  },
  {
    name: "completions",
    method: "POST",
    path: () => "/v1/completions",
    generates: true,
    // Unknown fields are dropped and listed in x-perch-ignored-fields (the OpenAI field policy).
    loose: true,
    base: (context) => ({ model: context.modelId, prompt: "hi", max_tokens: 2 }),
    wrong: {
      ...wrongSampling,
      model: wrongModel,
      max_tokens: wrongMaxTokens,
      // Lists of strings or token ids are prompts too: these are neither, or outside the vocabulary.
      prompt: [
        5,
        null,
        [],
        ["a", 5],
        {},
        [[]],
        [1.5],
        [1, 10_000_000],
        Array.from({ length: 17 }, () => "x"),
      ],
      echo: ["y"],
      suffix: [5, "refused: the test model has no fill-in-the-middle tokens"],
      best_of: [2],
      // Legacy logprobs: a count 0–5 (true is the chat switch, not a count).
      logprobs: [true, 6, -1, 1.5, "y"],
    },
    required: ["model", "prompt"],
  },
  {
    name: "responses",
    method: "POST",
    path: () => "/v1/responses",
    generates: true,
    // Unknown fields are dropped and listed in x-perch-ignored-fields (the OpenAI field policy).
    loose: true,
    base: (context) => ({ model: context.modelId, input: "hi", max_output_tokens: 2 }),
    wrong: {
      model: wrongModel,
      max_output_tokens: wrongMaxTokens,
      temperature: [-0.1, 2.5, "hot"],
      top_p: [1.5, "x"],
      input: [
        5,
        {},
        [5],
        [{ role: "robot", content: "x" }],
        [{ role: "user", content: [{ type: "input_image" }] }],
      ],
      instructions: [5],
      previous_response_id: [5, "resp_unknown"],
      tools: [[{ type: "web_search" }], [{ type: "function" }], "x"],
      tool_choice: ["always", { type: "function" }],
      text: [{ format: { type: "xml" } }, { format: { type: "json_schema" } }],
      store: ["y"],
    },
    required: ["model"],
  },
  {
    name: "messages",
    method: "POST",
    path: () => "/v1/messages",
    generates: true,
    loose: true,
    base: (context) => ({
      model: context.modelId,
      messages: [{ role: "user", content: "hi" }],
      max_tokens: 2,
    }),
    wrong: {
      model: wrongModel,
      max_tokens: [...wrongMaxTokens, null],
      messages: [
        [],
        [{ role: "system", content: "x" }],
        [{ role: "user" }],
        [{ role: "user", content: [{ type: "image", source: {} }] }],
      ],
      system: [5, [{ type: "image" }]],
      temperature: [1.5, -1],
      top_k: [-1],
      stop_sequences: ["x", [""], Array.from({ length: 17 }, () => "a")],
      stream: ["y"],
      metadata: [{ user_id: 5 }, { x: 1 }],
      tools: [
        "x",
        [{ name: "a" }],
        [{ name: "a", input_schema: "x" }],
        [{ type: "web_search_20250305", name: "web_search" }],
        [{ name: "bad name!", input_schema: {} }],
      ],
      // (Unknown fields inside a choice are dropped and named, not refused: not a wrong value.)
      tool_choice: [{ type: "maybe" }, { type: "tool" }, "auto", { type: "tool", name: "bad name!" }],
    },
    required: ["model", "max_tokens", "messages"],
  },
  {
    name: "model_settings",
    method: "PUT",
    path: (context) => `/admin/api/models/${segment(context.modelId)}/settings`,
    base: () => ({ tags: ["a"], max_queue: 8 }),
    wrong: {
      tags: [[1], "x", Array.from({ length: 65 }, (_, index) => `t${index}`), [null]],
      max_queue: [-1, 10_001, "5", 1.5],
      context_size: [10, 2e6, "4k"],
      max_concurrent_requests: [0, 65],
      speculative: [{ mode: "warp" }, { mode: "draft", maxDraftTokens: 0 }, { mode: "lookup", x: 1 }, "on"],
      kv_cache_type: ["q2", 5],
      sampling: [{ temperature: 9 }, { foo: 1 }, "hot"],
      ttl_seconds: [-5, 1e9],
      pinned: ["yes", 1],
      alias: ["", "x".repeat(200), 5],
    },
    required: [],
  },
  {
    name: "settings",
    method: "PUT",
    path: () => "/admin/api/settings",
    base: () => ({ community_upload_enabled: false }),
    wrong: {
      port: [-1, 70_000, "80", 1.5],
      host: ["", 5, "h".repeat(300)],
      models_dirs: ["x", [1], Array.from({ length: 33 }, () => "/tmp"), [""]],
      api_key: ["", 5],
      allow_remote_admin: ["true", 1],
      hf_endpoint: ["file:///etc/passwd", "javascript:alert(1)", "ftp://x", "not a url", 5],
      modelscope_endpoint: ["file:///x"],
      community_upload_url: ["gopher://x"],
      memory_budget_bytes: [-1, 0, 1.5, "1GB", 107, 512 * 1024 ** 2 - 1],
      default_ttl_seconds: [-1, 1e9],
      community_upload_enabled: ["y"],
    },
    required: [],
  },
  {
    name: "profile",
    method: "PUT",
    path: (context) => `/admin/api/models/${segment(context.modelId)}/profiles/p1`,
    base: () => ({ settings: { max_queue: 4 } }),
    wrong: {
      settings: [
        { tags: ["x"] },
        { pinned: true },
        { alias: "a" },
        { context_size: 1 },
        "x",
        null,
        { unknown: 1 },
      ],
    },
    required: ["settings"],
  },
  {
    name: "template",
    method: "PUT",
    path: () => "/admin/api/templates/t1",
    base: () => ({ settings: { max_queue: 4 } }),
    wrong: { settings: [{ context_size: 4096 }, { speculative: { mode: "off" } }, { tags: ["x"] }, 5] },
    required: ["settings"],
  },
  {
    name: "apply_template",
    method: "POST",
    path: () => "/admin/api/templates/t1/apply",
    base: (context) => ({ model_id: context.modelId }),
    wrong: { model_id: ["../x", "", 5, "/abs", "a\u0000b"] },
    required: ["model_id"],
  },
  ...["/admin/api/bench/results/reset", "/admin/api/bench/accuracy/results/reset"].map((path): BodyRoute => ({
    name: "reset",
    method: "POST",
    path: () => path,
    base: (context) => ({ model_id: context.modelId }),
    wrong: { model_id: [5, "", "x".repeat(1025), null] },
    required: [],
  })),
  {
    name: "perf_start",
    method: "POST",
    path: () => "/admin/api/bench/start",
    // No such model: should a mutation be valid after all, no run starts (404).
    base: () => ({ model_id: "no-such-model" }),
    wrong: {
      model_id: [5, "", "x".repeat(1025)],
      prompt_lengths: [[-1], "x", [3]],
      batch_sizes: [[0], [1000]],
      external: [{ base_url: "file:///x", model: "m" }, { base_url: "http://x" }],
    },
    required: [],
  },
  {
    name: "eval_queue",
    method: "POST",
    path: () => "/admin/api/bench/accuracy/queue",
    // No such model: should a mutation be valid after all, no run is queued (404).
    base: () => ({ model_id: "no-such-model", benchmarks: ["gsm8k"], sample_size: 1 }),
    wrong: {
      model_id: [5, "", "x".repeat(1025)],
      benchmarks: [[], ["chess"], ["gsm8k", "gsm8k"], "gsm8k", null],
      sample_size: [-1, 1.5, 100_001, "10"],
      batch_size: [0, 3, 1000],
      sampling_profile: ["wild"],
      thinking: ["maybe", 1],
      since: ["yesterday", "2024-13-01"],
      variants: [{ chess: "x" }, { gsm8k: "" }, "x"],
      // With model_id present, any external target breaks "exactly one of model_id or external".
      external: [{ base_url: "http://127.0.0.1:1/v1", model: "m" }],
    },
    required: ["benchmarks"],
  },
  {
    name: "download",
    method: "POST",
    path: () => "/admin/api/downloads",
    base: () => ({ source: "hf", repo: "acme/m-GGUF", file: "m.gguf" }),
    wrong: {
      source: ["ftp", 5, null],
      repo: ["../..", "a", "a/b/c", "a/..", "/etc/passwd", "a\\b", "..%2Fx", "x".repeat(201)],
      file: ["../../etc/passwd", "/abs.gguf", "a/../../b.gguf", "C:\\x.gguf", "a\u0000.gguf", 5],
      revision: ["../x", "a b", ""],
      // With `file` present, any quant breaks "exactly one of file or quant".
      quant: ["Q4_K_M", "../x"],
    },
    required: ["source", "repo"],
  },
  {
    name: "embeddings",
    method: "POST",
    path: () => "/v1/embeddings",
    loose: true,
    base: (context) => ({ model: context.modelId, input: "hi" }),
    wrong: {
      model: wrongModel,
      input: ["", [], [""], [[]], [-1], [1.5], [["a"]], null, 5, {}],
      encoding_format: ["hex", 5],
      // 7 is not the test model's size: refused once the model is known.
      dimensions: [0, -1, 1.5, "5", 7],
      user: [5],
    },
    required: ["model", "input"],
  },
  ...(["chat", "generate"] as const).map((kind): BodyRoute => ({
    name: `ollama_${kind}`,
    method: "POST",
    path: () => `/api/${kind}`,
    loose: true,
    generates: true,
    base: (context) => ({
      model: context.modelId,
      ...(kind === "chat" ? { messages: [{ role: "user", content: "hi" }] } : { prompt: "hi" }),
      options: { num_predict: 2 },
      stream: false,
    }),
    wrong: {
      model: wrongModel,
      options: [
        { temperature: -1 },
        { top_k: 1.5 },
        { num_predict: 0 },
        { num_predict: -3 },
        { stop: "x" },
        { seed: "s" },
        "hot",
        [1],
      ],
      format: ["xml", 5, ["json"]],
      keep_alive: ["soon", {}, true, "5 minutes"],
      think: ["maybe", 5],
      stream: ["yes", 1],
      logprobs: ["y", 1],
      // 0–20, and only with logprobs: true (3 alone is refused).
      top_logprobs: [21, -1, 1.5, 3],
      ...(kind === "chat"
        ? {
            messages: [
              "hi",
              [{ role: "wizard", content: "x" }],
              [{ role: "user", content: 5 }],
              [{ role: "user", content: "x", images: ["aGk="] }],
              null,
              {},
            ],
            tools: ["x", [{ type: "nope" }]],
            // Without tools to choose from, any forcing choice is refused.
            tool_choice: ["sometimes", { type: "function" }, "required"],
          }
        : {
            prompt: [5, null, {}],
            images: [["aGk="]],
            suffix: ["x"],
            template: ["{{ .Prompt }}"],
            context: [[1]],
            raw: ["y"],
            system: [5],
          }),
    },
    required: ["model"],
  })),
  {
    name: "ollama_embed",
    method: "POST",
    path: () => "/api/embed",
    loose: true,
    base: (context) => ({ model: context.modelId, input: "hi" }),
    wrong: {
      model: wrongModel,
      // `[]` is not wrong: it embeds nothing, as Ollama.
      input: [5, null, [1, 2], {}],
      truncate: ["y"],
      dimensions: [0, -1, 1.5, 7],
      keep_alive: ["soon"],
    },
    required: ["model", "input"],
  },
  {
    name: "ollama_embeddings",
    method: "POST",
    path: () => "/api/embeddings",
    loose: true,
    base: (context) => ({ model: context.modelId, prompt: "hi" }),
    wrong: { model: wrongModel, prompt: [5, null, ["x"]], keep_alive: [[]] },
    required: ["model", "prompt"],
  },
  {
    name: "ollama_show",
    method: "POST",
    path: () => "/api/show",
    loose: true,
    base: (context) => ({ model: context.modelId }),
    wrong: { model: wrongModel, verbose: ["y", 1] },
    required: ["model"],
  },
  {
    name: "ollama_pull",
    method: "POST",
    path: () => "/api/pull",
    loose: true,
    // An Ollama registry name: refused before any hub is asked, should a mutation be valid.
    base: () => ({ model: "llama3.2:3b", stream: false }),
    wrong: {
      model: [...wrongModel, "hf.co/../x", "hf.co/a/b:../x", "hf.co/a", "hf.co/a/b/c"],
      stream: ["y"],
      insecure: ["y"],
    },
    required: ["model"],
  },
  {
    name: "ollama_delete",
    method: "DELETE",
    path: () => "/api/delete",
    loose: true,
    // No such model: should a mutation be valid after all, nothing is deleted (404).
    base: () => ({ model: "no-such-model:latest" }),
    wrong: { model: wrongModel },
    required: ["model"],
  },
];

const unknownModels = [
  "no-such-model",
  "../../etc/passwd",
  "/etc/passwd",
  "C:\\Windows\\win.ini",
  "a\u0000b",
  "__proto__",
  "constructor",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "x".repeat(400),
  "%2e%2e%2f",
  "models/../../x",
  "🦜",
];

const badModelIds = [
  "..",
  ".",
  "../..",
  "../../etc/passwd",
  "a/../b",
  "/etc/passwd",
  "a\u0000b",
  "\u0000",
  "C:\\x",
  "a\\b",
  "__proto__",
  "constructor",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "no-such-model",
  "x".repeat(513),
  "x".repeat(300),
  "a//b",
  "a/",
  "%",
  "🦜",
];
const badNames = ["%2F", "a%00b", "x".repeat(100), "%20", "..%2F..", "a%5Cb", "%0A"];
const badResultIds = [
  "..",
  "..%2F..%2Fsettings",
  "%2e%2e",
  "a.json",
  "a%2Fb",
  "a%5Cb",
  "%00",
  "-x",
  "_x",
  "x".repeat(129),
  "x".repeat(1500),
  "a%20b",
  "perf-20250101T000000Z-deadbeef",
];
const badRunIds = ["..%2Fx", "a.b", "%00", "x".repeat(200), "dl-none", "run-none"];

type Generator = (random: Random, context: BadRequestContext) => BadRequest;

const weatherTool = {
  type: "function",
  function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } },
};
const lookupTool = {
  name: "lookup",
  input_schema: { type: "object", properties: { id: { type: "integer" } } },
};
const userHi = { role: "user", content: "hi" };

/**
 * Tool-calling requests that are well-formed JSON for the contract but wrong as a conversation or
 * as a tool set: each must be refused (400) before any generation.
 */
const toolCallingCases: ((modelId: string) => { route: string; body: Record<string, unknown> })[] = [
  // A tool result that answers no call.
  (model) => ({
    route: "chat",
    body: {
      model,
      max_tokens: 2,
      messages: [userHi, { role: "tool", tool_call_id: "call_none", content: "1" }],
    },
  }),
  // A call left unanswered before the next user turn.
  (model) => ({
    route: "chat",
    body: {
      model,
      max_tokens: 2,
      messages: [
        userHi,
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "call_1", type: "function", function: { name: "get_weather", arguments: "{}" } },
          ],
        },
        userHi,
      ],
    },
  }),
  // Call arguments that are not a string (text that is not JSON is taken, as OpenAI takes it).
  (model) => ({
    route: "chat",
    body: {
      model,
      max_tokens: 2,
      messages: [
        userHi,
        {
          role: "assistant",
          tool_calls: [
            { id: "call_1", type: "function", function: { name: "get_weather", arguments: { city: "x" } } },
          ],
        },
        { role: "tool", tool_call_id: "call_1", content: "1" },
      ],
    },
  }),
  // A named choice that is not among the tools.
  (model) => ({
    route: "chat",
    body: {
      model,
      max_tokens: 2,
      messages: [userHi],
      tools: [weatherTool],
      tool_choice: { type: "function", function: { name: "get_time" } },
    },
  }),
  // Two tools with one name.
  (model) => ({
    route: "chat",
    body: {
      model,
      max_tokens: 2,
      messages: [userHi],
      tools: [weatherTool, weatherTool],
      tool_choice: "required",
    },
  }),
  // A parameters schema with a type JSON schema does not have.
  (model) => ({
    route: "chat",
    body: {
      model,
      max_tokens: 2,
      messages: [userHi],
      tools: [
        {
          type: "function",
          function: { name: "t", parameters: { type: "object", properties: { a: { type: "tuple" } } } },
        },
      ],
    },
  }),
  // A response format together with a forced call.
  (model) => ({
    route: "chat",
    body: {
      model,
      max_tokens: 2,
      messages: [userHi],
      tools: [weatherTool],
      tool_choice: "required",
      response_format: { type: "json_object" },
    },
  }),
  // Anthropic: a tool_result that answers no tool_use.
  (model) => ({
    route: "messages",
    body: {
      model,
      max_tokens: 2,
      messages: [
        { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_none", content: "x" }] },
      ],
    },
  }),
  // Anthropic: a named tool that is not among the tools.
  (model) => ({
    route: "messages",
    body: {
      model,
      max_tokens: 2,
      messages: [userHi],
      tools: [lookupTool],
      tool_choice: { type: "tool", name: "other" },
    },
  }),
  // Anthropic: a tool_use never answered.
  (model) => ({
    route: "messages",
    body: {
      model,
      max_tokens: 2,
      messages: [
        userHi,
        { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "lookup", input: {} }] },
        userHi,
      ],
    },
  }),
];

function bodyRequest(
  kind: string,
  route: BodyRoute,
  context: BadRequestContext,
  body: string | Buffer,
  codes?: ErrorCode[],
): BadRequest {
  return {
    kind: `${kind}:${route.name}`,
    method: route.method,
    path: route.path(context),
    headers: { ...json, "content-length": String(Buffer.byteLength(body)) },
    body,
    codes,
  };
}

const generators: Record<string, { weight: number; make: Generator }> = {
  wrong_value: {
    weight: 22,
    make: (random, context) => {
      const route = pick(random, bodyRoutes);
      const field = pick(random, Object.keys(route.wrong));
      const body = { ...route.base(context), [field]: pick(random, route.wrong[field]!) };
      return bodyRequest("wrong_value", route, context, toJson(body), ["invalid_request", "invalid_json"]);
    },
  },
  unknown_field: {
    weight: 6,
    make: (random, context) => {
      // The inference routes (OpenAI, Anthropic, Ollama) accept unknown fields (named in
      // x-perch-ignored-fields); admin routes refuse them.
      const route = pick(
        random,
        bodyRoutes.filter((candidate) => !candidate.loose),
      );
      const field = pick(random, [
        "foo",
        "tools",
        "functions",
        "Model",
        "max-tokens",
        "extra_body",
        "𝔘nicode",
      ]);
      const body = { ...route.base(context), [field]: pick(random, [1, "x", null, {}, []]) };
      return bodyRequest("unknown_field", route, context, toJson(body), ["invalid_request"]);
    },
  },
  tool_calling: {
    weight: 8,
    make: (random, context) => {
      const make = pick(random, toolCallingCases);
      const { route, body } = make(context.modelId);
      const target = bodyRoutes.find((candidate) => candidate.name === route)!;
      return bodyRequest("tool_calling", target, context, toJson({ ...body, stream: random() < 0.3 }), [
        "invalid_request",
      ]);
    },
  },
  missing_field: {
    weight: 5,
    make: (random, context) => {
      const route = pick(
        random,
        bodyRoutes.filter((candidate) => candidate.required.length > 0),
      );
      const body = route.base(context);
      delete body[pick(random, route.required)];
      return bodyRequest("missing_field", route, context, toJson(body), ["invalid_request"]);
    },
  },
  unknown_model: {
    weight: 8,
    make: (random, context) => {
      const route = pick(
        random,
        bodyRoutes.filter((candidate) => candidate.generates),
      );
      const body = { ...route.base(context), model: pick(random, unknownModels), stream: random() < 0.3 };
      return bodyRequest("unknown_model", route, context, toJson(body), ["model_not_found"]);
    },
  },
  long_prompt: {
    weight: 3,
    make: (random, context) => {
      const route = pick(
        random,
        bodyRoutes.filter((candidate) => candidate.generates),
      );
      // Distinct words tokenize to several tokens each: well past the context.
      const words = Array.from(
        { length: Math.ceil(context.contextTokens * 1.2) },
        (_, index) => `w${index}x`,
      );
      const text = words.join(" ");
      const body = route.base(context);
      if (route.name === "completions" || route.name === "ollama_generate") body.prompt = text;
      else if (route.name === "responses") body.input = text;
      else body.messages = [{ role: "user", content: text }];
      body.stream = random() < 0.5;
      return bodyRequest("long_prompt", route, context, toJson(body), ["context_length_exceeded"]);
    },
  },
  invalid_json: {
    weight: 7,
    make: (random, context) => {
      const route = pick(random, bodyRoutes);
      const text = pick(random, [
        "{",
        '{"model":',
        "{'a':1}",
        '{"a":1,}',
        "[1,2",
        '{"a":NaN}',
        '{"a":undefined}',
        "// c\n{}",
        "\u0000",
        '{"a":"\\x"}',
        "{}{}",
        "tru",
        '"unterminated',
        '{"__proto__":{"polluted":1}}',
        '{"constructor":{"prototype":{"polluted":1}}}',
        "",
      ]);
      return bodyRequest("invalid_json", route, context, text, ["invalid_json"]);
    },
  },
  invalid_utf8: {
    weight: 6,
    make: (random, context) => {
      const route = pick(random, bodyRoutes);
      const bad = Buffer.from(
        pick(random, [
          [0xff],
          [0xfe],
          [0xc0, 0xaf],
          [0x80],
          [0xed, 0xa0, 0x80],
          [0xf8, 0x88, 0x80, 0x80, 0x80],
          [0xe2, 0x82],
          [0xf4, 0x90, 0x80, 0x80],
        ]),
      );
      // The bad bytes sit inside a string value of an otherwise valid body.
      const [head, tail] = toJson({ ...route.base(context), zz: "MARK" }).split("MARK") as [string, string];
      const body = Buffer.concat([Buffer.from(head), bad, Buffer.from(tail)]);
      return bodyRequest("invalid_utf8", route, context, body, ["invalid_json"]);
    },
  },
  huge_body: {
    weight: 1,
    make: (random, context) => {
      const route = pick(random, bodyRoutes);
      const body = toJson({ ...route.base(context), padding: "a".repeat(10 * 1024 * 1024) });
      const request = bodyRequest("huge_body", route, context, body, ["body_too_large"]);
      // Half of them chunked, without a Content-Length to refuse up front.
      if (random() < 0.5) delete request.headers["content-length"];
      return { ...request, status: 413 };
    },
  },
  deep_nesting: {
    weight: 2,
    make: (random, context) => {
      const route = pick(random, bodyRoutes);
      const depth = 50_000;
      const nested = "[".repeat(depth) + "]".repeat(depth);
      const body = random() < 0.5 ? nested : `{"model":${nested}}`;
      return bodyRequest("deep_nesting", route, context, body, ["invalid_request", "invalid_json"]);
    },
  },
  content_type: {
    weight: 4,
    make: (random, context) => {
      const route = pick(random, bodyRoutes);
      const path = route.path(context);
      // The inference routes read a body of any content type as JSON (`curl -d`, as Ollama does):
      // a valid JSON body is refused for its type only on admin routes (and Ollama's pull/delete).
      const jsonOnly = path.startsWith("/admin/") || /^\/api\/(pull|delete)\/*$/.test(path);
      const [type, body] = pick(random, [
        ["application/x-www-form-urlencoded", "model=x&prompt=y"],
        [
          "multipart/form-data; boundary=x",
          "--x\r\nContent-Disposition: form-data; name=a\r\n\r\nb\r\n--x--\r\n",
        ],
        ["application/xml", "<a/>"],
        ...(jsonOnly
          ? ([
              ["text/plain", toJson(route.base(context))],
              ["", toJson(route.base(context))],
            ] as const)
          : []),
      ] as const);
      const headers: Record<string, string> = { "content-length": String(Buffer.byteLength(body)) };
      if (type) headers["content-type"] = type;
      return {
        kind: `content_type:${route.name}`,
        method: route.method,
        path,
        headers,
        body,
      };
    },
  },
  bad_model_id: {
    weight: 9,
    make: (random) => {
      const id = pick(random, badModelIds);
      const encoded = random() < 0.8 ? segment(id) : segment(segment(id));
      const [method, suffix, body] = pick(random, [
        ["GET", "", undefined],
        ["PUT", "/settings", { tags: ["a"] }],
        ["DELETE", "", undefined],
        ["POST", "/unload", undefined],
        ["POST", "/check-update", undefined],
        ["GET", "/profiles", undefined],
        ["PUT", "/profiles/p1", { settings: {} }],
        ["DELETE", "/profiles/p1", undefined],
        ["POST", "/profiles/p1/apply", undefined],
      ] as const);
      const text = body === undefined ? undefined : toJson(body);
      return {
        kind: "bad_model_id",
        method,
        path: `/admin/api/models/${encoded}${suffix}`,
        headers: text === undefined ? {} : { ...json, "content-length": String(Buffer.byteLength(text)) },
        body: text,
        // `conflict`: an unload or delete racing a generated request's load attempt of that id.
        codes: ["invalid_id", "model_not_found", "not_found", "invalid_request", "conflict"],
      };
    },
  },
  bad_name: {
    weight: 3,
    make: (random, context) => {
      const name = pick(random, badNames);
      const [method, path, body] = pick(random, [
        ["PUT", `/admin/api/models/${segment(context.modelId)}/profiles/${name}`, { settings: {} }],
        ["DELETE", `/admin/api/models/${segment(context.modelId)}/profiles/${name}`, undefined],
        ["POST", `/admin/api/models/${segment(context.modelId)}/profiles/${name}/apply`, undefined],
        ["PUT", `/admin/api/templates/${name}`, { settings: {} }],
        ["DELETE", `/admin/api/templates/${name}`, undefined],
        ["POST", `/admin/api/templates/${name}/apply`, { model_id: context.modelId }],
      ] as const);
      const text = body === undefined ? undefined : toJson(body);
      return {
        kind: "bad_name",
        method,
        path,
        headers: text === undefined ? {} : { ...json, "content-length": String(Buffer.byteLength(text)) },
        body: text,
        codes: ["invalid_request", "not_found"],
      };
    },
  },
  bad_result_id: {
    weight: 6,
    make: (random) => {
      const id = pick(random, badResultIds);
      const [method, path] = pick(random, [
        ["GET", `/admin/api/bench/results/${id}`],
        ["DELETE", `/admin/api/bench/results/${id}`],
        ["GET", `/admin/api/bench/accuracy/results/${id}`],
        ["DELETE", `/admin/api/bench/accuracy/results/${id}`],
        ["POST", `/admin/api/bench/results/${id}/upload`],
      ] as const);
      return {
        kind: "bad_result_id",
        method,
        path,
        headers: {},
        codes: ["invalid_id", "invalid_request", "result_not_found", "not_found"],
      };
    },
  },
  bad_run_id: {
    weight: 3,
    make: (random) => {
      const id = pick(random, badRunIds);
      const [method, path] = pick(random, [
        ["GET", `/admin/api/downloads/${id}`],
        ["POST", `/admin/api/downloads/${id}/cancel`],
        ["POST", `/admin/api/downloads/${id}/resume`],
        ["GET", `/admin/api/downloads/${id}/stream`],
        ["GET", `/admin/api/bench/${id}/stream`],
        ["POST", `/admin/api/bench/${id}/cancel`],
        ["DELETE", `/admin/api/bench/accuracy/queue/${id}`],
        ["POST", `/admin/api/bench/accuracy/${id}/cancel`],
        ["GET", `/admin/api/bench/accuracy/${id}/stream`],
      ] as const);
      return {
        kind: "bad_run_id",
        method,
        path,
        headers: {},
        codes: ["invalid_request", "run_not_found", "not_found"],
      };
    },
  },
  bad_query: {
    weight: 4,
    make: (random) => {
      const [path, queries] = pick(random, [
        [
          pick(random, ["/admin/api/bench/results", "/admin/api/bench/accuracy/results"]),
          [
            "limit=-1",
            "limit=0",
            "limit=abc",
            "limit=1.5",
            "limit=99999999999",
            "limit=1&limit=2",
            "foo=1",
            "model_id=",
            `model_id=${"x".repeat(1100)}`,
          ],
        ],
        [
          "/admin/api/downloads/repo-files",
          [
            "",
            "source=ftp&repo=a/b",
            "source=hf&repo=..%2F..",
            "source=hf",
            "source=hf&repo=a/b&revision=..%2Fx",
            "source=hf&repo=a/b&x=1",
          ],
        ],
        ["/admin/api/bench/upload/preview", ["", "x=1", "result_id=..%2Fx", "model_id="]],
      ] as const);
      const query = pick(random, queries);
      return {
        kind: "bad_query",
        method: "GET",
        path: query ? `${path}?${query}` : path,
        headers: {},
        codes: ["invalid_request"],
      };
    },
  },
  wrong_method: {
    weight: 2,
    make: (random, context) => {
      const [method, path] = pick(random, [
        ["PATCH", "/v1/chat/completions"],
        ["GET", "/v1/chat/completions"],
        ["DELETE", "/v1/models"],
        ["DELETE", "/admin/api/settings"],
        ["PUT", "/admin/api/rescan"],
        ["POST", "/admin/api/health"],
        ["PATCH", `/admin/api/models/${segment(context.modelId)}/settings`],
        ["GET", "/v1/embeddings"],
        ["GET", "/api/chat"],
        ["POST", "/api/tags"],
        ["GET", "/api/delete"],
        ["PUT", "/api/pull"],
      ] as const);
      return { kind: "wrong_method", method, path, headers: {}, codes: ["not_found"], status: 404 };
    },
  },
  unknown_route: {
    weight: 2,
    make: (random, context) => {
      const path = pick(random, [
        "/v1/chat/completions/extra",
        "/api/nothing",
        "/api/chat/extra",
        "/api/",
        "/v1/",
        "/admin/api/nothing",
        `/admin/api/models/${segment(context.modelId)}/nothing`,
        "/admin/",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/..%2f..%2fpackage.json",
        "/assets/..%2f..%2f..%2fpackage.json",
      ]);
      return {
        kind: "unknown_route",
        method: pick(random, ["GET", "POST"]),
        path,
        headers: {},
        codes: ["not_found"],
        status: 404,
      };
    },
  },
  bad_url: {
    weight: 2,
    make: (random) => {
      const path = pick(random, [
        "/admin/api/models/%E0%A4%A",
        "/v1/%zz",
        "/api/%zz",
        "/admin/api/bench/results/%",
        "/admin/api/models/%C0%AF",
        `/admin/api/models/${"a".repeat(2000)}`,
        `/admin/api/bench/results/${"b".repeat(1500)}`,
      ]);
      return { kind: "bad_url", method: "GET", path, headers: {}, codes: ["invalid_request", "not_found"] };
    },
  },
};

/** Kinds of the generator, for reports and coverage checks. */
export const badRequestKinds = Object.keys(generators);

/** `count` requests from `seed`: every kind at least once, then by weight. */
export function generateBadRequests(seed: number, count: number, context: BadRequestContext): BadRequest[] {
  const random = seededRandom(seed);
  const entries = Object.entries(generators);
  const total = entries.reduce((sum, [, generator]) => sum + generator.weight, 0);
  const requests = entries.map(([, generator]) => generator.make(random, context));
  while (requests.length < count) {
    let roll = random() * total;
    const [, generator] = entries.find(([, candidate]) => (roll -= candidate.weight) < 0) ?? entries[0]!;
    requests.push(generator.make(random, context));
  }
  return requests.slice(0, Math.max(count, entries.length));
}
