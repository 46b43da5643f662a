/**
 * A cache hit as an upstream response: the stored answer as the JSON body
 * or the event stream its upstream would have sent, so the hit goes
 * through the same relay and translators as a live answer and reaches the
 * caller in its own format and mode, whatever mode filled the entry.
 */
import { randomUUID } from 'node:crypto';
import type { UpstreamResponse } from '../upstreams/upstream.js';
import type { CachedAnswer } from './cache-types.js';
import { chatAnswerEvents } from './chat-answer-events.js';
import { messagesAnswerEvents } from './messages-answer-events.js';

/** Options of {@link synthesizeUpstreamResponse}. */
export interface SynthesizeOptions {
  /** Answer as an event stream (`text/event-stream`) rather than one JSON body. */
  stream: boolean;
  /**
   * Chat streams: end with the usage chunk (`stream_options.include_usage`),
   * `usage: null` on the other chunks. Messages streams always carry usage;
   * JSON bodies always have theirs.
   */
  includeUsage: boolean;
}

/** A fresh id in the style of `answer`'s format: `chatcmpl-…` or `msg_…`. */
function freshId(answer: CachedAnswer): string {
  const random = randomUUID().replace(/-/g, '');
  return answer.format === 'chat' ? `chatcmpl-${random}` : `msg_${random}`;
}

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array, void, undefined> {
  yield bytes;
}

/**
 * The upstream response a hit answers with: status 200, a fresh response
 * id (and, for chat, `created` = now), everything else as stored (tool-call
 * ids included, so a follow-up turn that sends them back keys the same).
 *
 * @example
 * const answer = parseCachedAnswer(lookup.entry);
 * if (answer) response = synthesizeUpstreamResponse(answer, { stream: true, includeUsage: true });
 */
export function synthesizeUpstreamResponse(answer: CachedAnswer, options: SynthesizeOptions): UpstreamResponse {
  const id = freshId(answer);
  const created = Math.floor(Date.now() / 1000);
  if (!options.stream) {
    const body = answer.format === 'chat' ? { ...answer.body, id, created } : { ...answer.body, id };
    const bytes = Buffer.from(JSON.stringify(body));
    return { status: 200, headers: { 'content-type': 'application/json', 'content-length': String(bytes.byteLength) }, body: once(bytes) };
  }
  const events =
    answer.format === 'chat'
      ? chatAnswerEvents(answer.body, { id, created, includeUsage: options.includeUsage })
      : messagesAnswerEvents(answer.body, { id });
  return { status: 200, headers: { 'content-type': 'text/event-stream' }, body: once(Buffer.from(events.join(''))) };
}
