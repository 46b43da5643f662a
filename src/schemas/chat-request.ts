/**
 * Zod validators for the chat-completions request body: messages, tools
 * and the other fields (PROTOCOLS B.1–B.2).
 *
 * Every object is loose: fields this file does not know pass through
 * untouched, so a newer client field is never rejected or stripped. Optional
 * fields also accept `null`, as the vendor's OpenAPI spec marks them
 * nullable and many clients send explicit nulls.
 *
 * @see https://platform.openai.com/docs/api-reference/chat/create
 */
import { z } from 'zod';
import { boundedArray } from './bounded-array.js';

/** `cache_control` extension some clients put on chat content parts. */
const partCacheControlSchema = z.looseObject({ type: z.literal('ephemeral'), ttl: z.string().optional() });

const textPartSchema = z.looseObject({
  type: z.literal('text'),
  text: z.string(),
  cache_control: partCacheControlSchema.optional(),
});

const imagePartSchema = z.looseObject({
  type: z.literal('image_url'),
  image_url: z.looseObject({
    /** An https URL or `data:<mime>;base64,<data>`. */
    url: z.string(),
    detail: z.enum(['auto', 'low', 'high']).optional(),
  }),
  cache_control: partCacheControlSchema.optional(),
});

const audioPartSchema = z.looseObject({
  type: z.literal('input_audio'),
  input_audio: z.looseObject({ data: z.string(), format: z.string() }),
  cache_control: partCacheControlSchema.optional(),
});

const filePartSchema = z.looseObject({
  type: z.literal('file'),
  file: z.looseObject({
    file_data: z.string().optional(),
    file_id: z.string().optional(),
    filename: z.string().optional(),
  }),
  cache_control: partCacheControlSchema.optional(),
});

/** Assistant messages may carry refusal parts instead of text. */
const refusalPartSchema = z.looseObject({ type: z.literal('refusal'), refusal: z.string() });

/**
 * One content part of a user (or system/developer/tool) message: `text`,
 * `image_url`, `input_audio` or `file`, each with an optional
 * `cache_control` extension.
 */
export const chatContentPartSchema = z.discriminatedUnion('type', [
  textPartSchema,
  imagePartSchema,
  audioPartSchema,
  filePartSchema,
]);
export type ChatContentPart = z.infer<typeof chatContentPartSchema>;

/** A text-only part list (system, developer and tool messages). */
const textPartsSchema = boundedArray(z.array(textPartSchema));

/** A tool call made by the assistant; `arguments` is always a JSON string. */
export const chatToolCallSchema = z.looseObject({
  id: z.string(),
  type: z.literal('function'),
  function: z.looseObject({ name: z.string(), arguments: z.string() }),
});
export type ChatToolCall = z.infer<typeof chatToolCallSchema>;

/** Custom (free-form) tool calls are passed through loosely. */
const customToolCallSchema = z.looseObject({ id: z.string(), type: z.literal('custom'), custom: z.looseObject({}) });

const systemMessageSchema = z.looseObject({
  role: z.literal('system'),
  content: z.union([z.string(), textPartsSchema]),
  name: z.string().optional(),
});

const developerMessageSchema = z.looseObject({
  role: z.literal('developer'),
  content: z.union([z.string(), textPartsSchema]),
  name: z.string().optional(),
});

const userMessageSchema = z.looseObject({
  role: z.literal('user'),
  content: z.union([z.string(), boundedArray(z.array(chatContentPartSchema))]),
  name: z.string().optional(),
});

const assistantMessageSchema = z.looseObject({
  role: z.literal('assistant'),
  /** `null` or absent when `tool_calls` (or legacy `function_call`) is present. */
  content: z
    .union([z.string(), boundedArray(z.array(z.discriminatedUnion('type', [textPartSchema, refusalPartSchema])))])
    .nullish(),
  refusal: z.string().nullish(),
  name: z.string().optional(),
  tool_calls: boundedArray(z.array(z.discriminatedUnion('type', [chatToolCallSchema, customToolCallSchema]))).optional(),
  function_call: z.looseObject({ name: z.string(), arguments: z.string() }).nullish(),
  audio: z.looseObject({ id: z.string() }).nullish(),
  /** Extension some clients echo back from responses. */
  reasoning_content: z.string().nullish(),
})
  // The vendor rejects an assistant turn that carries nothing; a translated
  // empty turn would fail upstream with a less helpful message.
  .refine(
    (message) =>
      message.content != null ||
      (message.tool_calls?.length ?? 0) > 0 ||
      message.function_call != null ||
      message.audio != null,
    { path: ['content'], message: 'field required unless tool_calls is present' },
  );

const toolMessageSchema = z.looseObject({
  role: z.literal('tool'),
  tool_call_id: z.string(),
  content: z.union([z.string(), textPartsSchema]),
});

