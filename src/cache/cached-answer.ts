/**
 * A cached answer as stored text: written once when an entry is filled,
 * read on every hit. Reading never throws: an entry of another layout
 * version, a foreign or damaged value, or a body that is not an answer is a
 * miss, so a store shared with older or newer gateways (or holding garbage)
 * can only cost an upstream call, never a broken reply.
 */
import type { WireFormat } from '../types.js';
import type { CachedAnswer } from './cache-types.js';

/** The entry layout this gateway writes and reads (`CachedAnswer.v`). */
export const CACHED_ANSWER_VERSION = 1;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isWireFormat(value: unknown): value is WireFormat {
  return value === 'chat' || value === 'messages';
}

/**
 * Whether `body` has the shape every reader of an entry relies on: a chat
 * answer has a non-empty `choices` list whose entries hold a `message`
 * object; a messages answer is a `message` with a `content` list of typed
 * blocks. Deliberately loose beyond that (upstreams add fields over time):
 * replay copies what it does not need to understand.
 */
export function hasAnswerShape(format: WireFormat, body: unknown): body is Json {
  if (!isObject(body)) return false;
  if (format === 'chat') {
    const { choices } = body;
    return Array.isArray(choices) && choices.length > 0 && choices.every((choice) => isObject(choice) && isObject(choice.message));
  }
  const { content } = body;
  return body.type === 'message' && Array.isArray(content) && content.every((block) => isObject(block) && typeof block.type === 'string');
}

/** The stored text of `answer` (JSON). */
export function serializeAnswer(answer: CachedAnswer): string {
  return JSON.stringify(answer);
}

/**
 * Reads a stored entry: `undefined` unless it is JSON of the current layout
 * version with a known wire format, a creation time, an upstream name and
 * a body of that format's answer shape (`hasAnswerShape`). Never throws.
 */
export function parseCachedAnswer(text: string): CachedAnswer | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(value) || value.v !== CACHED_ANSWER_VERSION) return undefined;
  const { createdAt, format, upstream, body } = value;
  if (typeof createdAt !== 'number' || !Number.isFinite(createdAt) || createdAt < 0) return undefined;
  if (!isWireFormat(format) || typeof upstream !== 'string' || !hasAnswerShape(format, body)) return undefined;
  return { v: CACHED_ANSWER_VERSION, createdAt, format, upstream, body };
}
