import type { ChatFormat, ModelSettings, SamplingSettings } from "../../src-shared/contracts/settings.js";
import { parseDecimal } from "../format/parseDecimal.js";

export const samplingKeys = [
  "temperature",
  "top_p",
  "top_k",
  "min_p",
  "presence_penalty",
  "frequency_penalty",
  "repetition_penalty",
  "max_tokens",
] as const satisfies readonly (keyof SamplingSettings)[];
export type SamplingKey = (typeof samplingKeys)[number];

export const runtimeKeys = [
  "context_size",
  "ttl_seconds",
  "max_concurrent_requests",
  "max_queue",
  "prompt_cache_ram_mib",
  "prompt_cache_disk_mib",
] as const satisfies readonly (keyof ModelSettings)[];
export type RuntimeKey = (typeof runtimeKeys)[number];

export type KvCacheType = NonNullable<ModelSettings["kv_cache_type"]>;
export type SpeculativeMode = NonNullable<ModelSettings["speculative"]>["mode"];

/**
 * The settings form's state: numbers are kept as typed text so an empty field means "unset"
 * (the default) and a half-typed value is not lost; `draftToSettings` turns it into the contract.
 */
export interface SettingsDraft {
  alias: string;
  tags: string[];
  sampling: Record<SamplingKey, string>;
  runtime: Record<RuntimeKey, string>;
  pinned: boolean;
  kv_cache_type: KvCacheType | "";
  chat_format: ChatFormat;
  speculative: { mode: SpeculativeMode; draftModel: string; maxDraftTokens: string; minDraftTokens: string };
}

const text = (value: number | undefined): string => (value === undefined ? "" : String(value));

export function settingsToDraft(settings: ModelSettings): SettingsDraft {
  const sampling = settings.sampling ?? {};
  return {
    alias: settings.alias ?? "",
    tags: [...(settings.tags ?? [])],
    sampling: Object.fromEntries(samplingKeys.map((key) => [key, text(sampling[key])])) as Record<
      SamplingKey,
      string
    >,
    runtime: Object.fromEntries(runtimeKeys.map((key) => [key, text(settings[key])])) as Record<
      RuntimeKey,
      string
    >,
    pinned: settings.pinned ?? false,
    kv_cache_type: settings.kv_cache_type ?? "",
    chat_format: settings.chat_format ?? "auto",
    speculative: {
      mode: settings.speculative?.mode ?? "off",
      draftModel: settings.speculative?.draftModel ?? "",
      maxDraftTokens: text(settings.speculative?.maxDraftTokens),
      minDraftTokens: text(settings.speculative?.minDraftTokens),
    },
  };
}

/** Empty text → unset; anything else → a number, `0,7` too (NaN stays, so validation names the field). */
const number = (value: string): number | undefined => parseDecimal(value);

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}

/** The complete settings to PUT; fields left empty are left out (server defaults apply). */
export function draftToSettings(draft: SettingsDraft): ModelSettings {
  const sampling = withoutUndefined(
    Object.fromEntries(samplingKeys.map((key) => [key, number(draft.sampling[key])])) as SamplingSettings,
  );
  const speculative = withoutUndefined({
    mode: draft.speculative.mode,
    draftModel: draft.speculative.draftModel.trim() || undefined,
    maxDraftTokens: number(draft.speculative.maxDraftTokens),
    minDraftTokens: number(draft.speculative.minDraftTokens),
  });
  const hasSpeculative = Object.keys(speculative).length > 1 || speculative.mode !== "off";
  return withoutUndefined({
    alias: draft.alias.trim() || undefined,
    tags: draft.tags,
    sampling: Object.keys(sampling).length > 0 ? sampling : undefined,
    context_size: number(draft.runtime.context_size),
    ttl_seconds: number(draft.runtime.ttl_seconds),
    max_concurrent_requests: number(draft.runtime.max_concurrent_requests),
    max_queue: number(draft.runtime.max_queue),
    prompt_cache_ram_mib: number(draft.runtime.prompt_cache_ram_mib),
    prompt_cache_disk_mib: number(draft.runtime.prompt_cache_disk_mib),
    pinned: draft.pinned ? true : undefined,
    kv_cache_type: draft.kv_cache_type || undefined,
    chat_format: draft.chat_format === "auto" ? undefined : draft.chat_format,
    speculative: hasSpeculative ? speculative : undefined,
  });
}

/** Tags are separated by commas (an ASCII or a full-width one). */
const tagSeparator = /[,，]/;

/**
 * What a tag field holds: the tags its commas close (`done`) and the text after the last comma,
 * still being typed (`rest`).
 */
export function splitTagInput(text: string): { done: string[]; rest: string } {
  const parts = text.split(tagSeparator);
  const rest = parts.pop() ?? "";
  return { done: parts.filter((part) => part.trim() !== ""), rest };
}

/** Adds every comma-separated tag of `text` (`x, y, z`), each as `addTag` does. */
export function addTags(tags: string[], text: string): string[] {
  return text.split(tagSeparator).reduce((current, tag) => addTag(current, tag), tags);
}

/**
 * Adds a tag the way the server will keep it: trimmed, cut to 64 characters (code points, so an
 * emoji is never split into half a surrogate pair), no case-insensitive duplicate.
 */
export function addTag(tags: string[], tag: string): string[] {
  const clean = Array.from(tag.trim()).slice(0, 64).join("");
  if (!clean || tags.some((existing) => existing.toLowerCase() === clean.toLowerCase())) return tags;
  return [...tags, clean];
}
