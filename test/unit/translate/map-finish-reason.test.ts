import { describe, expect, it } from 'vitest';
import { mapFinishReason, mapStopReason } from '../../../src/translate/map-finish-reason.js';

describe('mapStopReason / mapFinishReason', () => {
  it('maps every vendor stop reason', () => {
    const table = ['end_turn', 'stop_sequence', 'max_tokens', 'tool_use', 'refusal', 'pause_turn', 'model_context_window_exceeded', null, 'from_the_future'];
    expect(Object.fromEntries(table.map((reason) => [String(reason), mapStopReason(reason)]))).toEqual({
      end_turn: 'stop',
      stop_sequence: 'stop',
      max_tokens: 'length',
      tool_use: 'tool_calls',
      refusal: 'content_filter',
      pause_turn: 'stop',
      model_context_window_exceeded: 'length',
      null: 'stop',
      from_the_future: 'stop',
    });
  });

  it('maps every chat finish reason back', () => {
    const table = ['stop', 'length', 'tool_calls', 'content_filter', 'function_call', null];
    expect(table.map((reason) => mapFinishReason(reason))).toEqual(['end_turn', 'max_tokens', 'tool_use', 'refusal', 'tool_use', 'end_turn']);
  });

  it('round-trips the reasons both formats share', () => {
    for (const reason of ['stop', 'length', 'tool_calls', 'content_filter'] as const) expect(mapStopReason(mapFinishReason(reason))).toBe(reason);
  });
});
