/**
 * Gateway options seen through the official clients: the usage hook fires
 * once per model call with tokens, `n: 2` fans out to two messages calls
 * (streamed and not), and `dropUnsupportedParams` removes a rejected
 * temperature and says so in a header.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { UsageRecord } from 'modelgate';
import { FAULT_HEADER } from 'modelgate/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { anthropicClient, AUTH, openAIClient } from '../helpers/e2e-fixtures.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';

const user = [{ role: 'user' as const, content: 'Describe the moon in two sentences.' }];

describe('onUsage and n > 1', () => {
  let app: StartedApp;
  const usage: UsageRecord[] = [];

  beforeAll(async () => {
    app = await startApp('express5', { auth: AUTH, onUsage: (record) => usage.push(record) });
  });
  afterAll(() => app.close());
  beforeEach(() => {
    usage.length = 0;
  });

  /** The records of one request, once the response has been read in full. */
  const recordsOf = (requestId: string | null | undefined) => usage.filter((record) => record.requestId === requestId);

  it.each([
    ['translated', 'vendora-sonnet-4-6'],
    ['passthrough', 'gpt-4o'],
  ])('chat (%s): one record per call, with tokens, streamed and not', async (_kind, model) => {
    const openai = openAIClient(app.url);
    const plain = await openai.chat.completions.create({ model, messages: user }).withResponse();
    const [record] = recordsOf(plain.request_id);
    expect(recordsOf(plain.request_id)).toHaveLength(1);
    expect(record).toMatchObject({ endpoint: 'chat.completions', model, status: 200, stream: false, aborted: false, principalId: expect.stringMatching(/^key_/) });
    expect(record?.inputTokens).toBe(plain.data.usage?.prompt_tokens);
    expect(record?.outputTokens).toBe(plain.data.usage?.completion_tokens);

    const streamed = await openai.chat.completions.create({ model, messages: user, stream: true }).withResponse();
    const chunks = [];
    for await (const chunk of streamed.data) chunks.push(chunk);
    // The caller did not ask for a usage chunk, so it gets none, even though the gateway counted tokens.
    expect(chunks.filter((chunk) => chunk.choices.length === 0)).toEqual([]);
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('stop');
    expect(recordsOf(streamed.request_id)).toHaveLength(1);
    expect(recordsOf(streamed.request_id)[0]).toMatchObject({ stream: true, aborted: false });
    expect(recordsOf(streamed.request_id)[0]?.outputTokens).toBeGreaterThan(0);
  });

  it('messages and count_tokens: one record each', async () => {
    const client = anthropicClient(app.url);
    const message = await client.messages.create({ model: 'vendora-opus-4-6', max_tokens: 256, messages: user });
    expect(recordsOf(message._request_id)).toHaveLength(1);
    expect(recordsOf(message._request_id)[0]).toMatchObject({ endpoint: 'messages', inputTokens: message.usage.input_tokens, outputTokens: message.usage.output_tokens });

    const final = await client.messages.stream({ model: 'vendora-opus-4-6', max_tokens: 256, messages: user }).finalMessage();
    const streamedRecords = usage.filter((record) => record.endpoint === 'messages' && record.stream);
    expect(streamedRecords).toHaveLength(1);
    expect(streamedRecords[0]?.outputTokens).toBe(final.usage.output_tokens);

    const counted = await client.messages.countTokens({ model: 'vendora-opus-4-6', messages: user }).withResponse();
    expect(recordsOf(counted.request_id)).toHaveLength(1);
    expect(recordsOf(counted.request_id)[0]?.endpoint).toBe('messages.count_tokens');
  });

  it('a rule error makes no model call and no record; an upstream failure makes one record with its status', async () => {
    const client = anthropicClient(app.url);
    await expect(client.messages.create({ model: 'vendora-opus-4-7', max_tokens: 8, temperature: 0.3, messages: user } as Anthropic.MessageCreateParamsNonStreaming)).rejects.toMatchObject({ status: 400 });
    expect(usage).toHaveLength(0);
    await expect(
      client.messages.create({ model: 'vendora-opus-4-6', max_tokens: 8, messages: user }, { headers: { [FAULT_HEADER]: 'status=400; type=invalid_request_error; message=nope' } }),
    ).rejects.toMatchObject({ status: 400 });
    expect(usage).toHaveLength(1);
    expect(usage[0]).toMatchObject({ status: 400, endpoint: 'messages' });
  });

  it('n: 2 on a vendor model: two choices from two calls, two records', async () => {
    const openai = openAIClient(app.url);
    const completion = await openai.chat.completions.create({ model: 'vendora-sonnet-4-6', n: 2, messages: user }).withResponse();
    expect(completion.data.choices.map((choice) => choice.index)).toEqual([0, 1]);
    for (const choice of completion.data.choices) {
      expect(choice.message.content).toContain('Describe the moon');
      expect(choice.finish_reason).toBe('stop');
    }
    const records = recordsOf(completion.request_id);
    expect(records).toHaveLength(2);
    expect(completion.data.usage?.completion_tokens).toBe(records.reduce((sum, record) => sum + (record.outputTokens ?? 0), 0));
  });

  it('n: 2 streamed: both choices arrive, interleaved in one stream with one [DONE]', async () => {
    const openai = openAIClient(app.url);
    const final = await openai.chat.completions
      .stream({ model: 'vendora-haiku-4-5', n: 2, messages: user, stream_options: { include_usage: true } })
      .finalChatCompletion();
    expect(final.choices.map((choice) => choice.index)).toEqual([0, 1]);
    for (const choice of final.choices) {
      expect(choice.message.content).toContain('Describe the moon');
      expect(choice.finish_reason).toBe('stop');
    }
    expect(final.usage?.completion_tokens).toBeGreaterThan(0);
    expect(usage.filter((record) => record.model === 'vendora-haiku-4-5' && record.stream)).toHaveLength(2);
  });
});

describe('dropUnsupportedParams', () => {
  let app: StartedApp;

  beforeAll(async () => {
    app = await startApp('koa3', { auth: AUTH, dropUnsupportedParams: true });
  });
  afterAll(() => app.close());

  it('chat: a rejected temperature is removed and named in x-modelgate-dropped-params', async () => {
    const { data, response } = await openAIClient(app.url)
      .chat.completions.create({ model: 'vendora-opus-4-7', temperature: 0.4, messages: user })
      .withResponse();
    expect(data.choices[0]?.finish_reason).toBe('stop');
    expect(response.headers.get('x-modelgate-dropped-params')).toBe('temperature');
  });

  it('messages (streamed): the same, and the upstream never saw it', async () => {
    const stream = anthropicClient(app.url).messages.stream({
      model: 'vendora-sonnet-5',
      max_tokens: 256,
      temperature: 0.4,
      messages: user,
    } as Anthropic.MessageStreamParams);
    const final = await stream.finalMessage();
    // The simulator enforces the matrix too: a temperature reaching it would have been a 400.
    expect(final.stop_reason).toBe('end_turn');
    const { response } = await stream.withResponse();
    expect(response.headers.get('x-modelgate-dropped-params')).toBe('temperature');
  });

  it('an accepted temperature is kept: no header', async () => {
    const { response } = await openAIClient(app.url)
      .chat.completions.create({ model: 'vendora-sonnet-4-6', temperature: 0.4, messages: user })
      .withResponse();
    expect(response.headers.get('x-modelgate-dropped-params')).toBeNull();
  });
});
