/**
 * Gemini's `Candidate.finishReason` → the chat `finish_reason`, or `failed`
 * for a finish that leaves no usable answer.
 *
 * | Gemini | chat |
 * |---|---|
 * | `STOP`, absent | `stop`, or `tool_calls` when the candidate called functions |
 * | `MAX_TOKENS` | `length` (also with no content: the thinking budget ran out) |
 * | `CONTINUATION` | `length` (the answer is cut; Gemini offers to go on) |
 * | `SAFETY`, `RECITATION`, `BLOCKLIST`, `PROHIBITED_CONTENT`, `SPII`, `IMAGE_SAFETY`, `IMAGE_PROHIBITED_CONTENT`, `IMAGE_RECITATION` | `content_filter` (messages `refusal`, Responses `incomplete`) |
 * | `MALFORMED_FUNCTION_CALL`, `UNEXPECTED_TOOL_CALL`, `TOO_MANY_TOOL_CALLS` | `failed`: the model broke its own tool call, nothing the client can run; told as a retryable upstream failure (another attempt usually succeeds), never an empty success |
 * | `LANGUAGE`, `OTHER`, `NO_IMAGE`, `IMAGE_OTHER`, `FINISH_REASON_UNSPECIFIED`, newer values | `stop` (an ordinary end; the text so far is the answer) |
 *
 * @see https://ai.google.dev/api/generate-content#FinishReason
 * @internal
 */
import type { FinishReason } from '../../translate/map-finish-reason.js';
import type { GeminiFinishReason } from './gemini-types.js';

/** A chat finish reason, or `failed` when the model's tool call was unusable. */
export type GeminiFinishOutcome = FinishReason | 'failed';

/** Maps a finish reason; `calledFunctions` turns an ordinary stop into `tool_calls`. */
export function mapGeminiFinishReason(reason: GeminiFinishReason | string | undefined, calledFunctions: boolean): GeminiFinishOutcome {
  switch (reason as GeminiFinishReason | undefined) {
    case 'MAX_TOKENS':
    case 'CONTINUATION':
      return 'length';
    case 'SAFETY':
    case 'RECITATION':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
    case 'IMAGE_SAFETY':
    case 'IMAGE_PROHIBITED_CONTENT':
    case 'IMAGE_RECITATION':
      return 'content_filter';
    case 'MALFORMED_FUNCTION_CALL':
    case 'UNEXPECTED_TOOL_CALL':
    case 'TOO_MANY_TOOL_CALLS':
      return 'failed';
    case 'STOP':
    case 'LANGUAGE':
    case 'OTHER':
    case 'NO_IMAGE':
    case 'IMAGE_OTHER':
    case 'FINISH_REASON_UNSPECIFIED':
    case undefined:
      return calledFunctions ? 'tool_calls' : 'stop';
    default:
      // A finish reason newer than this table: an ordinary end.
      return calledFunctions ? 'tool_calls' : 'stop';
  }
}
