/**
 * A replayed stream goes through the same translators as a live one: for
 * generated stored answers, the synthesized stream translated into the
 * other interfaces is well formed (every event valid, every block started
 * and stopped, the final events present) and says what the JSON
 * translation of the same answer says: text, tool calls, reasoning, finish.
 * The folds are the independent accumulators of the translator tests.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CachedAnswer } from '../../../src/cache/cache-types.js';
import { synthesizeUpstreamResponse } from '../../../src/cache/synthesize-answer.js';
import { createReasoningSeal } from '../../../src/responses/reasoning-envelope.js';
import type { ResponseObject } from '../../../src/responses/response-object.js';
import { type ChatCompletion, type ChatCompletionChunk, type MessagesResponse, chatCompletionChunkSchema, messagesStreamEventSchema } from '../../../src/schemas/index.js';
import { chatToMessagesResponse } from '../../../src/translate/chat-to-messages-response.js';
import { createChatToMessagesStream } from '../../../src/translate/chat-to-messages-stream.js';
import { chatToResponsesResponse } from '../../../src/translate/chat-to-responses-response.js';
import { createChatToResponsesStream } from '../../../src/translate/chat-to-responses-stream.js';
import { messagesToChatResponse } from '../../../src/translate/messages-to-chat-response.js';
import { createMessagesToChatStream } from '../../../src/translate/messages-to-chat-stream.js';
import { messagesToResponsesResponse } from '../../../src/translate/messages-to-responses-response.js';
import { createMessagesToResponsesStream } from '../../../src/translate/messages-to-responses-stream.js';
import type { ResponseAnswerOptions } from '../../../src/translate/responses-output.js';
import type { WireFormat } from '../../../src/types.js';
import { checkResponsesStream } from '../../helpers/responses-grammar.js';
import { accumulateChatChunks, accumulateMessagesEvents, decodeEvents, normalizeArguments, runTransform } from '../translate/support/stream-harness.js';
import { chatAnswer, messagesAnswer } from './support/answer-arbitraries.js';
import { readEvents, readJson } from './support/read-response.js';

type Json = Record<string, unknown>;

const RUNS = 150;
const MODEL = 'caller-model';
const seal = createReasoningSeal('test secret');
const BINDING = { principal: 'p', model: MODEL };

/**
 * Chat answers as another interface's request gets them from a chat
 * upstream: one choice (no other interface asks for several), and signed
 * thinking the way upstreams send it, every block's text in
 * `reasoning_content` too (a chat stream opens a thinking block only on
 * reasoning text).
 */
const pivotChatAnswer = chatAnswer.map((body): Json => {
  const [choice] = body.choices as Json[];
  const message = { ...(choice!.message as Json) };
  if (Array.isArray(message.thinking_blocks)) {
    const blocks = (message.thinking_blocks as Json[]).map((block) => (block.type === 'thinking' ? { ...block, thinking: `${String(block.thinking)}.` } : block));
    message.thinking_blocks = blocks;
    message.reasoning_content = blocks.map((block) => (block.type === 'thinking' ? String(block.thinking) : '')).join('');
  }
  return { ...body, choices: [{ ...choice, message }] };
});

const entry = (format: WireFormat, body: Json): CachedAnswer => ({ v: 1, createdAt: 0, format, upstream: 'u', body });

/** The stored answer replayed both ways: its JSON body and its stream's events. */
async function replay(format: WireFormat, body: Json) {
  const json = await readJson(synthesizeUpstreamResponse(entry(format, body), { stream: false, includeUsage: false }));
  const events = await readEvents(synthesizeUpstreamResponse(entry(format, body), { stream: true, includeUsage: true }));
  return { json, events };
}

function responsesOptions(): ResponseAnswerOptions {
  return { id: 'resp_0123456789abcdef0123456789abcdef', createdAt: 1, model: MODEL, request: { store: false }, customTools: new Set(), includeEncrypted: true, seal: (blocks) => seal.seal(blocks, BINDING), now: () => 2 };
}

/**
 * What a Response says: its text and refusal (over all message items), its
 * calls (arguments parsed) and reasoning (summary, envelope opened), in
 * order; status, incomplete details and usage. Item ids are random, and a
 * stream adds an item per run of text between calls where the JSON
 * translation makes one message.
 */
function saysResponse(response: ResponseObject): Json {
  const items = response.output as Json[];
  const parts = items.filter((item) => item.type === 'message').flatMap((item) => item.content as Json[]);
  return {
    text: parts.map((part) => (part.type === 'output_text' ? String(part.text) : '')).join(''),
    refusal: parts.map((part) => (part.type === 'refusal' ? String(part.refusal) : '')).join(''),
    calls: items.filter((item) => item.type === 'function_call').map(({ call_id, name, arguments: args, status }) => ({ call_id, name, status, arguments: JSON.parse(String(args)) as unknown })),
    reasoning: items.filter((item) => item.type === 'reasoning').map(({ summary, encrypted_content: sealed }) => ({ summary, opened: typeof sealed === 'string' ? seal.open(sealed, BINDING) : null })),
    status: response.status,
    incomplete_details: response.incomplete_details,
    usage: response.usage,
  };
}

