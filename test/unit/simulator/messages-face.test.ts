import { describe, expect, it } from 'vitest';
import { createSimulator } from '../../../src/simulator/index.js';
import { countTokensResponseSchema, messagesErrorBodySchema } from '../../../src/schemas/index.js';
import { countTextTokens } from '../../../src/tokens/count-tokens.js';
import { ask, asMessage, send, textOf } from './support/simulator-calls.js';
import { budgetNotBelowMaxTokens, enabledOnAdaptive, temperatureDeprecated } from '../../helpers/expected-rule-errors.js';

describe('messages face: replies', () => {
  it('answers with a valid message that quotes the last user message', async () => {
    const { upstreams } = createSimulator();
    const message = asMessage(await send(upstreams.messages, 'messages', ask('How do I bake sourdough bread at home?')));
    expect(message.model).toBe('vendora-sonnet-4-6');
    expect(message.id).toMatch(/^msg_/);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.stop_sequence).toBeNull();
    const text = textOf(message);
    expect(text).toContain('How do I bake sourdough bread at home');
    // Reads like text: several sentences of real words, no filler Latin.
    expect(text.split(/[.!?](?:\s|$)/).filter((s) => s.trim().length > 0).length).toBeGreaterThanOrEqual(3);
    expect(text.toLowerCase()).not.toContain('lorem');
  });

  it('is deterministic: the same request gives the same answer, a different one another', async () => {
    const sim = createSimulator();
    const a = textOf(asMessage(await send(sim.upstreams.messages, 'messages', ask('Explain prompt caching'))));
    const b = textOf(asMessage(await send(createSimulator().upstreams.messages, 'messages', ask('Explain prompt caching'))));
    const c = textOf(asMessage(await send(sim.upstreams.messages, 'messages', ask('Explain streaming responses'))));
    expect(b).toBe(a);
    expect(c).not.toBe(a);
  });

  it('quotes the last user turn of a multi-turn conversation', async () => {
    const { upstreams } = createSimulator();
    const body = {
      ...ask('first question'),
      messages: [
        { role: 'user', content: 'What is a llama?' },
        { role: 'assistant', content: 'A llama is an animal.' },
        { role: 'user', content: [{ type: 'text', text: 'And where do alpacas live?' }] },
      ],
    };
    const text = textOf(asMessage(await send(upstreams.messages, 'messages', body)));
    expect(text).toContain('And where do alpacas live');
    expect(text).not.toContain('llama');
  });

  it('bills input tokens as count_tokens does and output tokens of the text', async () => {
    const { upstreams } = createSimulator();
    const body = ask('Summarise the plot of a long novel in a few lines.', { system: 'You are a helpful assistant.' });
    const message = asMessage(await send(upstreams.messages, 'messages', body));
    const { max_tokens: _max, ...countBody } = body;
    const counted = countTokensResponseSchema.parse((await send(upstreams.messages, 'messages.count_tokens', countBody)).json());
    expect(message.usage.input_tokens).toBe(counted.input_tokens);
    expect(message.usage.cache_creation_input_tokens).toBe(0);
    expect(message.usage.cache_read_input_tokens).toBe(0);
    expect(message.usage.output_tokens).toBe(countTextTokens(textOf(message)));
  });

  it('honours max_tokens exactly, cutting the same answer', async () => {
    const { upstreams } = createSimulator();
    const full = asMessage(await send(upstreams.messages, 'messages', ask('Tell me about rivers')));
    const cut = asMessage(await send(upstreams.messages, 'messages', ask('Tell me about rivers', { max_tokens: 7 })));
    expect(cut.stop_reason).toBe('max_tokens');
    expect(cut.usage.output_tokens).toBe(7);
    expect(countTextTokens(textOf(cut))).toBe(7);
    expect(textOf(full).startsWith(textOf(cut))).toBe(true);
  });

  it('honours stop sequences: text up to the match, stop_reason stop_sequence', async () => {
    const { upstreams } = createSimulator();
    const full = textOf(asMessage(await send(upstreams.messages, 'messages', ask('Tell me about mountains'))));
    const message = asMessage(await send(upstreams.messages, 'messages', ask('Tell me about mountains', { stop_sequences: ['zzz', 'mountains'] })));
    expect(message.stop_reason).toBe('stop_sequence');
    expect(message.stop_sequence).toBe('mountains');
    expect(textOf(message)).toBe(full.slice(0, full.indexOf('mountains')));
  });

  it('lets max_tokens win when the stop sequence comes later', async () => {
    const { upstreams } = createSimulator();
    const message = asMessage(await send(upstreams.messages, 'messages', ask('Tell me about lakes', { max_tokens: 2, stop_sequences: ['lakes'] })));
    expect(message.stop_reason).toBe('max_tokens');
    expect(message.stop_sequence).toBeNull();
  });

  it('accepts the body as raw bytes', async () => {
    const { upstreams } = createSimulator();
    const rawBody = new TextEncoder().encode(JSON.stringify(ask('Raw bytes please')));
    const message = asMessage(await send(upstreams.messages, 'messages', undefined, { rawBody }));
    expect(textOf(message)).toContain('Raw bytes please');
  });

  it('mentions an attached image when the user wrote no text', async () => {
    const { upstreams } = createSimulator();
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFElEQVR4nGP4z8DAAMIM/////w8AH+4F+7C4l8kAAAAASUVORK5CYII=';
    const body = ask('', { messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } }] }] });
    expect(textOf(asMessage(await send(upstreams.messages, 'messages', body)))).toContain('the image you sent');
  });
});

