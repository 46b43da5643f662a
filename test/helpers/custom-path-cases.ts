/**
 * The cases both adapters' custom-path tests run against an app that mounts
 * `steps('chat.completions')` at `/ai/chat` (with an app step noting the
 * principal into `seen`), `steps('messages')` at `/ai/claude` and
 * `steps('messages.count_tokens').dispatch` at `/ai/count`.
 */
import { expect, it } from 'vitest';
import { KEY } from './e2e-fixtures.js';

const user = [{ role: 'user', content: 'Hello there.' }];

export function customPathCases(url: () => string, seen: string[]): void {
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${url()}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  it('chat: the whole pipeline answers like /v1/chat/completions, with the app step in between', async () => {
    seen.length = 0;
    const response = await post('/ai/chat', { model: 'vendora-sonnet-4-6', messages: user }, { authorization: `Bearer ${KEY}` });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { object: string; model: string; choices: Array<{ finish_reason: string }> };
    expect(body).toMatchObject({ object: 'chat.completion', model: 'vendora-sonnet-4-6' });
    expect(body.choices[0]?.finish_reason).toBe('stop');
    expect(seen).toEqual([expect.stringMatching(/^key_/)]);
  });

  it('chat: streams, and its errors are in the chat format', async () => {
    const streamed = await post('/ai/chat', { model: 'gpt-4o', stream: true, messages: user }, { authorization: `Bearer ${KEY}` });
    expect(streamed.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect((await streamed.text()).trimEnd().endsWith('data: [DONE]')).toBe(true);

    const unauthenticated = await post('/ai/chat', { model: 'gpt-4o', messages: user });
    expect(unauthenticated.status).toBe(401);
    expect(await unauthenticated.json()).toMatchObject({ error: { type: 'invalid_request_error', code: 'invalid_api_key' } });

    const ruled = await post('/ai/chat', { model: 'vendora-opus-4-7', temperature: 0.5, messages: user }, { authorization: `Bearer ${KEY}` });
    expect(ruled.status).toBe(400);
    expect(await ruled.json()).toMatchObject({ error: { param: 'temperature' } });
  });

  it('messages and count_tokens: answered in the vendor format', async () => {
    const headers = { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' };
    const message = await post('/ai/claude', { model: 'vendora-haiku-4-5', max_tokens: 32, messages: user }, headers);
    expect(message.status).toBe(200);
    expect(await message.json()).toMatchObject({ type: 'message', model: 'vendora-haiku-4-5' });

    const invalid = await post('/ai/claude', { model: 'vendora-haiku-4-5', messages: user }, headers);
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining('max_tokens') } });

    const counted = await post('/ai/count', { model: 'vendora-haiku-4-5', messages: user }, headers);
    expect(counted.status).toBe(200);
    expect(((await counted.json()) as { input_tokens: number }).input_tokens).toBeGreaterThan(0);
  });
}
