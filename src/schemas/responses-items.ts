/**
 * Zod validators for the items of a Responses `input` (the conversation of
 * `POST /v1/responses`): messages, function and custom tool calls and their
 * outputs, reasoning items and item references.
 *
 * Objects are loose and optional fields accept `null`, as in the chat
 * schemas. Item types this file does not model (`web_search_call`,
 * `local_shell_call`, `compaction`, …) validate as {@link UnknownResponseItem}:
 * clients replay them from earlier answers, and the translation drops them
 * rather than failing the request.
 *
 * @see https://platform.openai.com/docs/api-reference/responses/create
 */
import { z } from 'zod';
import { boundedArray } from './bounded-array.js';
import { OTHER_TYPE_MARKER } from './other-type.js';

/** `input_text`: text the caller (or a tool) wrote. */
const inputTextPartSchema = z.looseObject({ type: z.literal('input_text'), text: z.string() });

/** `input_image`: an http(s) or data URL, or the id of an uploaded file. */
const inputImagePartSchema = z.looseObject({
  type: z.literal('input_image'),
  image_url: z.string().nullish(),
  file_id: z.string().nullish(),
  detail: z.enum(['auto', 'low', 'high', 'original']).nullish(),
});

/** `input_file`: a file by id, by URL, or inline as a base64 data URL (`file_data`). */
const inputFilePartSchema = z.looseObject({
  type: z.literal('input_file'),
  file_id: z.string().nullish(),
  file_url: z.string().nullish(),
  file_data: z.string().nullish(),
  filename: z.string().nullish(),
});

/** One part of a user, system or developer message, or of a tool output. */
export const responseInputPartSchema = z.discriminatedUnion('type', [
  inputTextPartSchema,
  inputImagePartSchema,
  inputFilePartSchema,
]);
export type ResponseInputPart = z.infer<typeof responseInputPartSchema>;

/** `output_text`: text the model wrote, replayed as history; `annotations` (citations) are not sent upstream. */
const outputTextPartSchema = z.looseObject({
  type: z.literal('output_text'),
  text: z.string(),
  annotations: z.array(z.unknown()).nullish(),
});

const refusalPartSchema = z.looseObject({ type: z.literal('refusal'), refusal: z.string() });

/**
 * One part of an assistant message: `output_text` or `refusal` (the output
 * form), or `input_text` (the short form accepts input parts for every role).
 */
export const responseAssistantPartSchema = z.discriminatedUnion('type', [
  outputTextPartSchema,
  refusalPartSchema,
  inputTextPartSchema,
]);
export type ResponseAssistantPart = z.infer<typeof responseAssistantPartSchema>;

/** `in_progress`, `completed` or `incomplete` as OpenAI sends it; not read, so any string passes. */
const itemStatusSchema = z.string().nullish();

const inputMessageSchema = z.looseObject({
  type: z.literal('message').optional(),
  role: z.enum(['user', 'system', 'developer']),
  content: z.union([z.string(), boundedArray(z.array(responseInputPartSchema))]),
  id: z.string().nullish(),
  status: itemStatusSchema,
});

const assistantMessageSchema = z.looseObject({
  type: z.literal('message').optional(),
  role: z.literal('assistant'),
  content: z.union([z.string(), boundedArray(z.array(responseAssistantPartSchema))]),
  id: z.string().nullish(),
  status: itemStatusSchema,
});

/**
 * A message: `{role, content}` with `type: 'message'` optional. Roles `user`,
 * `system` and `developer` take input parts; `assistant` takes output parts.
 */
export const responseMessageItemSchema = z.discriminatedUnion('role', [inputMessageSchema, assistantMessageSchema]);
export type ResponseMessageItem = z.infer<typeof responseMessageItemSchema>;

/** A function call the model made; `arguments` is a JSON string. `call_id` pairs it with its output. */
export const functionCallItemSchema = z.looseObject({
  type: z.literal('function_call'),
  call_id: z.string(),
  name: z.string(),
  arguments: z.string(),
  id: z.string().nullish(),
  status: itemStatusSchema,
});
export type FunctionCallItem = z.infer<typeof functionCallItemSchema>;

