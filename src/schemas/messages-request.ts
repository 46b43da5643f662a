/**
 * Zod validators for the messages-interface request bodies: `POST
 * /v1/messages` (PROTOCOLS A.1, A.3, A.4) and `POST
 * /v1/messages/count_tokens` (A.9).
 *
 * Every object is loose: a newer client field passes through untouched.
 * Per-model rules (temperature, thinking mode, `max_tokens` versus the
 * thinking budget, whitespace-only stop sequences) are not checked here:
 * they need the catalog and exact vendor messages, and live in
 * `models/enforce-model-rules.ts`.
 */
import { z } from 'zod';
import { boundedArray } from './bounded-array.js';
import { cacheControlSchema, messagesContentBlockSchema, textBlockSchema } from './messages-blocks.js';

/** One turn: role `user` or `assistant` (1.x clients may also send `system`). */
export const messagesMessageSchema = z.looseObject({
  role: z.enum(['user', 'assistant', 'system']),
  content: z.union([z.string(), boundedArray(z.array(messagesContentBlockSchema))]),
});
export type MessagesMessage = z.infer<typeof messagesMessageSchema>;

/** A client-defined tool; `input_schema.type` must be `object`. */
export const messagesCustomToolSchema = z.looseObject({
  type: z.literal('custom').nullish(),
  name: z.string(),
  description: z.string().optional(),
  input_schema: z.looseObject({
    type: z.literal('object'),
    properties: z.record(z.string(), z.unknown()).nullish(),
    required: boundedArray(z.array(z.string())).nullish(),
  }),
  cache_control: cacheControlSchema.nullish(),
  strict: z.boolean().optional(),
  input_examples: boundedArray(z.array(z.record(z.string(), z.unknown()))).optional(),
  defer_loading: z.boolean().optional(),
  eager_input_streaming: z.boolean().nullish(),
});
export type MessagesCustomTool = z.infer<typeof messagesCustomToolSchema>;

/** A vendor-run tool with a versioned `type` (e.g. `web_search_20250305`); checked loosely. */
export const messagesServerToolSchema = z.looseObject({
  // Aborting: see `other-type.ts`.
  type: z.string().refine((type) => type !== 'custom', { abort: true, message: 'expected a server tool type' }),
  name: z.string(),
  cache_control: cacheControlSchema.nullish(),
});
export type MessagesServerTool = z.infer<typeof messagesServerToolSchema>;

/** A tool definition: custom (no `type` or `type:'custom'`) or server tool. */
export const messagesToolSchema = z.union([messagesCustomToolSchema, messagesServerToolSchema]);
export type MessagesTool = z.infer<typeof messagesToolSchema>;

const disableParallel = z.boolean().optional();

/** `tool_choice`: `auto`, `any`, a named `tool`, or `none`. */
export const messagesToolChoiceSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('auto'), disable_parallel_tool_use: disableParallel }),
  z.looseObject({ type: z.literal('any'), disable_parallel_tool_use: disableParallel }),
  z.looseObject({ type: z.literal('tool'), name: z.string(), disable_parallel_tool_use: disableParallel }),
  z.looseObject({ type: z.literal('none') }),
]);
export type MessagesToolChoice = z.infer<typeof messagesToolChoiceSchema>;

/** Why `{type: 'adaptive', budget_tokens}` is a 400 (after `thinking.budget_tokens: `). */
export const ADAPTIVE_BUDGET_MESSAGE =
  'not allowed with thinking.type "adaptive" (the model sizes its own thinking): remove budget_tokens, or send {"type": "enabled", "budget_tokens": N} to a model that takes thinking.enabled';

const thinkingDisplay = z.enum(['summarized', 'omitted']).optional();

/**
 * `thinking`: `enabled` with `budget_tokens` ≥ 1024, `adaptive` (without
 * `budget_tokens`), `disabled`, or (1.x) `between_tools`. That the budget is below
 * `max_tokens` is a model rule, checked elsewhere.
 */
export const thinkingConfigSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('enabled'), budget_tokens: z.int().min(1024), display: thinkingDisplay }),
  // A budget on adaptive thinking would be silently ignored upstream: say so instead.
  z
    .looseObject({ type: z.literal('adaptive'), display: thinkingDisplay })
    .check((ctx) => {
      if (ctx.value.budget_tokens === undefined) return;
      ctx.issues.push({ code: 'custom', path: ['budget_tokens'], input: ctx.value.budget_tokens, message: ADAPTIVE_BUDGET_MESSAGE });
    }),
  z.looseObject({ type: z.literal('disabled') }),
  z.looseObject({ type: z.literal('between_tools'), display: thinkingDisplay }),
]);
export type ThinkingConfig = z.infer<typeof thinkingConfigSchema>;

/** `output_config`: effort and structured output. */
export const outputConfigSchema = z.looseObject({
  effort: z.string().nullish(),
  format: z
    .looseObject({ type: z.literal('json_schema'), schema: z.record(z.string(), z.unknown()) })
    .nullish(),
});
export type OutputConfig = z.infer<typeof outputConfigSchema>;

/** `system`: a string or a list of text blocks (which may carry `cache_control`). */
export const systemPromptSchema = z.union([z.string(), boundedArray(z.array(textBlockSchema))]);

/** Fields shared by `/v1/messages` and `/v1/messages/count_tokens`. */
const promptShape = {
  model: z.string(),
  messages: boundedArray(z.array(messagesMessageSchema).min(1)),
  system: systemPromptSchema.optional(),
  tools: boundedArray(z.array(messagesToolSchema)).optional(),
  tool_choice: messagesToolChoiceSchema.optional(),
  thinking: thinkingConfigSchema.optional(),
  output_config: outputConfigSchema.optional(),
  cache_control: cacheControlSchema.nullish(),
};

/**
 * The `POST /v1/messages` body. `model`, `max_tokens` (integer ≥ 1) and
 * `messages` (at least one) are required. `stop_sequences` entries are any
 * strings here: whitespace-only ones get the vendor's exact message from the
 * model rules, not a schema message.
 */
export const messagesRequestSchema = z.looseObject({
  ...promptShape,
  max_tokens: z.int().min(1),
  temperature: z.number().min(0).max(1).optional(),
  top_p: z.number().min(0).max(1).optional(),
  top_k: z.int().min(0).optional(),
  stop_sequences: boundedArray(z.array(z.string())).optional(),
  stream: z.boolean().optional(),
  metadata: z.looseObject({ user_id: z.string().nullish() }).optional(),
  service_tier: z.enum(['auto', 'standard_only']).optional(),
  container: z.union([z.string(), z.looseObject({})]).nullish(),
  inference_geo: z.string().nullish(),
  speed: z.string().nullish(),
  diagnostics: z.unknown().optional(),
});
export type MessagesRequest = z.infer<typeof messagesRequestSchema>;

/** The `POST /v1/messages/count_tokens` body: no `max_tokens` or `stream`. */
export const countTokensRequestSchema = z.looseObject(promptShape);
export type CountTokensRequest = z.infer<typeof countTokensRequestSchema>;
