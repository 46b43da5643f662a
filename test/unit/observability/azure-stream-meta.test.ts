/**
 * Telemetry meta and usage of an Azure OpenAI stream (hand-written shapes,
 * test/fixtures/azure): the empty first chunk says `id:""` and `model:""`,
 * the finish chunk comes twice with a filter-offsets chunk between them.
 */
import { describe, expect, it } from 'vitest';
import { mergeResponseMeta, type ResponseMeta } from '../../../src/observability/genai-attributes.js';
import { withResponseMeta } from '../../../src/observability/stream-meta.js';
import { relaySse } from '../../../src/sse/relay-stream.js';
import { createUsageObserver } from '../../../src/sse/usage-observer.js';
import { azureChunks, azureSse } from '../../helpers/azure-fixtures.js';
import { splitRandomly } from '../../helpers/split-randomly.js';

async function relay(pieces: readonly (string | Uint8Array)[]) {
  const observer = withResponseMeta(createUsageObserver('chat'), 'chat');
  async function* upstream() {
    for (const piece of pieces) yield typeof piece === 'string' ? Buffer.from(piece) : piece;
  }
  const body = relaySse({
    upstream: upstream(),
    format: 'chat',
    signal: new AbortController().signal,
    heartbeatMs: 0,
    onEvent: (event) => observer.observe(event),
    observes: (raw) => observer.observes(raw),
  });
  for await (const _chunk of body);
  return { meta: observer.meta, usage: observer.usage };
}

describe('Azure OpenAI stream meta', () => {
  for (const seed of [undefined, 2, 9]) {
    it(`id and model from the real chunks, one finish reason, usage from the usage chunk${seed === undefined ? '' : ` (seed ${seed})`}`, async () => {
      const text = azureSse('stream-text');
      const { meta, usage } = await relay(seed === undefined ? [text] : splitRandomly(text, { seed }));
      expect(meta).toEqual({ id: 'chatcmpl-AzureStream01', model: 'gpt-4o-2024-08-06', finishReasons: ['stop'] });
      expect(usage).toEqual({ inputTokens: 21, outputTokens: 4, cacheReadInputTokens: 0 });
    });
  }

  it('a stream cut after the empty first chunk reports no id or model rather than empty ones', async () => {
    const [first] = azureChunks('stream-text');
    const { meta } = await relay([`data: ${first}\n\n`]);
    expect(meta).toEqual({});
  });

  it('finish reasons are kept per choice: a repeated finish chunk counts once, other choices still count', () => {
    const meta: ResponseMeta = {};
    const finish = (index: number, reason: string) => ({ id: 'c', model: 'm', choices: [{ index, delta: {}, finish_reason: reason }] });
    mergeResponseMeta(meta, 'chat', finish(0, 'stop'));
    mergeResponseMeta(meta, 'chat', finish(1, 'length'));
    mergeResponseMeta(meta, 'chat', finish(0, 'stop'));
    expect(meta.finishReasons).toEqual(['stop', 'length']);
  });
});
