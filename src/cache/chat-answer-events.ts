/**
 * A stored `chat.completion` → the chunk stream a chat upstream sends for it
 * (PROTOCOLS B.4), so a hit takes the same relay and translators as a live
 * stream. Per choice, one after the other:
 *
 * 1. the role chunk: `{role, content: "" | null, refusal: null}` (`content`
 *    `null` when the answer is calls alone), plus the message's other
 *    `null` / empty-list fields;
 * 2. reasoning: `reasoning_content` (in pieces); each signed or redacted
 *    block of the `thinking_blocks` extension right after the text it
 *    signs, as a translated messages stream sends it;
 * 3. other fields of the message (`reasoning`, `annotations`, …);
 * 4. `content`, then `refusal`, in pieces;
 * 5. each tool call: its first fragment with `id`, `type`, `function.name`
 *    and the start of the arguments, then the rest of the arguments;
 *    a legacy `function_call` whole;
 * 6. the finish chunk (`delta: {}`, `finish_reason`).
 *
 * Then, with `includeUsage`, the usage chunk (`choices: []`; every other
 * chunk has `usage: null`), and `data: [DONE]`. The recorder
 * (`record-chat-stream.ts`) folds this stream back into the same message.
 *
 * @internal
 */
import { CHAT_DONE, encodeChatChunk } from '../sse/format-sse.js';
import { deltaPieces } from './delta-pieces.js';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Options of {@link chatAnswerEvents}. */
export interface ChatAnswerEventsOptions {
  /** The completion id every chunk carries. */
  id: string;
  /** Unix seconds every chunk carries. */
  created: number;
  /** Send the usage chunk (`stream_options.include_usage`) and `usage: null` on the others. */
  includeUsage: boolean;
}

/** Message fields sent in a set order rather than by the generic rule. */
const ORDERED_FIELDS = new Set(['role', 'content', 'refusal', 'reasoning_content', 'thinking_blocks', 'tool_calls', 'function_call']);

const isEmptyValue = (value: unknown): boolean => value === null || (Array.isArray(value) && value.length === 0);

/** A string field's deltas: its pieces, and one empty delta for an empty string (so the field is there when folded back). */
function* textDeltas(field: string, text: string): Iterable<Json> {
  for (const piece of deltaPieces(text)) yield { [field]: piece };
}

function thinkingText(blocks: readonly unknown[]): string | undefined {
  let text = '';
  for (const block of blocks) {
    if (!isObject(block)) return undefined;
    if (block.type === 'thinking') text += typeof block.thinking === 'string' ? block.thinking : '';
  }
  return text;
}

function* reasoningDeltas(reasoning: unknown, blocks: unknown): Iterable<Json> {
  const list = Array.isArray(blocks) && blocks.length > 0 ? blocks : undefined;
  if (typeof reasoning === 'string' && list && reasoning !== '' && thinkingText(list) === reasoning) {
    // Each block after its own text: a translator closes the reasoning it signs (a messages thinking block, a Responses reasoning item) there.
    for (const block of list as Json[]) {
      if (block.type === 'thinking' && typeof block.thinking === 'string' && block.thinking !== '') yield* textDeltas('reasoning_content', block.thinking);
      yield { thinking_blocks: [block] };
    }
    return;
  }
  if (typeof reasoning === 'string') yield* textDeltas('reasoning_content', reasoning);
  if (list) yield { thinking_blocks: list };
}

function* toolCallDeltas(calls: unknown): Iterable<Json> {
  if (!Array.isArray(calls)) return;
  for (const [k, call] of calls.entries()) {
    if (!isObject(call)) continue;
    const { index: _index, function: fn, ...head } = call;
    if (!isObject(fn)) {
      yield { tool_calls: [{ index: k, ...head }] };
      continue;
    }
    const [first = '', ...rest] = deltaPieces(typeof fn.arguments === 'string' ? fn.arguments : '');
    yield { tool_calls: [{ index: k, ...head, function: { ...fn, arguments: first } }] };
    for (const piece of rest) yield { tool_calls: [{ index: k, function: { arguments: piece } }] };
  }
}

/** The deltas of one stored message, in stream order (the finish chunk aside). */
function* messageDeltas(message: Json): Iterable<Json> {
  const first: Json = { role: typeof message.role === 'string' ? message.role : 'assistant', content: typeof message.content === 'string' ? '' : null };
  if ('refusal' in message) first.refusal = null;
  const others: [string, unknown][] = [];
  for (const [key, value] of Object.entries(message)) {
    if (isEmptyValue(value) && key !== 'content' && key !== 'refusal' && key !== 'tool_calls') first[key] = Array.isArray(value) ? [] : null;
    else if (!ORDERED_FIELDS.has(key)) others.push([key, value]);
  }
  yield first;
  yield* reasoningDeltas(message.reasoning_content, message.thinking_blocks);
  for (const [key, value] of others) {
    if (typeof value === 'string') yield* textDeltas(key, value);
    else if (value !== undefined) yield { [key]: value };
  }
  if (typeof message.content === 'string' && message.content !== '') yield* textDeltas('content', message.content);
  if (typeof message.refusal === 'string') yield* textDeltas('refusal', message.refusal);
  yield* toolCallDeltas(message.tool_calls);
  if (isObject(message.function_call)) yield { function_call: message.function_call };
}

/** The encoded SSE events (one string each) of a stored completion's stream. */
export function chatAnswerEvents(body: Json, options: ChatAnswerEventsOptions): string[] {
  const envelope: Json = { id: options.id, object: 'chat.completion.chunk', created: options.created, model: typeof body.model === 'string' ? body.model : '' };
  if ('system_fingerprint' in body) envelope.system_fingerprint = body.system_fingerprint;
  if ('service_tier' in body) envelope.service_tier = body.service_tier;
  const out: string[] = [];
  const push = (choices: Json[], usage: unknown = null): void => {
    out.push(encodeChatChunk(options.includeUsage ? { ...envelope, choices, usage } : { ...envelope, choices }));
  };
  const choices = Array.isArray(body.choices) ? body.choices : [];
  for (const [position, choice] of choices.entries()) {
    if (!isObject(choice)) continue;
    const index = typeof choice.index === 'number' ? choice.index : position;
    const logprobs = 'logprobs' in choice ? { logprobs: null } : {};
    const message = isObject(choice.message) ? choice.message : {};
    for (const delta of messageDeltas(message)) push([{ index, delta, ...logprobs, finish_reason: null }]);
    const finish = typeof choice.finish_reason === 'string' ? choice.finish_reason : 'stop';
    push([{ index, delta: {}, ...logprobs, finish_reason: finish }]);
  }
  if (options.includeUsage && isObject(body.usage)) push([], body.usage);
  out.push(CHAT_DONE);
  return out;
}
