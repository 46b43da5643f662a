/**
 * The Responses API through real clients, on Express and Koa, over both
 * upstream formats (the embedded simulator's chat face for a chat model,
 * its messages face for the twelve): the official `openai` client
 * (`responses.create`, `responses.stream()` and its strict accumulator, a
 * function-tool round trip, `previous_response_id`), the AI SDK's default
 * `openai(model)` (multi-turn with the default `store`, so `item_reference`
 * is sent, and with `store: false`), and the Agents SDK's default model.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { Agent, OpenAIProvider, Runner, tool as agentTool } from '@openai/agents';
import { generateText, type ModelMessage, stepCountIs, streamText, tool } from 'ai';
import { createGateway, memoryResponseStore, type Upstream, type UpstreamCall } from 'modelgate';
import { createSimulator } from 'modelgate/testing';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AUTH, failure, KEY, LIMITED_KEY, LIMITED_MODEL, openAIClient } from '../helpers/e2e-fixtures.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';

const MOUNTS = ['express5', 'koa3'] as const;
/** Served by the simulator's chat face (not one of the twelve). */
const CHAT_MODEL = 'gpt-4o-mini';
/** One of the twelve (thinking `enabled` in the SPEC matrix): served by the messages face. */
const VENDOR_MODEL = 'vendora-sonnet-4-6';
const MODELS = [CHAT_MODEL, VENDOR_MODEL] as const;

const weatherTool = {
  type: 'function' as const,
  name: 'get_weather',
  description: 'The weather in a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  strict: true,
};

/** A messages upstream that keeps every request body it is sent and every whole JSON answer it gives (what passed between gateway and vendor). */
function capturing(inner: Upstream): Upstream & { bodies: Record<string, unknown>[]; answers: string[] } {
  const bodies: Record<string, unknown>[] = [];
  const answers: string[] = [];
  async function* keep(body: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
    const chunks: Buffer[] = [];
    for await (const chunk of body) {
      chunks.push(Buffer.from(chunk));
      yield chunk;
    }
    answers.push(Buffer.concat(chunks).toString('utf8'));
  }
  return {
    name: inner.name,
    format: inner.format,
    bodies,
    answers,
    async send(call: UpstreamCall) {
      if (call.operation !== 'messages' || call.body === undefined) return inner.send(call);
      bodies.push(structuredClone(call.body) as Record<string, unknown>);
      const response = await inner.send(call);
      return call.stream ? response : { ...response, body: keep(response.body) };
    },
  };
}

