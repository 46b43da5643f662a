import { describe, expect, it } from 'vitest';
import { createCatalog, DEFAULT_MODELS } from '../../../src/models/catalog.js';
import { createSimulator } from '../../../src/simulator/index.js';
import type { MessagesUsage } from '../../../src/schemas/index.js';
import { countMessagesRequestTokens } from '../../../src/tokens/count-tokens.js';
import { asMessage, send } from './support/simulator-calls.js';

/** A cached system prompt of about `tokens` tokens (" word" is one token each). */
function systemOf(tokens: number, ttl?: '1h', word = 'word'): unknown[] {
  const marker = ttl ? { type: 'ephemeral', ttl } : { type: 'ephemeral' };
  return [{ type: 'text', text: `${word} `.repeat(tokens), cache_control: marker }];
}

function request(model: string, system: unknown[], question = 'What is in the document?') {
  return { model, max_tokens: 50, system, messages: [{ role: 'user', content: question }] };
}

type Outcome = 'write' | 'read' | 'fresh';

function outcome(usage: MessagesUsage): Outcome {
  if ((usage.cache_read_input_tokens ?? 0) > 0) return 'read';
  if ((usage.cache_creation_input_tokens ?? 0) > 0) return 'write';
  return 'fresh';
}

describe('prompt caching per the matrix (2,500-token prefix, first call then three repeats)', () => {
  const expected: Record<string, Outcome[]> = {
    reliable: ['write', 'read', 'read', 'read'],
    intermittent: ['write', 'read', 'read', 'write'],
    never: ['fresh', 'fresh', 'fresh', 'fresh'],
  };

  it.each(DEFAULT_MODELS.map((model) => [model.id, model.caching] as const))('%s (%s)', async (model, caching) => {
    const sim = createSimulator();
    const body = request(model, systemOf(2500));
    const total = countMessagesRequestTokens(body);
    const outcomes: Outcome[] = [];
    for (let i = 0; i < 4; i += 1) {
      const { usage } = asMessage(await send(sim.upstreams.messages, 'messages', body));
      outcomes.push(outcome(usage));
      // input_tokens excludes cached tokens; the three parts add up to the whole prompt.
      expect(usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0)).toBe(total);
      if (outcomes[i] !== 'fresh') expect(usage.input_tokens).toBeLessThan(100);
    }
    expect(outcomes).toEqual(expected[caching]);
  });

  it('intermittent models keep the pattern: two of every three repeats read', async () => {
    const sim = createSimulator();
    const body = request('vendora-sonnet-4-5', systemOf(2500));
    const outcomes: Outcome[] = [];
    for (let i = 0; i < 7; i += 1) outcomes.push(outcome(asMessage(await send(sim.upstreams.messages, 'messages', body)).usage));
    expect(outcomes).toEqual(['write', 'read', 'read', 'write', 'read', 'read', 'write']);
  });
});

describe('prompt caching rules', () => {
  it('ignores a marker below the 1,024-token minimum (cache_creation_input_tokens 0)', async () => {
    const sim = createSimulator();
    const body = request('vendora-sonnet-4-6', systemOf(500));
    for (let i = 0; i < 2; i += 1) {
      const { usage } = asMessage(await send(sim.upstreams.messages, 'messages', body));
      expect(usage.cache_creation_input_tokens).toBe(0);
      expect(usage.cache_read_input_tokens).toBe(0);
      expect(usage.input_tokens).toBe(countMessagesRequestTokens(body));
    }
  });

  it('uses 2,048 tokens as the minimum for haiku models', async () => {
    // Haiku models never cache in the matrix; make one reliable to see its minimum.
    const haiku = DEFAULT_MODELS.find((model) => model.id === 'vendora-haiku-4-5');
    if (!haiku) throw new Error('haiku missing');
    expect(haiku.minCacheableTokens).toBe(2048);
    const sim = createSimulator({ catalog: createCatalog({ models: [{ ...haiku, caching: 'reliable' }] }) });
    const small = asMessage(await send(sim.upstreams.messages, 'messages', request(haiku.id, systemOf(1500))));
    expect(small.usage.cache_creation_input_tokens).toBe(0);
    const large = asMessage(await send(sim.upstreams.messages, 'messages', request(haiku.id, systemOf(2100))));
    expect(large.usage.cache_creation_input_tokens).toBeGreaterThan(2048);
  });

  it('reads only within the 5-minute TTL (refreshed on each read), 1 hour with ttl 1h', async () => {
    let now = 0;
    const sim = createSimulator({ now: () => now });
    const body = request('vendora-sonnet-4-6', systemOf(1500));
    const next = async (minutes: number, payload: unknown = body) => {
      now += minutes * 60_000;
      return outcome(asMessage(await send(sim.upstreams.messages, 'messages', payload)).usage);
    };
    expect(await next(0)).toBe('write');
    expect(await next(4)).toBe('read');
    expect(await next(4)).toBe('read');
    expect(await next(6)).toBe('write');
    const hour = request('vendora-sonnet-4-6', systemOf(1500, '1h', 'hour'));
    expect(await next(0, hour)).toBe('write');
    expect(await next(50, hour)).toBe('read');
    const { usage } = asMessage(await send(sim.upstreams.messages, 'messages', { ...hour, system: systemOf(1600, '1h', 'other') }));
    expect(usage.cache_creation?.ephemeral_1h_input_tokens).toBeGreaterThan(0);
    expect(usage.cache_creation?.ephemeral_5m_input_tokens).toBe(0);
  });

  it('reads a shared prefix when only later turns change', async () => {
    const sim = createSimulator();
    const first = asMessage(await send(sim.upstreams.messages, 'messages', request('vendora-opus-4-8', systemOf(1500), 'First question')));
    const second = asMessage(await send(sim.upstreams.messages, 'messages', request('vendora-opus-4-8', systemOf(1500), 'Second question')));
    expect(first.usage.cache_creation_input_tokens).toBe(second.usage.cache_read_input_tokens);
  });

  it('caches up to the last block with a top-level cache_control', async () => {
    const sim = createSimulator();
    const body = { ...request('vendora-sonnet-4-6', [{ type: 'text', text: 'word '.repeat(1500) }]), cache_control: { type: 'ephemeral' } };
    expect(outcome(asMessage(await send(sim.upstreams.messages, 'messages', body)).usage)).toBe('write');
    expect(outcome(asMessage(await send(sim.upstreams.messages, 'messages', body)).usage)).toBe('read');
  });

  it('reset() forgets cached prefixes', async () => {
    const sim = createSimulator();
    const body = request('vendora-sonnet-4-6', systemOf(1500));
    await send(sim.upstreams.messages, 'messages', body);
    sim.reset();
    expect(outcome(asMessage(await send(sim.upstreams.messages, 'messages', body)).usage)).toBe('write');
  });

  it('keeps cache state per simulator', async () => {
    const body = request('vendora-sonnet-4-6', systemOf(1500));
    await send(createSimulator().upstreams.messages, 'messages', body);
    expect(outcome(asMessage(await send(createSimulator().upstreams.messages, 'messages', body)).usage)).toBe('write');
  });
});
