/**
 * Zod validators for what the chat-completions interface sends back: the
 * completion (PROTOCOLS B.3), stream chunks (B.4), error bodies (B.5) and
 * the model listing (B.6).
 *
 * Required keys are required so a test can assert what a client receives;
 * extra keys are allowed because the vendor adds fields over time.
 */
import { z } from 'zod';
import { chatToolCallSchema } from './chat-request.js';

/** Why a choice ended. */
export const chatFinishReasonSchema = z.enum(['stop', 'length', 'tool_calls', 'content_filter', 'function_call']);
export type ChatFinishReason = z.infer<typeof chatFinishReasonSchema>;

/** Token counts; the detail objects are optional. */
export const chatUsageSchema = z.looseObject({
  prompt_tokens: z.int().min(0),
  completion_tokens: z.int().min(0),
  total_tokens: z.int().min(0),
  prompt_tokens_details: z.looseObject({ cached_tokens: z.int().min(0).optional() }).nullish(),
  completion_tokens_details: z.looseObject({ reasoning_tokens: z.int().min(0).optional() }).nullish(),
});
export type ChatUsage = z.infer<typeof chatUsageSchema>;

const logprobsSchema = z.looseObject({}).nullable();

/** The assistant message of a non-streamed choice. */
export const chatResponseMessageSchema = z.looseObject({
  role: z.literal('assistant'),
  content: z.string().nullable(),
  refusal: z.string().nullish(),
  tool_calls: z.array(chatToolCallSchema).optional(),
  /** Extension: thinking text of reasoning models, as several gateways emit it. */
  reasoning_content: z.string().nullish(),
  function_call: z.looseObject({ name: z.string(), arguments: z.string() }).nullish(),
});
export type ChatResponseMessage = z.infer<typeof chatResponseMessageSchema>;

/** A `chat.completion` object (`stream: false`). */
export const chatCompletionResponseSchema = z.looseObject({
  id: z.string(),
  object: z.literal('chat.completion'),
  created: z.int(),
  model: z.string(),
  choices: z.array(
    z.looseObject({
      index: z.int().min(0),
      message: chatResponseMessageSchema,
      finish_reason: chatFinishReasonSchema,
      logprobs: logprobsSchema.optional(),
    }),
  ),
  usage: chatUsageSchema.optional(),
  system_fingerprint: z.string().nullish(),
  service_tier: z.string().nullish(),
});
export type ChatCompletion = z.infer<typeof chatCompletionResponseSchema>;

/** One tool-call fragment of a delta; only `index` is always present. */
export const chatToolCallDeltaSchema = z.looseObject({
  index: z.int().min(0),
  id: z.string().optional(),
  type: z.literal('function').optional(),
  function: z.looseObject({ name: z.string().optional(), arguments: z.string().optional() }).optional(),
});
export type ChatToolCallDelta = z.infer<typeof chatToolCallDeltaSchema>;

/** The partial message of one streamed chunk. */
export const chatDeltaSchema = z.looseObject({
  role: z.literal('assistant').optional(),
  content: z.string().nullish(),
  refusal: z.string().nullish(),
  reasoning_content: z.string().nullish(),
  tool_calls: z.array(chatToolCallDeltaSchema).optional(),
});
export type ChatDelta = z.infer<typeof chatDeltaSchema>;

/**
 * A `chat.completion.chunk`. `choices` is empty in the final usage chunk
 * (`stream_options.include_usage`); `usage` is `null` on the others.
 */
export const chatCompletionChunkSchema = z.looseObject({
  id: z.string(),
  object: z.literal('chat.completion.chunk'),
  created: z.int(),
  model: z.string(),
  choices: z.array(
    z.looseObject({
      index: z.int().min(0),
      delta: chatDeltaSchema,
      finish_reason: chatFinishReasonSchema.nullable(),
      logprobs: logprobsSchema.optional(),
    }),
  ),
  usage: chatUsageSchema.nullish(),
  system_fingerprint: z.string().nullish(),
  service_tier: z.string().nullish(),
});
export type ChatCompletionChunk = z.infer<typeof chatCompletionChunkSchema>;

/**
 * Chat-interface error body: all four keys of `error` are required (B.5).
 * Its type is `ChatErrorBody` in `render-error.ts`.
 */
export const chatErrorBodySchema = z.looseObject({
  error: z.looseObject({
    message: z.string(),
    type: z.string(),
    param: z.string().nullable(),
    code: z.string().nullable(),
  }),
});

/** One entry of `GET /v1/models` in chat shape. */
export const chatModelSchema = z.looseObject({
  id: z.string(),
  object: z.literal('model'),
  created: z.int(),
  owned_by: z.string(),
});
export type ChatModel = z.infer<typeof chatModelSchema>;

/** `GET /v1/models` in chat shape: `{object:'list', data:[...]}`. */
export const chatModelListSchema = z.looseObject({
  object: z.literal('list'),
  data: z.array(chatModelSchema),
});
export type ChatModelList = z.infer<typeof chatModelListSchema>;