/** The vendor client's fold, citations included (`citations_delta` appends to the block's list). */
function foldMessages(events: readonly Json[]): MessagesResponse {
  const folded = accumulateMessagesEvents(events);
  for (const event of events) {
    const delta = event.delta as Json | undefined;
    if (event.type !== 'content_block_delta' || delta?.type !== 'citations_delta') continue;
    const block = folded.content[event.index as number] as Json;
    block.citations = [...(block.citations as unknown[]), delta.citation];
  }
  return folded;
}

/**
 * What a messages answer says: its text and its reasoning (each
 * concatenated over blocks), its tool uses, the signatures, stop reason and
 * usage. Block boundaries are the translators' own: a chat stream keeps
 * adding to an open thinking block.
 */
function saysMessages(message: MessagesResponse): Json {
  const blocks = message.content as Json[];
  const of = (type: string, field: string) => blocks.filter((block) => block.type === type).map((block) => String(block[field])).join('');
  return {
    text: of('text', 'text'),
    reasoning: of('thinking', 'thinking'),
    signed: blocks.some((block) => block.type === 'thinking' && block.signature !== ''),
    tools: blocks.filter((block) => block.type === 'tool_use'),
    stop_reason: message.stop_reason,
    usage: message.usage,
  };
}

describe('a replayed chat answer', () => {
  it('translated for a messages caller: valid events, blocks in order, and the same message as the JSON translation', async () => {
    await fc.assert(
      fc.asyncProperty(pivotChatAnswer, async (body) => {
        const { json, events } = await replay('chat', body);
        const encoded = runTransform(createChatToMessagesStream({ model: MODEL, id: 'msg_hit' }), events, 'chat');
        const decoded = decodeEvents(encoded).map((event) => event.data as Json);
        for (const event of decoded) messagesStreamEventSchema.parse(event);
        expect(decoded[0]?.type).toBe('message_start');
        expect(decoded.at(-1)?.type).toBe('message_stop');
        const starts = decoded.filter((event) => event.type === 'content_block_start').map((event) => event.index);
        const stops = decoded.filter((event) => event.type === 'content_block_stop').map((event) => event.index);
        expect(stops).toEqual(starts);
        const streamed = accumulateMessagesEvents(decoded);
        const translated = chatToMessagesResponse(json as ChatCompletion, { model: MODEL, id: 'msg_hit' });
        expect(saysMessages(streamed)).toEqual(saysMessages(translated));
      }),
      { numRuns: RUNS },
    );
  });

  it('translated for a Responses caller: a well-formed event stream whose Response is the JSON translation\'s', async () => {
    await fc.assert(
      fc.asyncProperty(pivotChatAnswer, async (body) => {
        const { json, events } = await replay('chat', body);
        const transform = createChatToResponsesStream(responsesOptions());
        const summary = checkResponsesStream(runTransform(transform, events, 'chat'));
        expect(['response.completed', 'response.incomplete']).toContain(summary.terminal.type);
        const translated = chatToResponsesResponse(json as ChatCompletion, responsesOptions());
        expect(saysResponse(transform.final!)).toEqual(saysResponse(translated));
      }),
      { numRuns: RUNS },
    );
  });
});

describe('a replayed messages answer', () => {
  it('translated for a chat caller: valid chunks and the same completion as the JSON translation', async () => {
    await fc.assert(
      fc.asyncProperty(messagesAnswer, async (body) => {
        const { json, events } = await replay('messages', body);
        const options = { model: MODEL, id: 'chatcmpl-hit', created: 1 };
        const encoded = runTransform(createMessagesToChatStream({ ...options, includeUsage: true }), events, 'messages');
        const decoded = decodeEvents(encoded);
        expect(decoded.at(-1)?.data).toBe('[DONE]');
        const chunks = decoded.slice(0, -1).map((event) => chatCompletionChunkSchema.parse(event.data) as ChatCompletionChunk);
        const streamed = accumulateChatChunks(chunks);
        const translated = messagesToChatResponse(json as MessagesResponse, options);
        expect(normalizeArguments(streamed)).toEqual(normalizeArguments({ ...translated, choices: translated.choices.map((choice) => ({ ...choice, logprobs: null })) }));
      }),
      { numRuns: RUNS },
    );
  });

  it('translated for a Responses caller: a well-formed event stream whose Response is the JSON translation\'s', async () => {
    await fc.assert(
      fc.asyncProperty(messagesAnswer, async (body) => {
        const { json, events } = await replay('messages', body);
        const transform = createMessagesToResponsesStream(responsesOptions());
        const summary = checkResponsesStream(runTransform(transform, events, 'messages'));
        expect(['response.completed', 'response.incomplete']).toContain(summary.terminal.type);
        const translated = messagesToResponsesResponse(json as MessagesResponse, responsesOptions());
        expect(saysResponse(transform.final!)).toEqual(saysResponse(translated));
      }),
      { numRuns: RUNS },
    );
  });

  it('relayed to a messages caller as is: the vendor client\'s fold is the stored message', async () => {
    await fc.assert(
      fc.asyncProperty(messagesAnswer, async (body) => {
        const { events } = await replay('messages', body);
        const folded = foldMessages(events.map((event) => JSON.parse(event.data) as Json));
        expect(folded).toEqual({ ...body, id: expect.stringMatching(/^msg_/) });
      }),
      { numRuns: RUNS },
    );
  });
});
