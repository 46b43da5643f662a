/**
 * Records a streamed upstream answer as the object the same call would have
 * returned unstreamed, so one cache entry serves streamed and non-streamed
 * requests alike. The relay hands every upstream event to `observe`, in
 * order; once it ends, `finish` gives the answer, or `undefined` when the
 * stream was not whole and must not be stored.
 */
import type { SseEvent } from '../sse/parse-sse.js';
import type { WireFormat } from '../types.js';
import { createChatStreamRecorder } from './record-chat-stream.js';
import { createMessagesStreamRecorder } from './record-messages-stream.js';

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

/** Folds one upstream stream into its non-streamed answer. */
export interface AnswerRecorder {
  /** Takes the next upstream event (all of them, in order, `ping`s and the terminal event included). Never throws. */
  observe(event: SseEvent): void;
  /**
   * The answer the same call would have returned unstreamed: a chat
   * `chat.completion` or a messages `message`. `undefined` when the stream
   * is not whole: it ended before its terminal event (`[DONE]`,
   * `message_stop`) or a finish reason for every choice, it carried an
   * error event or an event that is not JSON, a tool input did not parse,
   * or the recording passed `maxBytes`.
   */
  finish(): Record<string, unknown> | undefined;
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