describe('messages face: vendor errors', () => {
  async function error(body: unknown, rawBody?: Uint8Array) {
    const answer = await send(createSimulator().upstreams.messages, 'messages', body, rawBody ? { rawBody } : {});
    expect(answer.headers['content-type']).toBe('application/json');
    return { status: answer.status, body: messagesErrorBodySchema.parse(answer.json()) };
  }

  it('404 not_found_error for a model outside the catalog', async () => {
    const { status, body } = await error(ask('hi', { model: 'vendora-unknown-9' }));
    expect(status).toBe(404);
    expect(body.error.type).toBe('not_found_error');
    expect(body.error.message).toContain('vendora-unknown-9');
  });

  it.each(['vendora-fable-5', 'vendora-opus-4-7', 'vendora-opus-4-8', 'vendora-opus-5', 'vendora-sonnet-5'])(
    'rejects temperature on %s (deprecated or rejected)',
    async (model) => {
      const { status, body } = await error(ask('hi', { model, temperature: 0.2 }));
      expect(status).toBe(400);
      expect(body.error.type).toBe('invalid_request_error');
      expect(body.error.message).toBe(temperatureDeprecated(model));
    },
  );

  it('accepts temperature where the matrix says accepted', async () => {
    const answer = await send(createSimulator().upstreams.messages, 'messages', ask('hi', { model: 'vendora-sonnet-4-5', temperature: 0.2 }));
    expect(answer.status).toBe(200);
  });

  it('rejects a whitespace-only stop sequence with the exact vendor message', async () => {
    const { status, body } = await error(ask('hi', { stop_sequences: ['END', '\n\n'] }));
    expect(status).toBe(400);
    expect(body.error.message).toBe('stop_sequences: each stop sequence must contain non-whitespace');
  });

  it('rejects thinking.enabled on an adaptive model and max_tokens not above the budget', async () => {
    const adaptive = await error(ask('hi', { model: 'vendora-opus-4-8', thinking: { type: 'enabled', budget_tokens: 1024 }, max_tokens: 2000 }));
    expect(adaptive.status).toBe(400);
    expect(adaptive.body.error.message).toBe(enabledOnAdaptive('vendora-opus-4-8'));
    const budget = await error(ask('hi', { thinking: { type: 'enabled', budget_tokens: 2048 }, max_tokens: 2048 }));
    expect(budget.status).toBe(400);
    expect(budget.body.error.message).toBe(budgetNotBelowMaxTokens(2048, 2048));
  });

  it('names the failing path of a malformed body', async () => {
    const { status, body } = await error({ model: 'vendora-sonnet-4-6', max_tokens: 10, messages: [{ role: 'user', content: 42 }] });
    expect(status).toBe(400);
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message).toContain('messages.0.content');
  });

  it('400 for a body that is not JSON', async () => {
    const { status, body } = await error(undefined, new TextEncoder().encode('{"model":'));
    expect(status).toBe(400);
    expect(body.error.type).toBe('invalid_request_error');
  });

  it('400 for a tool_result that answers no tool_use', async () => {
    const { status, body } = await error(
      ask('x', { messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_missing', content: 'ok' }] }] }),
    );
    expect(status).toBe(400);
    expect(body.error.message).toContain('messages.0.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_missing');
  });

  it('404 for count_tokens on an unknown model', async () => {
    const answer = await send(createSimulator().upstreams.messages, 'messages.count_tokens', { model: 'nope', messages: [{ role: 'user', content: 'x' }] });
    expect(answer.status).toBe(404);
    expect(messagesErrorBodySchema.parse(answer.json()).error.type).toBe('not_found_error');
  });
});
