import { describe, expect, it } from "vitest";
import { useOpenAiTestServer } from "../../helpers/startTestServer.js";

const perch = useOpenAiTestServer();

/**
 * The generated model predicts its tokens with near certainty, so sampling alone hardly varies
 * its text; three tokens it never predicts, raised far above the rest, make each step a draw
 * among them (about half of ten seeds give texts of their own).
 */
const threeWay = { 400: 100, 401: 100, 402: 100 };

const complete = (seed?: number, n = 1) =>
  perch.openai.completions.create({
    model: perch.server.mainModelId,
    prompt: "x",
    max_tokens: 16,
    temperature: 1,
    logit_bias: threeWay,
    n,
    ...(seed === undefined ? {} : { seed }),
  });

/** Distinct texts among `count` requests made one after another. */
async function distinctTexts(count: number, seed?: number): Promise<number> {
  const texts = new Set<string>();
  for (let index = 0; index < count; index++) texts.add((await complete(seed)).choices[0]!.text);
  return texts.size;
}

describe("seed -1 or none samples with a random seed; any other seed repeats", () => {
  it("repeats a fixed seed", async () => {
    expect(await distinctTexts(4, 5)).toBe(1);
  });

  it("treats -1 as a random seed (llama.cpp's and Ollama's convention), not as a fixed one", async () => {
    expect(await distinctTexts(8, -1)).toBeGreaterThan(1);
  });

  it("varies unseeded requests made within one second, and unseeded choices of one request", async () => {
    // node-llama-cpp alone seeds an unseeded sampler with the current second.
    expect(await distinctTexts(8)).toBeGreaterThan(1);
    const choices = await complete(undefined, 8);
    expect(new Set(choices.choices.map((choice) => choice.text)).size).toBeGreaterThan(1);
  });

  it("gives the choices of seeds s and s+1 no sample in common (a seed sweep with n > 1 reused most of its samples)", async () => {
    // Choice i sampled with seed + i: seed 8's first two choices were seed 7's last two.
    const [seven, eight] = [await complete(7, 3), await complete(8, 3)];
    // With seed 7 alone: choices differ from each other (the draw is real).
    expect(new Set(seven.choices.map((choice) => choice.text)).size).toBeGreaterThan(1);
    // Choice 0 is the seed's own request.
    expect(seven.choices[0]!.text).toBe((await complete(7)).choices[0]!.text);
    expect(eight.choices[0]!.text).toBe((await complete(8)).choices[0]!.text);
    const sevens = seven.choices.map((choice) => choice.text);
    const overlap = eight.choices.filter((choice, index) => index < 2 && choice.text === sevens[index + 1]);
    expect(overlap).toHaveLength(0);
  });
});
