import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import {
  conversationIdSchema,
  conversationSchema,
  type Conversation,
  type ConversationPatch,
  type ConversationSummary,
} from "../../src-shared/contracts/chat.js";
import { PerchError } from "../base/PerchError.js";
import type { HealthRegistry } from "../storage/HealthRegistry.js";
import { parseJson } from "../storage/JsonFile.js";
import { fileWriteQueue, KeyedQueue } from "../storage/KeyedQueue.js";
import { moveAsideCorrupt } from "../storage/moveAsideCorrupt.js";
import { writeJsonAtomic } from "../storage/writeJsonAtomic.js";
import { errorMessage } from "../base/describeError.js";

export interface ConversationStoreOptions {
  /** `<base>/conversations`: one `<id>.json` per conversation. */
  dir: string;
  /** Where an unreadable file is reported. Defaults to `undefined` (logged only). */
  health?: HealthRegistry;
  now?: () => Date;
}

/**
 * Chat conversations, one atomic JSON file each, read from disk on every call (a conversation
 * is small and the dashboard reads one at a time). Changes to one conversation are serialized
 * so a reply being saved and a rename never overwrite each other.
 */
export class ConversationStore {
  readonly dir: string;
  private readonly options: ConversationStoreOptions;
  private readonly updates = new KeyedQueue();

  constructor(options: ConversationStoreOptions) {
    this.options = options;
    this.dir = path.resolve(options.dir);
  }

  /** Summaries, most recently changed first. Unreadable files are moved aside and skipped. */
  async list(): Promise<ConversationSummary[]> {
    let names: string[];
    try {
      names = await fs.readdir(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw new PerchError("storage_error", `Could not list ${this.dir}: ${errorMessage(error)}`);
    }
    const summaries: ConversationSummary[] = [];
    for (const name of names) {
      const id = name.endsWith(".json") ? name.slice(0, -".json".length) : "";
      if (!conversationIdSchema.safeParse(id).success) continue;
      const conversation = await this.read(id).catch(() => undefined);
      if (!conversation) continue;
      summaries.push({
        id,
        title: conversation.title,
        created_at: conversation.created_at,
        updated_at: conversation.updated_at,
        model_id: conversation.model_id,
        message_count: conversation.messages.length,
      });
    }
    return summaries.sort((a, b) => b.updated_at.localeCompare(a.updated_at) || a.id.localeCompare(b.id));
  }

  async get(id: string): Promise<Conversation> {
    this.assertId(id);
    return this.read(id);
  }

  async create(patch: ConversationPatch): Promise<Conversation> {
    const at = this.now();
    const conversation: Conversation = {
      version: 1,
      id: crypto.randomUUID(),
      title: patch.title ?? "New chat",
      created_at: at,
      updated_at: at,
      model_id: patch.model_id ?? null,
      system_prompt: patch.system_prompt ?? "",
      sampling: patch.sampling ?? {},
      thinking: patch.thinking ?? null,
      json_schema: patch.json_schema ?? null,
      tools: patch.tools ?? null,
      tool_choice: patch.tool_choice ?? "auto",
      messages: [],
    };
    return this.write(conversation);
  }

  /** Serialized read-modify-write; `change` gets a private copy. `updated_at` is set here. */
  update(id: string, change: (draft: Conversation) => Conversation | void): Promise<Conversation> {
    this.assertId(id);
    return this.updates.run(id, async () => {
      const draft = structuredClone(await this.read(id));
      const next = change(draft) ?? draft;
      return this.write({ ...next, id, updated_at: this.now() });
    });
  }

  async delete(id: string): Promise<void> {
    await this.get(id);
    const file = this.fileOf(id);
    await this.updates.run(id, () => fileWriteQueue.run(file, () => fs.rm(file, { force: true })));
  }

  private async write(conversation: Conversation): Promise<Conversation> {
    const checked = conversationSchema.safeParse(conversation);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      throw new PerchError(
        "invalid_request",
        `Invalid conversation: ${issue?.path.join(".")} ${issue?.message}`.trim(),
        { details: checked.error.issues.slice(0, 5) },
      );
    }
    await writeJsonAtomic(this.fileOf(checked.data.id), checked.data);
    return checked.data;
  }

  private async read(id: string): Promise<Conversation> {
    const file = this.fileOf(id);
    let text: string;
    try {
      text = await fs.readFile(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") {
        throw new PerchError("not_found", `No conversation with id '${id}'.`, { param: "conversation_id" });
      }
      throw new PerchError("storage_error", `Could not read ${file}: ${errorMessage(error)}`);
    }
    const parsed = parseJson(text, conversationSchema);
    const reason = !parsed.ok
      ? parsed.error
      : parsed.value.id !== id
        ? `id '${parsed.value.id}' does not match the file name`
        : undefined;
    if (parsed.ok && reason === undefined) return parsed.value;
    const aside = await moveAsideCorrupt(file, reason ?? "unreadable", this.options.health);
    throw new PerchError(
      "storage_error",
      `Conversation '${id}' could not be read; it was moved to ${aside}.`,
    );
  }

  private assertId(id: string): void {
    if (!conversationIdSchema.safeParse(id).success) {
      throw new PerchError("invalid_id", `Invalid conversation id '${id.slice(0, 80)}'.`, {
        param: "conversation_id",
      });
    }
  }

  private fileOf(id: string): string {
    return path.join(this.dir, `${id}.json`);
  }

  private now(): string {
    return (this.options.now?.() ?? new Date()).toISOString();
  }
}
