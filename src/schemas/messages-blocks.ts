/**
 * Zod validators for the content blocks of the messages interface
 * (PROTOCOLS A.2), shared by requests, responses and stream events.
 *
 * Objects are loose: unknown keys pass through untouched.
 *
 * @see https://docs.anthropic.com/en/api/messages
 */
import { z } from 'zod';
import { boundedArray } from './bounded-array.js';
import { otherTypeSchema } from './other-type.js';

/** `{type:'ephemeral', ttl?:'5m'|'1h'}`: marks the end of a cacheable prefix. */
export const cacheControlSchema = z.looseObject({
  type: z.literal('ephemeral'),
  ttl: z.enum(['5m', '1h']).optional(),
});
export type CacheControl = z.infer<typeof cacheControlSchema>;

/** A citation is relayed as is; its many location kinds are not checked. */
const citationSchema = z.looseObject({ type: z.string() });

/** `{type:'text', text, citations?, cache_control?}`. */
export const textBlockSchema = z.looseObject({
  type: z.literal('text'),
  text: z.string(),
  citations: boundedArray(z.array(citationSchema)).nullish(),
  cache_control: cacheControlSchema.nullish(),
});
export type TextBlock = z.infer<typeof textBlockSchema>;

const fileSourceSchema = z.looseObject({ type: z.literal('file'), file_id: z.string() });
const urlSourceSchema = z.looseObject({ type: z.literal('url'), url: z.string() });

/** Image media types the vendor accepts. */
export const imageMediaTypeSchema = z.enum(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/** `{type:'image', source}` with a base64, url or file source. */
export const imageBlockSchema = z.looseObject({
  type: z.literal('image'),
  source: z.discriminatedUnion('type', [
    z.looseObject({ type: z.literal('base64'), media_type: imageMediaTypeSchema, data: z.string() }),
    urlSourceSchema,
    fileSourceSchema,
  ]),
  cache_control: cacheControlSchema.nullish(),
});
export type ImageBlock = z.infer<typeof imageBlockSchema>;

/** Blocks allowed inside a `content` document source. */
const documentContentSchema = z.union([
  z.string(),
  boundedArray(z.array(z.discriminatedUnion('type', [textBlockSchema, imageBlockSchema]))),
]);

/** `{type:'document', source, title?, context?, citations?}`. */
export const documentBlockSchema = z.looseObject({
  type: z.literal('document'),
  source: z.discriminatedUnion('type', [
    z.looseObject({ type: z.literal('base64'), media_type: z.literal('application/pdf'), data: z.string() }),
    z.looseObject({ type: z.literal('text'), media_type: z.literal('text/plain'), data: z.string() }),
    urlSourceSchema,
    z.looseObject({ type: z.literal('content'), content: documentContentSchema }),
    fileSourceSchema,
  ]),
  title: z.string().nullish(),
  context: z.string().nullish(),
  citations: z.looseObject({ enabled: z.boolean().optional() }).nullish(),
  cache_control: cacheControlSchema.nullish(),
});
export type DocumentBlock = z.infer<typeof documentBlockSchema>;

/** `{type:'search_result', source, title, content:[text blocks]}` (tool results and user turns). */
export const searchResultBlockSchema = z.looseObject({
  type: z.literal('search_result'),
  source: z.string(),
  title: z.string(),
  content: boundedArray(z.array(textBlockSchema)),
  citations: z.looseObject({ enabled: z.boolean().optional() }).optional(),
  cache_control: cacheControlSchema.nullish(),
});
export type SearchResultBlock = z.infer<typeof searchResultBlockSchema>;

/** `{type:'tool_use', id, name, input}`: a call the assistant made. */
export const toolUseBlockSchema = z.looseObject({
  type: z.literal('tool_use'),
  id: z.string(),
  name: z.string(),
  input: z.record(z.string(), z.unknown()),
  cache_control: cacheControlSchema.nullish(),
});
export type ToolUseBlock = z.infer<typeof toolUseBlockSchema>;

/** `{type:'tool_result', tool_use_id, content?, is_error?}`: the answer to a `tool_use`. */
export const toolResultBlockSchema = z.looseObject({
  type: z.literal('tool_result'),
  tool_use_id: z.string(),
  content: z
    .union([
      z.string(),
      boundedArray(
        z.array(
          z.discriminatedUnion('type', [textBlockSchema, imageBlockSchema, documentBlockSchema, searchResultBlockSchema]),
        ),
      ),
    ])
    .optional(),
  is_error: z.boolean().optional(),
  cache_control: cacheControlSchema.nullish(),
});
export type ToolResultBlock = z.infer<typeof toolResultBlockSchema>;

/** `{type:'thinking', thinking, signature}`; sent back unchanged on later turns. */
export const thinkingBlockSchema = z.looseObject({
  type: z.literal('thinking'),
  thinking: z.string(),
  signature: z.string(),
});
export type ThinkingBlock = z.infer<typeof thinkingBlockSchema>;

/** `{type:'redacted_thinking', data}`: encrypted thinking, sent back unchanged. */
export const redactedThinkingBlockSchema = z.looseObject({
  type: z.literal('redacted_thinking'),
  data: z.string(),
});
export type RedactedThinkingBlock = z.infer<typeof redactedThinkingBlockSchema>;

/**
 * Block kinds this package does not model (server tools and newer kinds).
 * The static type names the documented ones so that `switch (block.type)`
 * still narrows the modelled blocks; at runtime any `type` that is not a
 * modelled block passes, with all its keys.
 */
export interface OtherContentBlock {
  type:
    | 'server_tool_use'
    | 'web_search_tool_result'
    | 'web_fetch_tool_result'
    | 'code_execution_tool_result'
    | 'bash_code_execution_tool_result'
    | 'text_editor_code_execution_tool_result'
    | 'tool_search_tool_result'
    | 'mcp_tool_use'
    | 'mcp_tool_result'
    | 'container_upload';
  [key: string]: unknown;
}

const knownBlockSchema = z.discriminatedUnion('type', [
  textBlockSchema,
  imageBlockSchema,
  documentBlockSchema,
  searchResultBlockSchema,
  toolUseBlockSchema,
  toolResultBlockSchema,
  thinkingBlockSchema,
  redactedThinkingBlockSchema,
]);

/** Any request content block; unknown `type`s pass loosely (see `OtherContentBlock`). */
export const messagesContentBlockSchema = z.union([
  knownBlockSchema,
  otherTypeSchema([
    'text',
    'image',
    'document',
    'search_result',
    'tool_use',
    'tool_result',
    'thinking',
    'redacted_thinking',
  ]) as unknown as z.ZodType<
    OtherContentBlock,
    OtherContentBlock
  >,
]);
export type MessagesContentBlock = z.infer<typeof messagesContentBlockSchema>;

const knownResponseBlockSchema = z.discriminatedUnion('type', [
  textBlockSchema,
  thinkingBlockSchema,
  redactedThinkingBlockSchema,
  toolUseBlockSchema,
]);

/**
 * A content block the model produced (responses and `content_block_start`):
 * text, thinking, redacted thinking, tool use, or a server-tool block.
 */
export const messagesResponseBlockSchema = z.union([
  knownResponseBlockSchema,
  otherTypeSchema(['text', 'thinking', 'redacted_thinking', 'tool_use']) as unknown as z.ZodType<
    OtherContentBlock,
    OtherContentBlock
  >,
]);
export type MessagesResponseBlock = z.infer<typeof messagesResponseBlockSchema>;
