/**
 * Which complete answers may be stored: only those that ended the way a
 * model ends when it has said what it meant to say. An answer cut by a
 * limit, stopped by a filter, refused or paused would be served again to
 * every later identical request, long after a retry might have done better.
 *
 * @see ../../shared/PROTOCOLS.md A.5 (stop_reason) and B.3 (finish_reason)
 */
import type { WireFormat } from '../types.js';
import { hasAnswerShape } from './cached-answer.js';

/**
 * Chat `finish_reason`s of a clean end. Left out, and why: `length` (cut by
 * the token limit), `content_filter` (cut or blocked by a filter), and any
 * value this table does not know (a newer vendor's reason cannot be judged).
 */
export const CACHEABLE_FINISH_REASONS: ReadonlySet<string> = new Set([
  // The model ended its turn or met a stop sequence.
  'stop',
  // The model asked for tools; the caller runs them and asks again.
  'tool_calls',
  // The legacy form of the same.
  'function_call',
]);

/**
 * Messages `stop_reason`s of a clean end. Left out, and why: `max_tokens`
 * and `model_context_window_exceeded` (cut by a size limit), `refusal`
 * (declined by the model's safety behaviour), `pause_turn` (a server tool
 * paused a turn that is to be resumed: half an answer), `null` and unknown
 * values.
 */
export const CACHEABLE_STOP_REASONS: ReadonlySet<string> = new Set([
  // The model ended its turn.
  'end_turn',
  // The model asked for tools.
  'tool_use',
  // A stop sequence of the request matched: the request asked for this end.
  'stop_sequence',
]);

type Json = Record<string, unknown>;

function nonEmptyString(value: unknown): boolean {
  return typeof value === 'string' && value !== '';
}

/**
 * Function arguments another format can take as a tool input: blank or a
 * JSON object. Anything else fails every translated replay (a messages
 * `tool_use` input is an object), so it is not kept to fail again.
 */
function isObjectArguments(call: unknown): boolean {
  if (typeof call !== 'object' || call === null) return false;
  const fn = (call as Json).function;
  if (typeof fn !== 'object' || fn === null) return true;
  const args = (fn as Json).arguments;
  if (typeof args !== 'string') return false;
  if (args.trim() === '') return true;
  try {
    const value: unknown = JSON.parse(args);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** A chat choice that ended cleanly, refused nothing, says something (text, tool calls or a function call) and whose calls' arguments are objects. */
function isCacheableChoice(choice: Json): boolean {
  if (typeof choice.finish_reason !== 'string' || !CACHEABLE_FINISH_REASONS.has(choice.finish_reason)) return false;
  const message = choice.message as Json;
  if (nonEmptyString(message.refusal)) return false;
  const calls = message.tool_calls;
  if (Array.isArray(calls) && !calls.every(isObjectArguments)) return false;
  const functionCall = typeof message.function_call === 'object' && message.function_call !== null;
  return nonEmptyString(message.content) || (Array.isArray(calls) && calls.length > 0) || functionCall;
}

/** A messages block the caller sees as part of the answer (thinking alone is no answer; an empty text is nothing). */
function saysSomething(block: Json): boolean {
  if (block.type === 'thinking' || block.type === 'redacted_thinking') return false;
  return block.type !== 'text' || nonEmptyString(block.text);
}

/**
 * Whether a complete answer in `format` may be stored: every chat choice
 * ends with a reason in {@link CACHEABLE_FINISH_REASONS}, has no `refusal`,
 * some content, and tool-call arguments that are JSON objects; a messages answer's `stop_reason` is in
 * {@link CACHEABLE_STOP_REASONS} and some block other than thinking says
 * something. An answer of no recognisable shape (no choices, no content
 * list) is never stored.
 */
export function isCacheableAnswer(format: WireFormat, body: Record<string, unknown>): boolean {
  if (!hasAnswerShape(format, body)) return false;
  if (format === 'chat') return (body.choices as Json[]).every(isCacheableChoice);
  if (typeof body.stop_reason !== 'string' || !CACHEABLE_STOP_REASONS.has(body.stop_reason)) return false;
  return (body.content as Json[]).some(saysSomething);
}
