/** Bits of a token's code: the vocabulary has exactly 2^codeBits tokens. */
export const codeBits = 10;

/** The low `levelBits` bits of a code are its priority level. */
export const levelBits = 5;

/**
 * How many positions back each code the program reads sits: the token itself, the previous one,
 * and 5 and 6 back — in ChatML, the last two tokens of the user's message when generation starts
 * (`…msg<|im_end|>\n<|im_start|>assistant\n`), so chat answers depend on the message.
 */
export const programLags = [0, 1, 5, 6] as const;

/** Codes with both of these bits set are never produced as the model's own choice ("avoided" tokens). */
export const avoidedGuardBit = 8;
export const avoidedFlipBit = 9;
