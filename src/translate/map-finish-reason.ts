/**
 * The one table between the messages `stop_reason` and the chat
 * `finish_reason`, in both directions.
 *
 * @see ../../shared/PROTOCOLS.md A.5 (stop_reason) and B.3 (finish_reason)
 */

/** Chat-completions `finish_reason` values. */
export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'function_call';

/** Messages `stop_reason` values this table knows. */
export type StopReason =
  | 'end_turn'
  | 'max_tokens'
  | 'stop_sequence'
  | 'tool_use'
  | 'pause_turn'
  | 'refusal'
  | 'model_context_window_exceeded';

/**
 * `stop_reason` → `finish_reason`:
 * `end_turn`/`stop_sequence` → `stop`, `max_tokens` → `length`,
 * `tool_use` → `tool_calls`, `refusal` → `content_filter`,
 * `model_context_window_exceeded` → `length` (the reply was cut by a size
 * limit), `pause_turn` → `stop` (a server-tool pause; chat has no resume).
 * `null`/absent and unknown values (a newer vendor) map to `stop`, the
 * only reason a client treats as an ordinary end.
 */
export function mapStopReason(stopReason: string | null | undefined): FinishReason {
  switch (stopReason as StopReason | null | undefined) {
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'refusal':
      return 'content_filter';
    case 'end_turn':
    case 'stop_sequence':
    case 'pause_turn':
    case null:
    case undefined:
      return 'stop';
    default: {
      // A stop reason newer than this table: still an ordinary end.
      const unknown: never = stopReason as never;
      void unknown;
      return 'stop';
    }
  }
}

/**
 * `finish_reason` → `stop_reason` (the reverse direction):
 * `stop` → `end_turn` (chat does not say whether a stop sequence matched),
 * `length` → `max_tokens`, `tool_calls` and legacy `function_call` →
 * `tool_use`, `content_filter` → `refusal`. `null`/unknown → `end_turn`.
 */
export function mapFinishReason(finishReason: string | null | undefined): StopReason {
  const reason = finishReason as FinishReason | null | undefined;
  switch (reason) {
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'content_filter':
      return 'refusal';
    case 'stop':
    case null:
    case undefined:
      return 'end_turn';
    default: {
      const unknown: never = reason;
      void unknown;
      return 'end_turn';
    }
  }
}

/**
 * `mapStopReason`, except that a stop for the forced JSON tool alone (no
 * caller tool was called) is an ordinary `stop`.
 */
export function finishReasonOf(stopReason: string | null | undefined, callerToolCalls: number): FinishReason {
  const reason = mapStopReason(stopReason);
  return reason === 'tool_calls' && callerToolCalls === 0 ? 'stop' : reason;
}
