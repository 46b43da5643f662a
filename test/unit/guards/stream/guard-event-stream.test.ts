/** The guard stage passes SSE comments (the relay's keep-alive) through unchanged and in order, and edits only events. */
import { describe, expect, it } from 'vitest';
import { guardEventStream, type StreamEditor } from '../../../../src/guards/stream/guard-event-stream.js';

const encoder = new TextEncoder();

async function* bytes(parts: readonly string[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield encoder.encode(part);
}

async function collect(source: AsyncIterable<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let out = '';
  for await (const part of source) out += decoder.decode(part, { stream: true });
  return out;
}

/** Upper-cases each event's data, so an edited event is told from one passed as is. */
const upperCase: StreamEditor = {
  stopped: false,
  edit: async (event) => [{ ...event, data: event.data.toUpperCase() }],
};

describe('guardEventStream', () => {
  it('passes comments through in order between edited events, across chunk cuts', async () => {
    const out = await collect(guardEventStream(bytes(['data: a\n\n: pi', 'ng\n\ndata: b\n', '\n:\n\n']), upperCase));
    expect(out).toBe('data: A\n\n: ping\n\ndata: B\n\n: \n\n');
  });

  it('sends nothing after a stop, not even a comment', async () => {
    let stopped = false;
    const stopAtFirst: StreamEditor = {
      get stopped() {
        return stopped;
      },
      edit: async () => {
        stopped = true;
        return [{ data: 'END' }];
      },
    };
    const out = await collect(guardEventStream(bytes([': ping\n\ndata: a\n\n: ping\n\ndata: b\n\n']), stopAtFirst));
    expect(out).toBe(': ping\n\ndata: END\n\n');
  });
});
