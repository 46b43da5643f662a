/**
 * A stored messages `message` → the event stream a messages upstream sends
 * for it (PROTOCOLS A.6), so a hit takes the same relay and translators as
 * a live stream:
 *
 * 1. `message_start`: the message with `content: []`, `stop_reason` and
 *    `stop_sequence` `null`, the usage with `output_tokens: 0`;
 * 2. per block, indexes 0, 1, …: `content_block_start` with its empty form,
 *    then its deltas, then `content_block_stop`:
 *    text → `citations_delta` per citation, `text_delta`s;
 *    thinking → `thinking_delta`s, one `signature_delta`;
 *    tool_use → `input_json_delta`s of the JSON of `input`;
 *    any other block (`redacted_thinking`, server tool blocks) whole in its start;
 * 3. `message_delta`: `stop_reason`, `stop_sequence`, `stop_details` /
 *    `container` when the message has them, and the whole usage;
 * 4. `message_stop`.
 *
 * The recorder (`record-messages-stream.ts`) folds this stream back into the
 * same message.
 *
 * @internal
 */
import { encodeMessagesEvent } from '../sse/format-sse.js';
import { deltaPieces } from './delta-pieces.js';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Message fields the vendor sends at the end, in `message_delta` (`null` in `message_start`). */
const LATE_FIELDS = ['stop_details', 'container'] as const;

/** Options of {@link messagesAnswerEvents}. */
export interface MessagesAnswerEventsOptions {
  /** The message id the stream carries. */
  id: string;
}

function* blockEvents(block: Json, index: number): Iterable<Json> {
  const delta = (payload: Json): Json => ({ type: 'content_block_delta', index, delta: payload });
  switch (block.type) {
    case 'text': {
      const citations = Array.isArray(block.citations) ? block.citations : undefined;
      yield { type: 'content_block_start', index, content_block: { ...block, text: '', ...(citations ? { citations: [] } : {}) } };
      for (const citation of citations ?? []) yield delta({ type: 'citations_delta', citation });
      for (const text of deltaPieces(str(block.text))) if (text !== '') yield delta({ type: 'text_delta', text });
      break;
    }
    case 'thinking': {
      yield { type: 'content_block_start', index, content_block: { ...block, thinking: '', signature: '' } };
      for (const thinking of deltaPieces(str(block.thinking))) if (thinking !== '') yield delta({ type: 'thinking_delta', thinking });
      // One signature, just before the block stops, as the vendor sends it.
      if (str(block.signature) !== '') yield delta({ type: 'signature_delta', signature: str(block.signature) });
      break;
    }
    case 'tool_use': {
      yield { type: 'content_block_start', index, content_block: { ...block, input: {} } };
      const json = JSON.stringify(isObject(block.input) ? block.input : {});
      for (const partial_json of deltaPieces(json)) yield delta({ type: 'input_json_delta', partial_json });
      break;
    }
    default:
      yield { type: 'content_block_start', index, content_block: block };
  }
  yield { type: 'content_block_stop', index };
}

/** The encoded SSE events (one string each) of a stored message's stream. */
export function messagesAnswerEvents(body: Json, options: MessagesAnswerEventsOptions): string[] {
  const { content, usage, stop_reason: stopReason, stop_sequence: stopSequence, ...rest } = body;
  const figures = isObject(usage) ? usage : {};
  const late: Json = {};
  const message: Json = { ...rest, id: options.id, content: [], stop_reason: null, stop_sequence: null };
  for (const field of LATE_FIELDS) {
    if (!(field in rest)) continue;
    late[field] = rest[field];
    message[field] = null;
  }
  const events: Json[] = [{ type: 'message_start', message: { ...message, usage: { ...figures, output_tokens: 0 } } }];
  const blocks = Array.isArray(content) ? content : [];
  for (const [index, block] of blocks.entries()) if (isObject(block)) events.push(...blockEvents(block, index));
  events.push(
    {
      type: 'message_delta',
      delta: { stop_reason: stopReason ?? null, stop_sequence: stopSequence ?? null, ...late },
      // Counts are cumulative: the delta's replace the start's (so `output_tokens` is the answer's).
      usage: { ...figures, output_tokens: typeof figures.output_tokens === 'number' ? figures.output_tokens : 0 },
    },
    { type: 'message_stop' },
  );
  return events.map((event) => encodeMessagesEvent(event as { type: string }));
}