/** Legacy role of the old `functions` API. */
const functionMessageSchema = z.looseObject({
  role: z.literal('function'),
  name: z.string(),
  content: z.string().nullable(),
});

/** One conversation message, discriminated on `role`. */
export const chatMessageSchema = z.discriminatedUnion('role', [
  systemMessageSchema,
  developerMessageSchema,
  userMessageSchema,
  assistantMessageSchema,
  toolMessageSchema,
  functionMessageSchema,
]);
export type ChatMessage = z.infer<typeof chatMessageSchema>;

const functionDefinitionSchema = z.looseObject({
  name: z.string(),
  description: z.string().optional(),
  /** A JSON Schema object; its inner shape is not checked here. */
  parameters: z.record(z.string(), z.unknown()).optional(),
  strict: z.boolean().nullish(),
});

/** A tool the model may call: a function, or (loosely) a custom tool. */
export const chatToolSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('function'), function: functionDefinitionSchema }),
  z.looseObject({ type: z.literal('custom'), custom: z.looseObject({ name: z.string() }) }),
]);
export type ChatTool = z.infer<typeof chatToolSchema>;

/** `tool_choice`: a mode string or a named function/custom tool, or an allowed-tools set. */
export const chatToolChoiceSchema = z.union([
  z.enum(['none', 'auto', 'required']),
  z.discriminatedUnion('type', [
    z.looseObject({ type: z.literal('function'), function: z.looseObject({ name: z.string() }) }),
    z.looseObject({ type: z.literal('custom'), custom: z.looseObject({ name: z.string() }) }),
    z.looseObject({
      type: z.literal('allowed_tools'),
      allowed_tools: z.looseObject({
        mode: z.enum(['auto', 'required']),
        tools: boundedArray(z.array(z.record(z.string(), z.unknown()))),
      }),
    }),
  ]),
]);
export type ChatToolChoice = z.infer<typeof chatToolChoiceSchema>;

/** `response_format`: plain text, any JSON object, or a named JSON schema. */
export const chatResponseFormatSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('text') }),
  z.looseObject({ type: z.literal('json_object') }),
  z.looseObject({
    type: z.literal('json_schema'),
    json_schema: z.looseObject({
      name: z.string(),
      description: z.string().optional(),
      schema: z.record(z.string(), z.unknown()).optional(),
      strict: z.boolean().nullish(),
    }),
  }),
]);
export type ChatResponseFormat = z.infer<typeof chatResponseFormatSchema>;

const positiveInt = z.int().min(1);

/**
 * The `POST /v1/chat/completions` body. Only `model` and `messages` (at least
 * one) are required. Defaults applied upstream, not here: `temperature` 1,
 * `top_p` 1, `n` 1, `stream` false.
 */
export const chatCompletionRequestSchema = z.looseObject({
  model: z.string(),
  messages: boundedArray(z.array(chatMessageSchema).min(1)),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  max_tokens: positiveInt.nullish(),
  max_completion_tokens: positiveInt.nullish(),
  stream: z.boolean().nullish(),
  stream_options: z
    .looseObject({ include_usage: z.boolean().optional(), include_obfuscation: z.boolean().optional() })
    .nullish(),
  tools: boundedArray(z.array(chatToolSchema)).nullish(),
  tool_choice: chatToolChoiceSchema.nullish(),
  parallel_tool_calls: z.boolean().nullish(),
  response_format: chatResponseFormatSchema.nullish(),
  n: positiveInt.nullish(),
  stop: z.union([z.string(), boundedArray(z.array(z.string()))]).nullish(),
  seed: z.int().nullish(),
  user: z.string().nullish(),
  presence_penalty: z.number().min(-2).max(2).nullish(),
  frequency_penalty: z.number().min(-2).max(2).nullish(),
  logit_bias: z.record(z.string(), z.number()).nullish(),
  logprobs: z.boolean().nullish(),
  top_logprobs: z.int().min(0).max(20).nullish(),
  reasoning_effort: z.string().nullish(),
  service_tier: z.string().nullish(),
  store: z.boolean().nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
  modalities: boundedArray(z.array(z.string())).nullish(),
  audio: z.looseObject({}).nullish(),
  prediction: z.looseObject({ type: z.literal('content'), content: z.union([z.string(), textPartsSchema]) }).nullish(),
  verbosity: z.enum(['low', 'medium', 'high']).nullish(),
  web_search_options: z.looseObject({}).nullish(),
  safety_identifier: z.string().nullish(),
  prompt_cache_key: z.string().nullish(),
  functions: boundedArray(z.array(functionDefinitionSchema)).nullish(),
  function_call: z.union([z.enum(['none', 'auto']), z.looseObject({ name: z.string() })]).nullish(),
});
export type ChatCompletionRequest = z.infer<typeof chatCompletionRequestSchema>;
