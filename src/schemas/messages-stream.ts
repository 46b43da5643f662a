/**
 * Zod validators for the events of a messages-interface stream (PROTOCOLS
 * A.6): `message_start`, then per block `content_block_start` /
 * `content_block_delta`… / `content_block_stop`, then `message_delta` and
 * `message_stop`; `ping` anywhere, `error` after the 200.
 *
 * Loose on extra keys (the real API adds fields and pads JSON with spaces);
 * strict on the keys the vendor's SDK relies on, e.g. `usage.output_tokens`
 * in every `message_delta`.
 */
import { z } from 'zod';
import { messagesResponseBlockSchema } from './messages-blocks.js';
import { messagesResponseSchema, stopReasonSchema } from './messages-response.js';

const index = z.int().min(0);
const count = z.int().min(0);

/** First event: the message with empty `content` and `stop_reason: null`. */
export const messageStartEventSchema = z.looseObject({
  type: z.literal('message_start'),
  message: messagesResponseSchema,
});
export type MessageStartEvent = z.infer<typeof messageStartEventSchema>;

/** Opens block `index` with its empty form (`text:""`, `input:{}`, …). */
export const contentBlockStartEventSchema = z.looseObject({
  type: z.literal('content_block_start'),
  index,
  content_block: messagesResponseBlockSchema,
});
export type ContentBlockStartEvent = z.infer<typeof contentBlockStartEventSchema>;

/** One increment of a block's content. */
export const contentBlockDeltaSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('text_delta'), text: z.string() }),
  z.looseObject({ type: z.literal('input_json_delta'), partial_json: z.string() }),
  z.looseObject({ type: z.literal('thinking_delta'), thinking: z.string() }),
  z.looseObject({ type: z.literal('signature_delta'), signature: z.string() }),
  z.looseObject({ type: z.literal('citations_delta'), citation: z.looseObject({ type: z.string() }) }),
]);
export type ContentBlockDelta = z.infer<typeof contentBlockDeltaSchema>;

/** `{type:'content_block_delta', index, delta}`. */
export const contentBlockDeltaEventSchema = z.looseObject({
  type: z.literal('content_block_delta'),
  index,
  delta: contentBlockDeltaSchema,
});
export type ContentBlockDeltaEvent = z.infer<typeof contentBlockDeltaEventSchema>;

/** Closes block `index`. */
export const contentBlockStopEventSchema = z.looseObject({
  type: z.literal('content_block_stop'),
  index,
});
export type ContentBlockStopEvent = z.infer<typeof contentBlockStopEventSchema>;

/**
 * Final stop reason and cumulative usage. `usage.output_tokens` is required:
 * the vendor SDK's stream helper fails without it.
 */
export const messageDeltaEventSchema = z.looseObject({
  type: z.literal('message_delta'),
  delta: z.looseObject({
    stop_reason: stopReasonSchema.nullable(),
    stop_sequence: z.string().nullish(),
    stop_details: z.unknown().optional(),
    container: z.looseObject({}).nullish(),
  }),
  usage: z.looseObject({
    output_tokens: count,
    input_tokens: count.nullish(),
    cache_creation_input_tokens: count.nullish(),
    cache_read_input_tokens: count.nullish(),
    server_tool_use: z.looseObject({}).nullish(),
    output_tokens_details: z.looseObject({}).nullish(),
  }),
});
export type MessageDeltaEvent = z.infer<typeof messageDeltaEventSchema>;

/** Last event of a complete stream. */
export const messageStopEventSchema = z.looseObject({ type: z.literal('message_stop') });
export type MessageStopEvent = z.infer<typeof messageStopEventSchema>;

/** Keep-alive; may appear anywhere. */
export const pingEventSchema = z.looseObject({ type: z.literal('ping') });
export type PingEvent = z.infer<typeof pingEventSchema>;

/** A failure after the 200 status was sent. */
export const streamErrorEventSchema = z.looseObject({
  type: z.literal('error'),
  error: z.looseObject({ type: z.string(), message: z.string() }),
});
export type StreamErrorEvent = z.infer<typeof streamErrorEventSchema>;

/** Any event of a messages stream, discriminated on `type`. */
export const messagesStreamEventSchema = z.discriminatedUnion('type', [
  messageStartEventSchema,
  contentBlockStartEventSchema,
  contentBlockDeltaEventSchema,
  contentBlockStopEventSchema,
  messageDeltaEventSchema,
  messageStopEventSchema,
  pingEventSchema,
  streamErrorEventSchema,
]);
export type MessagesStreamEvent = z.infer<typeof messagesStreamEventSchema>;
