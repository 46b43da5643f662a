/** Stand-in until the answer recorder lands on main. */
import type { SseEvent } from '../sse/parse-sse.js';
import type { WireFormat } from '../types.js';

export interface AnswerRecorder {
  observe(event: SseEvent): void;
  finish(): Record<string, unknown> | undefined;
}

export function createAnswerRecorder(_format: WireFormat): AnswerRecorder {
  return { observe() {}, finish: () => undefined };
}
