/**
 * Zod validators for the `POST /v1/responses` body: input, tools and the
 * other fields. Items of `input` are in `responses-items.ts`.
 *
 * Objects are loose and optional fields accept `null`, as in the chat
 * schemas. Features the gateway cannot serve are refused here, with the
 * field as `param` and what to send instead: `background: true`,
 * `conversation` and `prompt` templates. `truncation: 'auto'` is accepted
 * (and ignored by the translation).
 *
 * @see https://platform.openai.com/docs/api-reference/responses/create
 */
import { z } from 'zod';
import { boundedArray } from './bounded-array.js';
import { OTHER_TYPE_MARKER } from './other-type.js';
import { responseInputItemSchema } from './responses-items.js';

/** A function tool; unlike chat, its fields are flat (no `function: {…}`). */
const functionToolSchema = z.looseObject({
  type: z.literal('function'),
  name: z.string(),
  description: z.string().nullish(),
  /** A JSON Schema object; its inner shape is not checked here. */
  parameters: z.record(z.string(), z.unknown()).nullish(),
  strict: z.boolean().nullish(),
});

/** How the free-form input of a custom tool is constrained: any text, or a Lark / regex grammar. */
const customToolFormatSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('text') }),
  z.looseObject({ type: z.literal('grammar'), syntax: z.enum(['lark', 'regex']), definition: z.string() }),
]);

/** A custom tool: the model writes its input as free text (Codex's `apply_patch`). */
const customToolSchema = z.looseObject({
  type: z.literal('custom'),
  name: z.string(),
  description: z.string().nullish(),
  format: customToolFormatSchema.nullish(),
});

/** A tool of another type: the built-in tools OpenAI runs itself (`web_search`, `mcp`, …). */
export interface ResponsesBuiltInTool {
  type: string;
  [field: string]: unknown;
}

/** A loose object whose `type` is a string other than `known` (see `otherTypeSchema`). */
function otherTypeObject(known: readonly string[]) {
  const knownSet = new Set<unknown>(known);
  return z.looseObject({
    type: z.any().refine((type) => typeof type === 'string' && !knownSet.has(type), {
      abort: true,
      message: 'expected a type this field does not model',
      params: { [OTHER_TYPE_MARKER]: true },
    }),
  }) as unknown as z.ZodType<ResponsesBuiltInTool, ResponsesBuiltInTool>;
}

/** One entry of `tools`: a function tool, a custom tool, or (loosely) a built-in tool. */
export const responsesToolSchema = z.union([
  z.discriminatedUnion('type', [functionToolSchema, customToolSchema]),
  otherTypeObject(['function', 'custom']),
]);
export type ResponsesTool = z.infer<typeof responsesToolSchema>;
export type ResponsesFunctionTool = z.infer<typeof functionToolSchema>;
export type ResponsesCustomTool = z.infer<typeof customToolSchema>;

/**
 * `tool_choice`: a mode, a named function or custom tool, an allowed-tools
 * set, or (loosely) a built-in tool or MCP choice such as
 * `{type:'web_search'}`.
 */
export const responsesToolChoiceSchema = z.union([
  z.enum(['none', 'auto', 'required']),
  z.discriminatedUnion('type', [
    z.looseObject({ type: z.literal('function'), name: z.string() }),
    z.looseObject({ type: z.literal('custom'), name: z.string() }),
    z.looseObject({
      type: z.literal('allowed_tools'),
      mode: z.enum(['auto', 'required']),
      tools: boundedArray(z.array(z.looseObject({ type: z.string() }))),
    }),
  ]),
  otherTypeObject(['function', 'custom', 'allowed_tools']),
]);
export type ResponsesToolChoice = z.infer<typeof responsesToolChoiceSchema>;

/** `text.format`: plain text, any JSON object, or a named JSON schema (flat, unlike chat's `response_format`). */
export const responsesTextFormatSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('text') }),
  z.looseObject({ type: z.literal('json_object') }),
  z.looseObject({
    type: z.literal('json_schema'),
    name: z.string(),
    schema: z.record(z.string(), z.unknown()),
    strict: z.boolean().nullish(),
    description: z.string().nullish(),
  }),
]);
export type ResponsesTextFormat = z.infer<typeof responsesTextFormatSchema>;

/** `reasoning.effort` values; `none` means no reasoning. */
export const RESPONSES_REASONING_EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const;

const summarySchema = z.enum(['auto', 'concise', 'detailed']).nullish();

/** At most 16 pairs; keys up to 64 characters, values up to 512. */
const metadataSchema = z
  .record(z.string().max(64), z.string().max(512))
  .refine((metadata) => Object.keys(metadata).length <= 16, { message: 'must contain at most 16 pairs' });

/** A field that must be absent (or null): `message` says what to send instead. */
function refused(message: string) {
  return z
    .any()
    .refine((value) => value === undefined || value === null, { message })
    .optional();
}

const positiveInt = z.int().min(1);

/**
 * The `POST /v1/responses` body. Only `model` is required; `input` may be
 * absent when `previous_response_id` carries the conversation.
 */
export const responsesRequestSchema = z.looseObject({
  model: z.string(),
  input: z.union([z.string(), boundedArray(z.array(responseInputItemSchema))]).nullish(),
  instructions: z.string().nullish(),
  tools: boundedArray(z.array(responsesToolSchema)).nullish(),
  tool_choice: responsesToolChoiceSchema.nullish(),
  parallel_tool_calls: z.boolean().nullish(),
  text: z
    .looseObject({
      format: responsesTextFormatSchema.nullish(),
      verbosity: z.enum(['low', 'medium', 'high']).nullish(),
    })
    .nullish(),
  reasoning: z
    .looseObject({
      effort: z.enum(RESPONSES_REASONING_EFFORTS).nullish(),
      summary: summarySchema,
      /** Deprecated spelling of `summary`. */
      generate_summary: summarySchema,
    })
    .nullish(),
  max_output_tokens: positiveInt.nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  top_logprobs: z.int().min(0).max(20).nullish(),
  metadata: metadataSchema.nullish(),
  include: boundedArray(z.array(z.string())).nullish(),
  store: z.boolean().nullish(),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_obfuscation: z.boolean().nullish() }).nullish(),
  previous_response_id: z.string().nullish(),
  background: z
    .boolean()
    .refine((value) => !value, {
      message: 'background responses are not supported: this gateway answers within the request; leave `background` out',
    })
    .nullish(),
  conversation: refused(
    'conversations are not supported: send `previous_response_id` (the id of the last response) or the full conversation in `input` instead',
  ),
  prompt: refused('prompt templates are not supported: send the prompt as `instructions` and `input` instead'),
  truncation: z.enum(['auto', 'disabled']).nullish(),
  user: z.string().nullish(),
  safety_identifier: z.string().nullish(),
  prompt_cache_key: z.string().nullish(),
  service_tier: z.string().nullish(),
});
export type ResponsesRequest = z.infer<typeof responsesRequestSchema>;
