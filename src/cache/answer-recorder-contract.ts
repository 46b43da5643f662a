/**
 * What a stream recorder does, in a file of its own so the per-format
 * recorders and the factory that picks one (`answer-recorder.ts`) both
 * depend on it rather than on each other.
 */
import type { SseEvent } from '../sse/parse-sse.js';

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
   * or the recording passed its byte limit.
   */
  finish(): Record<string, unknown> | undefined;
}
