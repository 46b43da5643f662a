/**
 * Records a streamed upstream answer as the object the same call would have
 * returned unstreamed, so one cache entry serves streamed and non-streamed
 * requests alike. The relay hands every upstream event to `observe`, in
 * order; once it ends, `finish` gives the answer, or `undefined` when the
 * stream was not whole and must not be stored.
 */
import type { WireFormat } from '../types.js';
import type { AnswerRecorder } from './answer-recorder-contract.js';
import { createChatStreamRecorder } from './record-chat-stream.js';
import { createMessagesStreamRecorder } from './record-messages-stream.js';

export type { AnswerRecorder } from './answer-recorder-contract.js';

/** Default of {@link AnswerRecorderOptions.maxBytes}: 1 MiB. */
export const DEFAULT_MAX_RECORDED_BYTES = 1024 * 1024;

/** Options of {@link createAnswerRecorder}. */
export interface AnswerRecorderOptions {
  /**
   * Most bytes (UTF-8) of text the recording keeps: texts, reasoning,
   * signatures, tool arguments, citations and other blocks. Past it the
   * recording stops and `finish` returns `undefined`, so a long stream
   * costs no more memory than this. Default 1 MiB ({@link DEFAULT_MAX_RECORDED_BYTES}).
   */
  maxBytes?: number;
}

/**
 * Creates the recorder for a stream in `format` (the answering upstream's).
 *
 * @example
 * const recorder = createAnswerRecorder('messages');
 * for await (const event of parseSse(response.body)) recorder.observe(event);
 * const answer = recorder.finish(); // a `message` object, or undefined
 */
export function createAnswerRecorder(format: WireFormat, options: AnswerRecorderOptions = {}): AnswerRecorder {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_RECORDED_BYTES;
  return format === 'chat' ? createChatStreamRecorder(maxBytes) : createMessagesStreamRecorder(maxBytes);
}
