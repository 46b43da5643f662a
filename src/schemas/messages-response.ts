/**
 * Zod validators for what the messages interface sends back outside
 * streams: the message (PROTOCOLS A.5), token counts (A.9) and error
 * bodies (A.7).
 *
 * Required keys are required so a test can assert what a client receives;
 * extra keys pass because the vendor adds fields over time.
 */
import { z } from 'zod';
import { messagesResponseBlockSchema } from './messages-blocks.js';

const count = z.int().min(0);

/**
 * Token usage. `input_tokens` and `output_tokens` are always present; the
 * rest may be absent or `null`. `input_tokens` excludes cached tokens.
 */
export const messagesUsageSchema = z.looseObject({
  input_tokens: count,
  output_tokens: count,
  cache_creation_input_tokens: count.nullish(),
  cache_read_input_tokens: count.nullish(),
  cache_creation: z
    .looseObject({ ephemeral_5m_input_tokens: count.optional(), ephemeral_1h_input_tokens: count.optional() })
    .nullish(),
  server_tool_use: z
    .looseObject({ web_search_requests: count.optional(), web_fetch_requests: count.optional() })
    .nullish(),
  output_tokens_details: z.looseObject({ thinking_tokens: count.optional() }).nullish(),
  service_tier: z.string().nullish(),
  inference_geo: z.string().nullish(),
});
export type MessagesUsage = z.infer<typeof messagesUsageSchema>;

/** Why the model stopped. */
export const stopReasonSchema = z.enum([
  'end_turn',
  'max_tokens',
  'stop_sequence',
  'tool_use',
  'pause_turn',
  'refusal',
  'model_context_window_exceeded',
]);
export type StopReason = z.infer<typeof stopReasonSchema>;

/**
 * A `message` object. `stop_reason` is `null` only inside a stream's
 * `message_start`.
 */
export const messagesResponseSchema = z.looseObject({
  id: z.string(),
  type: z.literal('message'),
  role: z.literal('assistant'),
  model: z.string(),
  content: z.array(messagesResponseBlockSchema),
  stop_reason: stopReasonSchema.nullable(),
  stop_sequence: z.string().nullable(),
  usage: messagesUsageSchema,
  container: z.looseObject({}).nullish(),
});
export type MessagesResponse = z.infer<typeof messagesResponseSchema>;

/** `POST /v1/messages/count_tokens` result. */
export const countTokensResponseSchema = z.looseObject({ input_tokens: count });
export type CountTokensResponse = z.infer<typeof countTokensResponseSchema>;

/**
 * Messages-interface error body `{type:'error', error:{type, message},
 * request_id?}`. Its type is `MessagesErrorBody` in `render-error.ts`.
 */
export const messagesErrorBodySchema = z.looseObject({
  type: z.literal('error'),
  error: z.looseObject({ type: z.string(), message: z.string() }),
  request_id: z.string().nullish(),
});
