import { afterEach, describe, expect, it } from "vitest";
import { createSchedulerFixture, greedyRequest, type SchedulerFixture } from "./schedulerFixture.js";

const models = {
  main: { file: "main" as const, settings: { context_size: 512 } },
  draft: { file: "draft" as const, settings: { context_size: 512 } },
};

let fixture: SchedulerFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

const bytesOf = (fixture: SchedulerFixture, id: string) =>
  fixture.engine.list().find((info) => info.id === id)?.estimatedBytes ?? 0;

/** Loads both models and gives main its generation context (which counts in the budget too). */
async function loadBoth(fixture: SchedulerFixture): Promise<void> {
  await fixture.engine.load("draft");
  await fixture.engine.load("main");
  await fixture.scheduler.generate(
    greedyRequest("warm-up", "main", { kind: "text", text: "Hello" }, { maxTokens: 1 }),
  );
}

/** What the pool counts for each model, and what the main model's embedding context adds. */
async function measure(): Promise<{ main: number; draft: number; embedding: number }> {
  fixture = await createSchedulerFixture(models);
  await loadBoth(fixture);
  const main = bytesOf(fixture, "main");
  const draft = bytesOf(fixture, "draft");
  await fixture.scheduler.embed({ modelId: "main", inputs: ["hello"] });
  const embedding = bytesOf(fixture, "main") - main;
  await fixture.close();
  fixture = undefined;
  return { main, draft, embedding };
}

describe("the embedding context in the engine's memory budget", () => {
  it("counts its memory with its model's, evicting an idle model to make room", async () => {
    const sizes = await measure();
    expect(sizes.embedding).toBeGreaterThan(0);
    // Both models fit, but not with the embedding context beside them.
    const budget = sizes.main + sizes.draft + sizes.embedding - 1;
    fixture = await createSchedulerFixture(models, {}, { memoryBudgetBytes: budget });
    await loadBoth(fixture);
    expect(fixture.engine.isLoaded("draft")).toBe(true);
    const result = await fixture.scheduler.embed({ modelId: "main", inputs: ["hello", "world"] });
    expect(result.vectors).toHaveLength(2);
    expect(fixture.engine.isLoaded("draft")).toBe(false);
    expect(bytesOf(fixture, "main")).toBe(sizes.main + sizes.embedding);
  });

  it("refuses with insufficient_memory when the other models are pinned, and the model keeps generating", async () => {
    const sizes = await measure();
    const budget = sizes.main + sizes.draft + sizes.embedding - 1;
    fixture = await createSchedulerFixture(
      { ...models, draft: { file: "draft", settings: { context_size: 512, pinned: true } } },
      {},
      { memoryBudgetBytes: budget },
    );
    await loadBoth(fixture);
    await expect(fixture.scheduler.embed({ modelId: "main", inputs: ["hello"] })).rejects.toMatchObject({
      code: "insufficient_memory",
      status: 507,
    });
    expect(fixture.engine.isLoaded("draft")).toBe(true);
    expect(bytesOf(fixture, "main")).toBe(sizes.main);
    const generated = await fixture.scheduler.generate(
      greedyRequest("after-refusal", "main", { kind: "text", text: "Hello" }, { maxTokens: 4 }),
    );
    expect(generated.usage.completionTokens).toBeGreaterThan(0);
  });
});

describe("a generation context that does not fit the memory budget", () => {
  it("unloads the weights loaded for the refused request; an earlier explicit load stays", async () => {
    fixture = await createSchedulerFixture(models);
    await fixture.engine.load("main");
    const weights = bytesOf(fixture, "main");
    await fixture.close();
    // Room for the weights, not for the context beside them.
    fixture = await createSchedulerFixture(models, {}, { memoryBudgetBytes: weights + 1024 });
    const request = () =>
      fixture!.scheduler.generate(
        greedyRequest("too-big", "main", { kind: "text", text: "Hi" }, { maxTokens: 2 }),
      );
    await expect(request()).rejects.toMatchObject({ code: "insufficient_memory" });
    // Was: loaded (weights only) until its idle timeout, holding the budget with nothing to run.
    for (let i = 0; i < 100 && fixture.engine.isLoaded("main"); i += 1)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fixture.engine.isLoaded("main")).toBe(false);

    // Loaded on purpose first (`perch load`): a refused request leaves it as it was.
    await fixture.engine.load("main");
    await new Promise((resolve) => setTimeout(resolve, 5));
    await expect(request()).rejects.toMatchObject({ code: "insufficient_memory" });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(fixture.engine.isLoaded("main")).toBe(true);
  });
});
