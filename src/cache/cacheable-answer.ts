/** Stand-in until the cacheable-answer check lands on main. */
import type { WireFormat } from '../types.js';

export function isCacheableAnswer(format: WireFormat, body: Record<string, unknown>): boolean {
  if (format === 'messages') return body.stop_reason === 'end_turn' || body.stop_reason === 'tool_use' || body.stop_reason === 'stop_sequence';
  const choices = body.choices as Array<{ finish_reason?: string }> | undefined;
  return Array.isArray(choices) && choices.length > 0 && choices.every((choice) => choice.finish_reason === 'stop' || choice.finish_reason === 'tool_calls');
}
