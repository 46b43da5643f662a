/**
 * The OpenAI embeddings response: what every upstream's `embeddings`
 * operation answers (an upstream that speaks otherwise translates to it),
 * and what the simulator renders.
 *
 * @see https://platform.openai.com/docs/api-reference/embeddings/object
 */
import { z } from 'zod';

/** One vector: floats, or with `encoding_format: "base64"` the little-endian float32 bytes in base64. */
export const embeddingSchema = z.looseObject({
  object: z.literal('embedding'),
  index: z.number().int().min(0),
  embedding: z.union([z.array(z.number()), z.string()]),
});

export const embeddingsResponseSchema = z.looseObject({
  object: z.literal('list'),
  data: z.array(embeddingSchema),
  model: z.string(),
  usage: z.looseObject({
    prompt_tokens: z.number().int().min(0),
    total_tokens: z.number().int().min(0),
  }),
});

export type Embedding = z.infer<typeof embeddingSchema>;
export type EmbeddingsResponse = z.infer<typeof embeddingsResponseSchema>;
