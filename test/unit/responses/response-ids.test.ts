import { describe, expect, it } from 'vitest';
import { newCallId, newCustomToolCallItemId, newFunctionCallItemId, newMessageItemId, newReasoningItemId, newResponseId } from '../../../src/responses/response-ids.js';

describe('response ids', () => {
  const makers = { resp_: newResponseId, msg_: newMessageItemId, fc_: newFunctionCallItemId, rs_: newReasoningItemId, ctc_: newCustomToolCallItemId, call_: newCallId };
  for (const [prefix, make] of Object.entries(makers)) {
    it(`${prefix}: prefix and at least 128 random bits in hex, never repeated`, () => {
      const ids = Array.from({ length: 2000 }, make);
      for (const id of ids) {
        expect(id.startsWith(prefix)).toBe(true);
        expect(id.slice(prefix.length)).toMatch(/^[0-9a-f]{32,}$/);
      }
      expect(new Set(ids).size).toBe(ids.length);
      // Random, not counted: every hex digit appears at every position across many ids.
      const last = new Set(ids.map((id) => id.at(-1)));
      expect(last.size).toBe(16);
    });
  }
});