/** What the caller's function returned for `call_id`: text, or input parts. */
export const functionCallOutputItemSchema = z.looseObject({
  type: z.literal('function_call_output'),
  call_id: z.string(),
  output: z.union([z.string(), boundedArray(z.array(responseInputPartSchema))]),
  id: z.string().nullish(),
  status: itemStatusSchema,
});
export type FunctionCallOutputItem = z.infer<typeof functionCallOutputItemSchema>;

/** A call of a `custom` (free-form) tool; `input` is the raw text the model wrote. */
export const customToolCallItemSchema = z.looseObject({
  type: z.literal('custom_tool_call'),
  call_id: z.string(),
  name: z.string(),
  input: z.string(),
  id: z.string().nullish(),
});
export type CustomToolCallItem = z.infer<typeof customToolCallItemSchema>;

/** What the caller's custom tool returned for `call_id`. */
export const customToolCallOutputItemSchema = z.looseObject({
  type: z.literal('custom_tool_call_output'),
  call_id: z.string(),
  output: z.union([z.string(), boundedArray(z.array(responseInputPartSchema))]),
  id: z.string().nullish(),
});
export type CustomToolCallOutputItem = z.infer<typeof customToolCallOutputItemSchema>;

/**
 * Earlier reasoning of the model. `summary` is what clients show;
 * `encrypted_content` is the opaque form a stateless client sends back so
 * the reasoning can be restored.
 */
export const reasoningItemSchema = z.looseObject({
  type: z.literal('reasoning'),
  id: z.string().nullish(),
  summary: boundedArray(z.array(z.looseObject({ type: z.literal('summary_text'), text: z.string() }))).nullish(),
  content: boundedArray(z.array(z.looseObject({ type: z.literal('reasoning_text'), text: z.string() }))).nullish(),
  encrypted_content: z.string().nullish(),
  status: itemStatusSchema,
});
export type ReasoningItem = z.infer<typeof reasoningItemSchema>;

/** A pointer to an item of a stored response, resolved before translation. */
export const itemReferenceItemSchema = z.looseObject({ type: z.literal('item_reference'), id: z.string() });
export type ItemReferenceItem = z.infer<typeof itemReferenceItemSchema>;

/** The item `type`s modelled here; any other is an {@link UnknownResponseItem}. */
export const KNOWN_ITEM_TYPES = [
  'message',
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  'reasoning',
  'item_reference',
] as const;

const knownTypes = new Set<unknown>(KNOWN_ITEM_TYPES);

/**
 * An item of any other type (`web_search_call`, `local_shell_call`,
 * `compaction`, …). A missing `type` is not one: it is a message without
 * its optional `type`, and fails as such.
 */
export interface UnknownResponseItem {
  type: string;
  [field: string]: unknown;
}

const unknownItemSchema = z.looseObject({
  type: z.any().refine((type) => typeof type === 'string' && !knownTypes.has(type), {
    // Marked like `otherTypeSchema`, so a failed union explains the modelled branch, not this one.
    abort: true,
    message: 'expected an item type this field does not model',
    params: { [OTHER_TYPE_MARKER]: true },
  }),
}) as unknown as z.ZodType<UnknownResponseItem, UnknownResponseItem>;

const typedItemSchema = z.discriminatedUnion('type', [
  functionCallItemSchema,
  functionCallOutputItemSchema,
  customToolCallItemSchema,
  customToolCallOutputItemSchema,
  reasoningItemSchema,
  itemReferenceItemSchema,
]);

/** One item of `input`: a message, a modelled item, or (loosely) any other item type. */
export const responseInputItemSchema = z.union([responseMessageItemSchema, typedItemSchema, unknownItemSchema]);
export type ResponseInputItem = z.infer<typeof responseInputItemSchema>;

/** Every modelled item (the union without {@link UnknownResponseItem}). */
export type KnownResponseItem = ResponseMessageItem | z.infer<typeof typedItemSchema>;
