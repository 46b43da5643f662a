import { describe, expect, it } from 'vitest';
import { createSimulator } from '../../../src/simulator/index.js';
import { countTextTokens } from '../../../src/tokens/count-tokens.js';
import { SPEC_MATRIX } from '../models/spec-matrix.js';
import { ask, asMessage, send, textOf } from './support/simulator-calls.js';

/** Model ids by thinking mode, from the hand-typed SPEC matrix. */
const idsThinking = (mode: 'enabled' | 'adaptive' | 'none'): string[] => SPEC_MATRIX.filter((row) => row.thinking === mode).map((row) => row.id);

const HARD = 'Compare three ways to store time series data and recommend one for a small team with a tight budget.';

describe('thinking per the matrix', () => {
  const sim = createSimulator();
  const reply = async (body: Record<string, unknown>) => asMessage(await send(sim.upstreams.messages, 'messages', body));

  it.each(idsThinking('enabled'))(
    '%s: thinking.enabled yields a signed thinking block within budget before the text',
    async (model) => {
      const message = await reply(ask(HARD, { model, max_tokens: 2000, thinking: { type: 'enabled', budget_tokens: 1024 } }));
      expect(message.content.map((block) => block.type)).toEqual(['thinking', 'text']);
      const block = message.content[0];
      if (block?.type !== 'thinking') throw new Error('no thinking');
      expect(block.signature.length).toBeGreaterThan(20);
      const thinkingTokens = countTextTokens(block.thinking);
      expect(thinkingTokens).toBeGreaterThan(0);
      expect(thinkingTokens).toBeLessThanOrEqual(1024);
      expect(message.usage.output_tokens).toBe(thinkingTokens + countTextTokens(textOf(message)));
    },
  );

  it('keeps thinking within a small share of max_tokens and still answers', async () => {
    const message = await reply(ask(HARD, { max_tokens: 1030, thinking: { type: 'enabled', budget_tokens: 1024 } }));
    expect(message.usage.output_tokens).toBeLessThanOrEqual(1030);
  });

  it('does not think without a thinking field, or with disabled', async () => {
    for (const extra of [{}, { thinking: { type: 'disabled' } }]) {
      const message = await reply(ask(HARD, { max_tokens: 2000, ...extra }));
      expect(message.content.map((block) => block.type)).toEqual(['text']);
    }
  });

  it.each(idsThinking('adaptive'))(
    '%s: adaptive thinks on a non-trivial prompt only',
    async (model) => {
      const hard = await reply(ask(HARD, { model, max_tokens: 2000, thinking: { type: 'adaptive' } }));
      expect(hard.content[0]?.type).toBe('thinking');
      const easy = await reply(ask('Hi!', { model, max_tokens: 2000, thinking: { type: 'adaptive' } }));
      expect(easy.content.map((block) => block.type)).toEqual(['text']);
    },
  );

  it.each(idsThinking('none'))(
    '%s: thinking is rejected where it is not available',
    async (model) => {
      const answer = await send(sim.upstreams.messages, 'messages', ask(HARD, { model, max_tokens: 2000, thinking: { type: 'enabled', budget_tokens: 1024 } }));
      expect(answer.status).toBe(400);
    },
  );

  it('rejects thinking.adaptive on a model that takes enabled', async () => {
    const answer = await send(sim.upstreams.messages, 'messages', ask(HARD, { model: 'vendora-sonnet-4-6', thinking: { type: 'adaptive' } }));
    expect(answer.status).toBe(400);
  });

  it('display omitted returns an empty thinking text but bills the tokens', async () => {
    const message = await reply(ask(HARD, { max_tokens: 2000, thinking: { type: 'enabled', budget_tokens: 1024, display: 'omitted' } }));
    const block = message.content[0];
    expect(block?.type === 'thinking' && block.thinking).toBe('');
    expect(message.usage.output_tokens).toBeGreaterThan(countTextTokens(textOf(message)));
  });
});
