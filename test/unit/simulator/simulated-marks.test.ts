/**
 * Every answer of the simulator's upstreams says it is simulated, errors
 * included; a mistyped catalog id is answered with the ids it was probably
 * meant to be.
 */
import { describe, expect, it } from 'vitest';
import { createSimulator } from '../../../src/simulator/index.js';
import { chat, send } from './support/simulator-calls.js';

const messages = (model: string, extra: Record<string, unknown> = {}) => ({ model, max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }], ...extra });

describe('simulated marks', () => {
  it('on every operation of both faces, streamed and not', async () => {
    const { upstreams } = createSimulator();
    const answers = [
      await send(upstreams.chat, 'chat.completions', chat('Hi')),
      await send(upstreams.chat, 'chat.completions', chat('Hi', { stream: true }), { stream: true }),
      await send(upstreams.chat, 'models.list'),
      await send(upstreams.messages, 'messages', messages('vendora-sonnet-4-6')),
      await send(upstreams.messages, 'messages', messages('vendora-sonnet-4-6', { stream: true }), { stream: true }),
      await send(upstreams.messages, 'messages.count_tokens', { model: 'vendora-sonnet-4-6', messages: [{ role: 'user', content: 'Hi' }] }),
      await send(upstreams.messages, 'files.list'),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.headers['x-modelgate-simulated']).toBe('true');
      expect(answer.headers).not.toHaveProperty('x-modelgate-did-you-mean');
    }
  });

  it('on errors: an injected fault, an invalid request, a body that is not JSON', async () => {
    const { upstreams } = createSimulator();
    const answers = [
      await send(upstreams.chat, 'chat.completions', chat('Hi'), { headers: { 'x-simulator-fault': 'status=503' } }),
      await send(upstreams.messages, 'messages', { model: 'vendora-sonnet-4-6', messages: [] }),
      await send(upstreams.messages, 'messages', undefined, { rawBody: new TextEncoder().encode('{not json') }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([503, 400, 400]);
    for (const answer of answers) expect(answer.headers['x-modelgate-simulated']).toBe('true');
  });

  it('a mistyped catalog id gets x-modelgate-did-you-mean, on either face', async () => {
    const { upstreams } = createSimulator();
    expect((await send(upstreams.chat, 'chat.completions', chat('Hi', { model: 'vendora-opsu-4-8' }))).headers['x-modelgate-did-you-mean']).toBe('vendora-opus-4-8');
    expect((await send(upstreams.messages, 'messages', messages('vendora-haiku-4-55'))).headers['x-modelgate-did-you-mean']).toBe('vendora-haiku-4-5');
    expect((await send(upstreams.chat, 'chat.completions', chat('Hi', { model: 'gpt-4o-mini' }))).headers).not.toHaveProperty('x-modelgate-did-you-mean');
  });

  it('over HTTP too (the simulator served with listen())', async () => {
    const server = await createSimulator().listen();
    try {
      const response = await fetch(`${server.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(chat('Hi', { model: 'vendora-sonet-4-6' })),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-modelgate-simulated')).toBe('true');
      expect(response.headers.get('x-modelgate-did-you-mean')).toBe('vendora-sonnet-4-6');
    } finally {
      await server.close();
    }
  });
});
