/**
 * The block grammar of a messages event stream (PROTOCOLS A.6), checked
 * event by event: `message_start` first; blocks 0, 1, … one at a time, each
 * `content_block_start` → deltas of its own kind → `content_block_stop`;
 * a thinking block has at most one `signature_delta`, as its last delta; a
 * redacted thinking block has no delta; then `message_delta`,
 * `message_stop`.
 */
import { expect } from 'vitest';

type Json = Record<string, unknown>;

const DELTAS_OF: Record<string, readonly string[]> = {
  text: ['text_delta', 'citations_delta'],
  thinking: ['thinking_delta', 'signature_delta'],
  tool_use: ['input_json_delta'],
  redacted_thinking: [],
};

/** Throws (through `expect`) at the first event out of the grammar. */
export function checkMessagesBlockGrammar(events: readonly Json[]): void {
  expect(events[0]?.type).toBe('message_start');
  expect(events.slice(-2).map((event) => event.type)).toEqual(['message_delta', 'message_stop']);
  let open: { index: number; type: string; signed: boolean } | undefined;
  let next = 0;
  for (const [at, event] of events.slice(1, -2).entries()) {
    const where = `event ${at + 1} (${JSON.stringify(event)})`;
    if (event.type === 'content_block_start') {
      expect(open, `${where}: a block starts while another is open`).toBeUndefined();
      expect(event.index, where).toBe(next);
      const block = event.content_block as Json;
      expect(Object.keys(DELTAS_OF), where).toContain(block.type);
      if (block.type === 'thinking') expect(block, where).toEqual({ type: 'thinking', thinking: '', signature: '' });
      if (block.type === 'text') expect(block, where).toEqual({ type: 'text', text: '' });
      open = { index: next, type: String(block.type), signed: false };
      next += 1;
    } else if (event.type === 'content_block_delta') {
      expect(open, `${where}: a delta outside a block`).toBeDefined();
      expect(event.index, where).toBe(open?.index);
      const delta = event.delta as Json;
      expect(DELTAS_OF[open?.type ?? ''], where).toContain(delta.type);
      expect(open?.signed, `${where}: a delta after the block's signature`).toBe(false);
      if (delta.type === 'signature_delta' && open) open.signed = true;
    } else if (event.type === 'content_block_stop') {
      expect(open, `${where}: a stop outside a block`).toBeDefined();
      expect(event.index, where).toBe(open?.index);
      open = undefined;
    } else {
      expect(event.type, where).toBe('ping');
    }
  }
  expect(open, 'a block left open').toBeUndefined();
}