describe.each(MOUNTS)('the Responses API on %s', (mount) => {
  let app: StartedApp;
  let openai: OpenAI;
  let vendor: ReturnType<typeof capturing>;

  beforeAll(async () => {
    const sim = createSimulator();
    vendor = capturing(sim.upstreams.messages);
    const gateway = createGateway({
      auth: AUTH,
      responseStore: memoryResponseStore(),
      routes: [
        { match: 'vendora-*', upstream: vendor },
        { match: '*', upstream: sim.upstreams.chat },
      ],
    });
    app = await startApp(mount, gateway);
    openai = openAIClient(app.url);
  });
  afterAll(() => app.close());

  describe.each(MODELS)('%s', (model) => {
    it('answers responses.create with a complete Response', async () => {
      const response = await openai.responses.create({ model, input: 'Describe a lighthouse.' });
      expect(response.id).toMatch(/^resp_[0-9a-zA-Z]{24,}$/);
      expect(response.object).toBe('response');
      expect(response.status).toBe('completed');
      expect(response.output_text).toContain('Describe a lighthouse');
      expect(response.usage).toMatchObject({
        input_tokens: expect.any(Number),
        input_tokens_details: { cached_tokens: expect.any(Number) },
        output_tokens: expect.any(Number),
        output_tokens_details: { reasoning_tokens: expect.any(Number) },
      });
      expect(response.usage!.total_tokens).toBe(response.usage!.input_tokens + response.usage!.output_tokens);
    });

    it('streams through responses.stream() and its accumulator', async () => {
      const stream = openai.responses.stream({ model, input: 'Describe a harbour.', instructions: 'Be brief.' });
      const types: string[] = [];
      let text = '';
      for await (const event of stream) {
        types.push(event.type);
        if (event.type === 'response.output_text.delta') text += event.delta;
      }
      const final = await stream.finalResponse();
      expect(types[0]).toBe('response.created');
      expect(types[1]).toBe('response.in_progress');
      expect(types.at(-1)).toBe('response.completed');
      expect(final.output_text).toBe(text);
      expect(text).toContain('Describe a harbour');
      expect(final.instructions).toBe('Be brief.');
    });

    it('runs a function-tool round trip by previous_response_id', async () => {
      const first = await openai.responses.create({ model, input: 'Use get_weather for Paris.', tools: [weatherTool] });
      const call = first.output.find((item) => item.type === 'function_call');
      expect(call).toMatchObject({ type: 'function_call', name: 'get_weather', status: 'completed' });
      if (call?.type !== 'function_call') throw new Error('no function call');
      expect(call.id).toMatch(/^fc_/);
      expect(JSON.parse(call.arguments)).toEqual({ city: 'Paris' });

      const second = await openai.responses.create({
        model,
        previous_response_id: first.id,
        tools: [weatherTool],
        input: [{ type: 'function_call_output', call_id: call.call_id, output: 'Sunny, 24 degrees' }],
      });
      expect(second.previous_response_id).toBe(first.id);
      expect(second.output_text).toContain('Sunny, 24 degrees');

      // The stored responses read back, with their input items (the chain's earlier items first).
      const stored = await openai.responses.retrieve(second.id);
      expect(stored.output_text).toBe(second.output_text);
      const items = await openai.responses.inputItems.list(second.id, { order: 'asc' });
      // The vendor's models write a sentence before their tool calls: the first answer may hold a message item too.
      expect(items.data.map((item) => item.type)).toEqual(['message', ...first.output.map((item) => item.type), 'function_call_output']);
      expect(items.data.map((item) => item.id)).toEqual([expect.stringMatching(/^msg_/), ...first.output.map((item) => item.id), expect.any(String)]);
    });

    it('streams a function call with its argument deltas', async () => {
      const stream = openai.responses.stream({ model, input: 'Use get_weather for Lisbon.', tools: [weatherTool] });
      const final = await stream.finalResponse();
      const call = final.output.find((item) => item.type === 'function_call');
      expect(call?.type === 'function_call' && JSON.parse(call.arguments)).toEqual({ city: 'Lisbon' });
    });
  });

  it('round-trips thinking on one of the twelve: the signed block reaches the vendor again byte for byte', async () => {
    const first = await openai.responses.create({
      model: VENDOR_MODEL,
      input: 'Use get_weather for Oslo.',
      tools: [weatherTool],
      reasoning: { effort: 'low' },
      include: ['reasoning.encrypted_content'],
      store: false,
    });
    const reasoning = first.output.find((item) => item.type === 'reasoning');
    const call = first.output.find((item) => item.type === 'function_call');
    if (reasoning?.type !== 'reasoning' || call?.type !== 'function_call') throw new Error('expected reasoning and a function call');
    expect(reasoning.summary[0]?.text.length).toBeGreaterThan(0);
    expect(reasoning.encrypted_content).toEqual(expect.any(String));
    const issued = vendor.bodies.length;
    // The block exactly as the vendor answered it.
    const answered = JSON.parse(vendor.answers.at(-1)!) as { content: { type: string }[] };
    const block = answered.content.find((item) => item.type === 'thinking');
    expect(block).toMatchObject({ type: 'thinking', thinking: reasoning.summary[0]?.text, signature: expect.stringMatching(/.{16}/) });

    // Stateless, as Codex works: every item sent back, nothing stored.
    const second = await openai.responses.create({
      model: VENDOR_MODEL,
      tools: [weatherTool],
      reasoning: { effort: 'low' },
      include: ['reasoning.encrypted_content'],
      store: false,
      input: [
        { role: 'user', content: 'Use get_weather for Oslo.' },
        ...first.output,
        { type: 'function_call_output', call_id: call.call_id, output: 'Snow' },
      ] as OpenAI.Responses.ResponseInput,
    });
    expect(second.output_text).toContain('Snow');
    const sent = vendor.bodies[issued] as { messages: { role: string; content: { type: string; thinking?: string; signature?: string }[] }[] };
    const assistant = sent.messages.find((message) => message.role === 'assistant');
    expect(JSON.stringify(assistant?.content[0])).toBe(JSON.stringify(block));
    expect(assistant?.content.at(-1)).toMatchObject({ type: 'tool_use', id: call.call_id, name: 'get_weather' });

    // A client cannot forge the seal: an altered envelope is dropped, never sent on.
    const forged = await openai.responses.create({
      model: VENDOR_MODEL,
      tools: [weatherTool],
      store: false,
      input: [
        { role: 'user', content: 'Use get_weather for Oslo.' },
        { ...reasoning, encrypted_content: `${reasoning.encrypted_content!.slice(0, -4)}AAAA` },
        call,
        { type: 'function_call_output', call_id: call.call_id, output: 'Snow' },
      ] as OpenAI.Responses.ResponseInput,
    });
    expect(forged.status).toBe('completed');
    expect(JSON.stringify(vendor.bodies.at(-1))).not.toContain(reasoning.summary[0]!.text);
    const forgedSent = vendor.bodies.at(-1) as { messages: { role: string; content: { type: string }[] }[] };
    expect(forgedSent.messages.find((message) => message.role === 'assistant')?.content.map((block) => block.type)).not.toContain('thinking');
  });

  it('switches thinking off for a tool-use turn whose earlier thinking is not sent back, instead of the vendor refusing it', async () => {
    const first = await openai.responses.create({ model: VENDOR_MODEL, input: 'Use get_weather for Bern.', tools: [weatherTool], reasoning: { effort: 'low' }, store: false });
    const call = first.output.find((item) => item.type === 'function_call');
    if (call?.type !== 'function_call') throw new Error('expected a function call');
    const { data, response } = await openai.responses
      .create({
        model: VENDOR_MODEL,
        tools: [weatherTool],
        reasoning: { effort: 'low' },
        store: false,
        input: [{ role: 'user', content: 'Use get_weather for Bern.' }, call, { type: 'function_call_output', call_id: call.call_id, output: 'Fog' }],
      })
      .withResponse();
    expect(data.output_text).toContain('Fog');
    expect(response.headers.get('x-modelgate-warnings')).toContain('thinking is off for this turn');
    expect(vendor.bodies.at(-1)?.thinking).toBeUndefined();
    expect(vendor.bodies.at(-2)?.thinking).toMatchObject({ type: 'enabled' });
  });

  it('refuses a previous_response_id of another key, and an unknown id, with the OpenAI error', async () => {
    const mine = await openai.responses.create({ model: LIMITED_MODEL, input: 'Hello' });
    const other = openAIClient(app.url, LIMITED_KEY);
    const error = await failure(() => other.responses.create({ model: LIMITED_MODEL, previous_response_id: mine.id, input: 'Again' }));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, param: 'previous_response_id', code: 'previous_response_not_found' });
    const hidden = await failure(() => other.responses.retrieve(mine.id));
    expect(hidden).toBeInstanceOf(OpenAI.NotFoundError);
    const missing = await failure(() => openai.responses.create({ model: CHAT_MODEL, input: [{ type: 'item_reference', id: 'msg_nope' }] }));
    expect(missing).toMatchObject({ status: 400, param: 'input.0.id', code: 'item_not_found' });
  });

  it('deletes a stored response', async () => {
    const made = await openai.responses.create({ model: CHAT_MODEL, input: 'Hello' });
    await openai.responses.delete(made.id);
    expect(await failure(() => openai.responses.retrieve(made.id))).toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('counts input tokens', async () => {
    const counted = await openai.responses.inputTokens.count({ model: VENDOR_MODEL, input: 'Count these words please.' });
    expect(counted.object).toBe('response.input_tokens');
    expect(counted.input_tokens).toBeGreaterThan(0);
  });

  describe('the AI SDK (openai(model): the Responses API by default)', () => {
    /** The provider, with every request body the SDK sent. */
    function provider(): { openaiProvider: ReturnType<typeof createOpenAI>; sent: Record<string, unknown>[] } {
      const sent: Record<string, unknown>[] = [];
      const openaiProvider = createOpenAI({
        baseURL: `${app.url}/v1`,
        apiKey: KEY,
        fetch: async (input, init) => {
          if (typeof init?.body === 'string') sent.push(JSON.parse(init.body) as Record<string, unknown>);
          return fetch(input, init);
        },
      });
      return { openaiProvider, sent };
    }

    it.each(MODELS)('keeps a multi-turn conversation with the default store on %s (item_reference)', async (model) => {
      const { openaiProvider, sent } = provider();
      const messages: ModelMessage[] = [{ role: 'user', content: 'Describe a lighthouse.' }];
      const first = await generateText({ model: openaiProvider(model), messages, maxRetries: 0 });
      expect(first.text).toContain('Describe a lighthouse');
      messages.push(...first.response.messages, { role: 'user', content: 'Now describe a harbour.' });
      const second = await generateText({ model: openaiProvider(model), messages, maxRetries: 0 });
      expect(second.text).toContain('describe a harbour');
      const input = sent[1]?.input as { type?: string }[];
      expect(input.some((item) => item.type === 'item_reference')).toBe(true);
    });

    it.each(MODELS)('runs tools with store: false on %s', async (model) => {
      const { openaiProvider, sent } = provider();
      const result = await generateText({
        model: openaiProvider(model),
        prompt: 'Use get_weather for Rome.',
        tools: { get_weather: tool({ description: 'The weather in a city', inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => `Cloudy in ${city}` }) },
        stopWhen: stepCountIs(3),
        providerOptions: { openai: { store: false } },
        maxRetries: 0,
      });
      expect(result.steps[0]?.toolCalls[0]).toMatchObject({ toolName: 'get_weather', input: { city: 'Rome' } });
      expect(result.text).toContain('Cloudy in Rome');
      expect(sent.every((body) => body.store === false)).toBe(true);
      expect(JSON.stringify(sent)).not.toContain('item_reference');
    });

    it('streams text with streamText', async () => {
      const { openaiProvider } = provider();
      const streamed = streamText({ model: openaiProvider(VENDOR_MODEL), prompt: 'Describe a harbour.', maxRetries: 0 });
      let text = '';
      for await (const delta of streamed.textStream) text += delta;
      expect(text).toContain('Describe a harbour');
      expect(await streamed.finishReason).toBe('stop');
    });
  });

  describe('the Agents SDK (its default Responses model)', () => {
    it.each(MODELS)('runs an agent with a tool on %s', async (model) => {
      const runner = new Runner({ modelProvider: new OpenAIProvider({ apiKey: KEY, baseURL: `${app.url}/v1` }), tracingDisabled: true });
      const weather = agentTool({
        name: 'get_weather',
        description: 'The weather in a city',
        parameters: z.object({ city: z.string() }),
        execute: async ({ city }) => `Windy in ${city}`,
      });
      const agent = new Agent({ name: 'forecaster', instructions: 'Answer about the weather.', model, tools: [weather] });
      const result = await runner.run(agent, 'Use get_weather for Madrid.');
      expect(result.finalOutput).toContain('Windy in Madrid');
    });
  });
});
