import { describe, expect, it } from 'vitest';
import { chatCompletionResponseSchema } from '../../../src/schemas/index.js';
import { toChatJsonResponse } from '../../../src/upstreams/gemini/gemini-chat-answer.js';
import { readUpstreamError } from '../../../src/upstreams/read-upstream-error.js';
import type { UpstreamResponse } from '../../../src/upstreams/upstream.js';
import { geminiJson } from '../../helpers/gemini-fixtures.js';
import { toAsyncBody } from '../../helpers/split-randomly.js';

const OPTIONS = { upstream: 'gem', model: 'gem-flash' };
const answer = (body: unknown): UpstreamResponse => ({
  status: 200,
  headers: { 'content-type': 'application/json; charset=UTF-8', 'content-length': '999', 'x-goog-trace': 't' },
  body: toAsyncBody([Buffer.from(typeof body === 'string' ? body : JSON.stringify(body))]),
});

async function json(response: UpstreamResponse): Promise<unknown> {
  const parts: Buffer[] = [];
  for await (const chunk of response.body) parts.push(Buffer.from(chunk));
  const text = Buffer.concat(parts).toString('utf8');
  expect(Number(response.headers['content-length'])).toBe(Buffer.byteLength(text));
  return JSON.parse(text);
}

describe('toChatJsonResponse', () => {
  it('answers a chat completion with its own framing headers', async () => {
    const response = await toChatJsonResponse(answer(geminiJson('answer-text-thoughts')), OPTIONS);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.headers['x-goog-trace']).toBe('t');
    const body = await json(response);
    expect(chatCompletionResponseSchema.safeParse(body).success).toBe(true);
    expect(body).toMatchObject({ model: 'gem-flash', choices: [{ message: { content: 'Café culture in 日本 is quiet and precise ☕️🍰.' } }] });
  });

  it('answers a blocked prompt as a 400 content_filter error and a broken call as a 502, both read like any upstream error', async () => {
    const blocked = await toChatJsonResponse(answer(geminiJson('answer-blocked-prompt')), OPTIONS);
    expect(blocked.status).toBe(400);
    expect(await readUpstreamError(blocked, 'gem')).toMatchObject({ status: 400, chatCode: 'content_filter' });
    const malformed = await toChatJsonResponse(answer(geminiJson('answer-malformed-call')), OPTIONS);
    expect(malformed.status).toBe(502);
    expect((await readUpstreamError(malformed, 'gem')).message).toContain('MALFORMED_FUNCTION_CALL');
  });

  it('answers a body that is not JSON as a 502', async () => {
    expect((await toChatJsonResponse(answer('<html>'), OPTIONS)).status).toBe(502);
  });
});
