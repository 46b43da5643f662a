/**
 * The official `openai` client judges the Responses streams and bodies:
 * `client.responses.stream()` folds the events with its own accumulator
 * (which throws on a delta for an item or part it has not seen), and
 * `responses.create()` parses the JSON body.
 */
import { accumulateResponse } from 'openai/lib/responses/ResponseAccumulator';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/errors.js';
import { createReasoningSeal } from '../../../src/responses/reasoning-envelope.js';
import { clientView } from '../../../src/responses/response-object.js';
import { chatToResponsesResponse } from '../../../src/translate/chat-to-responses-response.js';
import { createChatToResponsesStream } from '../../../src/translate/chat-to-responses-stream.js';
import { createMessagesToResponsesStream } from '../../../src/translate/messages-to-responses-stream.js';
import type { ResponseAnswerOptions } from '../../../src/translate/responses-output.js';
import { openAIClient } from './support/official-clients.js';
import { readJsonLinesFixture, readSseFixture, runTransform } from './support/stream-harness.js';

const seal = createReasoningSeal('k');

function options(overrides: Partial<ResponseAnswerOptions> = {}): ResponseAnswerOptions {
  return { id: 'resp_abc123', createdAt: 1_700_000_000, model: 'm', request: {}, customTools: new Set(), includeEncrypted: true, seal: (b) => seal.seal(b, { principal: 'p', model: 'm' }), ...overrides };
}

async function streamThroughClient(encoded: readonly string[]) {
  const { client } = openAIClient(() => ({ sse: encoded }));
  const stream = client.responses.stream({ model: 'm', input: 'hi' });
  const seen: ResponseStreamEvent[] = [];
  for await (const event of stream) seen.push(event);
  return { seen, final: await stream.finalResponse() };
}

/** The client's accumulator over every event before the terminal one: what the items events built. */
function accumulatedBeforeTerminal(seen: readonly ResponseStreamEvent[]) {
  let snapshot: ReturnType<typeof accumulateResponse> | undefined;
  for (const event of seen.slice(0, -1)) snapshot = accumulateResponse(event, snapshot);
  return snapshot;
}

describe('official openai client', () => {
  const cases: [string, () => Promise<string[]>][] = [
    ['openai-text', async () => runTransform(createChatToResponsesStream(options()), await readSseFixture('recorded/openai-text.sse'), 'chat')],
    ['openai-parallel-tool-calls', async () => runTransform(createChatToResponsesStream(options()), await readSseFixture('recorded/openai-parallel-tool-calls.sse'), 'chat')],
    ['anthropic-tool-use', async () => runTransform(createMessagesToResponsesStream(options()), await readSseFixture('recorded/anthropic-tool-use.sse'), 'messages')],
    ['anthropic-thinking', async () => runTransform(createMessagesToResponsesStream(options()), readJsonLinesFixture('recorded/anthropic-thinking.data.jsonl'), 'messages')],
  ];
  for (const [name, produce] of cases) {
    it(`responses.stream() folds ${name} into the Response of response.completed`, async () => {
      const encoded = await produce();
      const { seen, final } = await streamThroughClient(encoded);
      expect(seen.at(-1)?.type).toBe('response.completed');
      const completed = JSON.parse(encoded.at(-1)!.split('\ndata: ')[1]!).response;
      expect(final.id).toBe('resp_abc123');
      // `finalResponse()` adds its parsed fields (`parsed_arguments`, `parsed`) to what the events carried.
      expect(final.output).toMatchObject(completed.output);
      expect(accumulatedBeforeTerminal(seen)?.output).toEqual(completed.output);
      expect(final.usage).toEqual(completed.usage);
    });
  }

  it('responses.stream() rejects with the error of a failed stream', async () => {
    const transform = createChatToResponsesStream(options());
    const encoded = [...transform.push({ data: JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'u', choices: [{ index: 0, delta: { content: 'x' }, finish_reason: null }] }) }), ...transform.error(new GatewayError('UPSTREAM_ERROR', 'Upstream went away.'))];
    await expect(streamThroughClient(encoded)).rejects.toThrow(/Upstream went away/);
  });

  it('responses.create() parses the JSON body and computes output_text', async () => {
    const stored = chatToResponsesResponse(
      { id: 'c', object: 'chat.completion', created: 1, model: 'u', choices: [{ index: 0, finish_reason: 'stop', logprobs: null, message: { role: 'assistant', content: 'Hello there.', refusal: null } }] },
      options(),
    );
    const { client } = openAIClient(() => ({ json: clientView(stored, false) }));
    const response = await client.responses.create({ model: 'm', input: 'hi' });
    expect(response.output_text).toBe('Hello there.');
    expect(response.usage?.output_tokens_details.reasoning_tokens).toBe(0);
  });
});
