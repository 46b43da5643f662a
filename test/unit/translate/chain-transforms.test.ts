import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/errors.js';
import { createRedactor, type Redactor } from '../../../src/redact/redactor.js';
import { chainTransforms } from '../../../src/translate/chain-transforms.js';
import { createMessagesToResponsesStream } from '../../../src/translate/messages-to-responses-stream.js';
import type { SseEvent, TextStreamTransform } from '../../../src/translate/stream-transform.js';
import { checkResponsesStream } from '../../helpers/responses-grammar.js';
import { readSseFixture } from './support/stream-harness.js';

/** Records what it receives; answers each push with `reply(event)`. */
class Recorder implements TextStreamTransform {
  readonly calls: (string | SseEvent)[] = [];
  redactor: Redactor | undefined;
  constructor(private readonly reply: (event: SseEvent) => string[] = () => []) {}
  push(event: SseEvent): string[] {
    this.calls.push(event);
    return this.reply(event);
  }
  end(): string[] {
    this.calls.push('end');
    return ['<end>'];
  }
  error(error: GatewayError): string[] {
    this.calls.push(`error:${error.message}`);
    return ['<error>'];
  }
  useRedactor(redactor: Redactor): void {
    this.redactor = redactor;
  }
}

describe('chainTransforms', () => {
  it('parses each event the first writes back into an event for the second; [DONE] ends the second', () => {
    const first = new Recorder(() => ['data: {"a":1}\n\nevent: named\ndata: line one\ndata: line two\n\n', 'data: [DONE]\n\n']);
    const last = new Recorder((event) => [`<${event.data}>`]);
    const chain = chainTransforms(first, last);
    expect(chain.push({ data: 'x' })).toEqual(['<{"a":1}>', '<line one\nline two>', '<end>']);
    expect(last.calls).toEqual([{ data: '{"a":1}' }, { event: 'named', data: 'line one\nline two' }, 'end']);
  });

  it('an event split across two writes reaches the second once complete', () => {
    const parts = ['data: {"par', 'tial":true}\n\n'];
    const first = new Recorder(() => [parts.shift() ?? '']);
    const last = new Recorder((event) => [event.data]);
    const chain = chainTransforms(first, last);
    expect(chain.push({ data: '1' })).toEqual([]);
    expect(chain.push({ data: '2' })).toEqual(['{"partial":true}']);
  });

  it('end() drains the first, then ends the second; error() goes to the second only', () => {
    const first = new Recorder();
    const last = new Recorder();
    const chain = chainTransforms(first, last);
    expect(chain.end()).toEqual(['<end>']);
    expect(first.calls).toEqual(['end']);
    expect(chain.error(new GatewayError('UPSTREAM_ERROR', 'boom'))).toEqual(['<error>']);
    expect(first.calls).toEqual(['end']);
    expect(last.calls).toEqual(['end', 'error:boom']);
  });

  it('gives the redactor to both and offers no byte path', () => {
    const first = new Recorder();
    const last = new Recorder();
    const chain = chainTransforms(first, last);
    const redactor = createRedactor(['secret-value-123']);
    chain.useRedactor(redactor);
    expect(first.redactor).toBe(redactor);
    expect(last.redactor).toBe(redactor);
    expect('pushRaw' in chain).toBe(false);
  });

  it('a messages stream that ends without message_stop fails the Response through end()', async () => {
    const events = (await readSseFixture('recorded/anthropic-text.sse')).filter((e) => e.event !== 'message_stop');
    const transform = createMessagesToResponsesStream({ id: 'resp_x', createdAt: 1, model: 'm', request: {}, customTools: new Set(), includeEncrypted: false, seal: () => 'S' });
    const out = [...events.flatMap((event) => transform.push(event)), ...transform.end()];
    const summary = checkResponsesStream(out, 'resp_x');
    expect(summary.terminal.type).toBe('response.failed');
    expect(summary.terminal.response.error.message).toMatch(/message_stop/);
    expect('pushRaw' in transform).toBe(false);
  });
});
