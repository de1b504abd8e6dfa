import { GgmlType } from "../gguf/GgmlType.js";
import { attentionProgram, priorityAngle } from "./attentionProgram.js";
import { codeSign } from "./codeSign.js";
import { codeBits, levelBits, programLags } from "./programConstants.js";
import { layerTensorPlans, normPlan } from "./layerTensorPlans.js";
import { programLayout as layout } from "./programLayout.js";
import { correctionUnits, targetUnits } from "./programUnits.js";
import type { TensorPlan } from "./TensorPlan.js";
import type { TestModelShape } from "./testModelShapes.js";
import type { TestModelProgram } from "./TestModelProgram.js";

/** Logit per matching code bit: the winner leads the runner-up (one bit off) by 2·bitLogit. */
export const bitLogit = 2.5;
/** Norm of a token embedding's free (random) part. */
const freeEmbeddingNorm = 2;

/**
 * Every tensor of a generated model, in llama.cpp's order and naming. The program (see
 * {@link TestModelProgram}) lives in layers 0 and 1; later layers are random weights that only write
 * to free dimensions, so they cost what a real layer costs without disturbing the answer.
 */
export function testModelTensorPlans(shape: TestModelShape, program: TestModelProgram): TensorPlan[] {
  const d = shape.embeddingLength;
  const vocabularySize = program.codeOfToken.length;
  const attention = attentionProgram(shape);
  const layer0Units = targetUnits(program);
  const layer1Units = correctionUnits(program, shape.features);
  for (const units of [layer0Units, layer1Units])
    if (units.length > shape.feedForwardLength) throw new Error("Feed-forward too small for the program");
  if (shape.blockCount < 2 || d < layout.size + 8) throw new Error("Model too small for the program");

  // Σx² of the residual stream: exact for the embedding, then program bits add 1 each.
  const embeddingEnergy = 1 + codeBits + 1 + freeEmbeddingNorm ** 2;
  const afterAttention0 = embeddingEnergy + (programLags.length - 1) * codeBits + levelBits;
  const afterFeedForward0 = afterAttention0 + codeBits;

  const plans: TensorPlan[] = [
    {
      name: "token_embd.weight",
      shape: [d, vocabularySize],
      type: GgmlType.Q8_0,
      fillRow(row, token, random) {
        const code = program.codeOfToken[token];
        row[layout.bias] = 1;
        for (let bit = 0; bit < codeBits; bit++) row[layout.lag(0) + bit] = codeSign(code, bit);
        const angle = priorityAngle(program.rankOfLevel[code & ((1 << levelBits) - 1)]);
        row[layout.priority] = Math.cos(angle);
        row[layout.priority + 1] = Math.sin(angle);
        // A fixed-norm random tail keeps every token's RMS identical, which the attention keys rely on.
        random.fillSymmetric(row, 1, layout.size, d);
        let norm = 0;
        for (let i = layout.size; i < d; i++) norm += row[i] ** 2;
        const scale = freeEmbeddingNorm / Math.sqrt(norm);
        for (let i = layout.size; i < d; i++) row[i] *= scale;
      },
    },
  ];

  for (let layer = 0; layer < shape.blockCount; layer++)
    plans.push(
      ...layerTensorPlans({
        shape,
        layer,
        attention,
        units: layer === 0 ? layer0Units : layer === 1 ? layer1Units : [],
        energyBeforeAttention: layer === 0 ? embeddingEnergy : afterFeedForward0,
        energyBeforeFeedForward: layer === 0 ? afterAttention0 : afterFeedForward0,
      }),
    );

  plans.push(normPlan("output_norm.weight", d, afterFeedForward0), {
    name: "output.weight",
    shape: [d, vocabularySize],
    type: GgmlType.Q8_0,
    fillRow(row, token, random) {
      random.fillSymmetric(row, 0.02);
      const code = program.codeOfToken[token];
      for (let bit = 0; bit < codeBits; bit++) row[layout.target + bit] = bitLogit * codeSign(code, bit);
      // Outbids any code match: 10 bits against at worst -10 bits, plus the usual two-bit lead.
      if (token === program.endToken) row[layout.stop] = bitLogit * (2 * codeBits + 2);
    },
  });
  return plans;
}
