import { describe, expect, it } from 'vitest';
import { createSimulator } from '../../../src/simulator/index.js';
import { chatErrorBodySchema, chatModelListSchema } from '../../../src/schemas/index.js';
import { countChatRequestTokens, countTextTokens } from '../../../src/tokens/count-tokens.js';
import { asCompletion, chat, chatChunks, send } from './support/simulator-calls.js';

describe('chat face: completions', () => {
  it('answers any model id with a valid completion that quotes the user', async () => {
    const { upstreams } = createSimulator();
    const completion = asCompletion(await send(upstreams.chat, 'chat.completions', chat('Why is the sky blue?', { model: 'my-own-model' })));
    expect(completion.model).toBe('my-own-model');
    expect(completion.id).toMatch(/^chatcmpl-/);
    const choice = completion.choices[0];
    expect(choice?.finish_reason).toBe('stop');
    expect(choice?.message.content).toContain('Why is the sky blue');
    expect(completion.usage?.prompt_tokens).toBe(countChatRequestTokens({ messages: [{ role: 'user', content: 'Why is the sky blue?' }] }));
    expect(completion.usage?.completion_tokens).toBe(countTextTokens(choice?.message.content ?? ''));
    expect(completion.usage?.total_tokens).toBe((completion.usage?.prompt_tokens ?? 0) + (completion.usage?.completion_tokens ?? 0));
  });

  it('returns n choices, each deterministic', async () => {
    const { upstreams } = createSimulator();
    const body = chat('Name a colour', { n: 3 });
    const first = asCompletion(await send(upstreams.chat, 'chat.completions', body));
    const again = asCompletion(await send(upstreams.chat, 'chat.completions', body));
    expect(first.choices.map((choice) => choice.index)).toEqual([0, 1, 2]);
    expect(again.choices.map((choice) => choice.message.content)).toEqual(first.choices.map((choice) => choice.message.content));
    const single = asCompletion(await send(upstreams.chat, 'chat.completions', chat('Name a colour')));
    expect(first.choices[0]?.message.content).toBe(single.choices[0]?.message.content);
  });

  it('finishes with length at max_tokens (or max_completion_tokens)', async () => {
    const { upstreams } = createSimulator();
    for (const limit of [{ max_tokens: 4 }, { max_completion_tokens: 4 }]) {
      const completion = asCompletion(await send(upstreams.chat, 'chat.completions', chat('Describe a cat', limit)));
      expect(completion.choices[0]?.finish_reason).toBe('length');
      expect(completion.usage?.completion_tokens).toBe(4);
    }
  });

  it('cuts the text before a stop sequence and finishes with stop', async () => {
    const { upstreams } = createSimulator();
    const full = asCompletion(await send(upstreams.chat, 'chat.completions', chat('Describe a dog'))).choices[0]?.message.content ?? '';
    const completion = asCompletion(await send(upstreams.chat, 'chat.completions', chat('Describe a dog', { stop: 'dog' })));
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.choices[0]?.message.content).toBe(full.slice(0, full.indexOf('dog')));
  });

  it('answers json_object with JSON and json_schema with a matching object', async () => {
    const { upstreams } = createSimulator();
    const plain = asCompletion(await send(upstreams.chat, 'chat.completions', chat('Give me JSON', { response_format: { type: 'json_object' } })));
    expect(JSON.parse(plain.choices[0]?.message.content ?? '')).toHaveProperty('answer');
    const schema = { type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0, maximum: 120 } }, required: ['name', 'age'] };
    const shaped = asCompletion(
      await send(upstreams.chat, 'chat.completions', chat('About Ada Lovelace', { response_format: { type: 'json_schema', json_schema: { name: 'person', schema } } })),
    );
    const value = JSON.parse(shaped.choices[0]?.message.content ?? '') as { name: unknown; age: unknown };
    expect(typeof value.name).toBe('string');
    expect(Number.isInteger(value.age)).toBe(true);
  });

  it('lists the catalog models and the embedding models in the chat shape', async () => {
    const answer = await send(createSimulator().upstreams.chat, 'models.list');
    const list = chatModelListSchema.parse(answer.json());
    expect(list.data).toHaveLength(15);
    expect(list.data.filter((model) => model.id.startsWith('text-embedding-'))).toHaveLength(3);
    expect(list.data[0]?.owned_by).toBe('vendora');
  });

  it('answers errors in the chat shape with all four keys', async () => {
    const answer = await send(createSimulator().upstreams.chat, 'chat.completions', { model: 'x', messages: [] });
    expect(answer.status).toBe(400);
    const body = chatErrorBodySchema.parse(answer.json());
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.param).toBe('messages');
    expect(answer.headers['x-request-id']).toMatch(/^req_/);
  });
});

describe('chat face: streams', () => {
  it('sends role chunk, content chunks, finish chunk and [DONE] without usage', async () => {
    const answer = await send(createSimulator().upstreams.chat, 'chat.completions', chat('Stream a story', { stream: true }));
    expect(answer.headers['content-type']).toMatch(/^text\/event-stream/);
    const chunks = chatChunks(answer.text);
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: 'assistant', content: '', refusal: null });
    expect(chunks[chunks.length - 1]?.choices[0]).toMatchObject({ delta: {}, finish_reason: 'stop' });
    expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(1);
    expect(new Set(chunks.map((chunk) => chunk.created)).size).toBe(1);
    for (const chunk of chunks) expect(chunk).not.toHaveProperty('usage');
    const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
    const plain = asCompletion(await send(createSimulator().upstreams.chat, 'chat.completions', chat('Stream a story')));
    expect(text).toBe(plain.choices[0]?.message.content);
  });

  it('adds usage: null to every chunk and a usage chunk with choices [] when include_usage', async () => {
    const body = chat('Stream with usage', { stream: true, stream_options: { include_usage: true } });
    const chunks = chatChunks((await send(createSimulator().upstreams.chat, 'chat.completions', body)).text);
    const last = chunks[chunks.length - 1];
    expect(last?.choices).toEqual([]);
    expect(last?.usage?.completion_tokens).toBeGreaterThan(0);
    for (const chunk of chunks.slice(0, -1)) expect(chunk.usage).toBeNull();
  });

  it('streams n choices, each with its own role and finish chunk', async () => {
    const body = chat('Two please', { stream: true, n: 2 });
    const chunks = chatChunks((await send(createSimulator().upstreams.chat, 'chat.completions', body)).text);
    for (const index of [0, 1]) {
      const mine = chunks.flatMap((chunk) => chunk.choices.filter((choice) => choice.index === index));
      expect(mine[0]?.delta.role).toBe('assistant');
      expect(mine.filter((choice) => choice.finish_reason !== null)).toHaveLength(1);
    }
  });
});
