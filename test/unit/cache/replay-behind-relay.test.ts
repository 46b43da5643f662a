/**
 * A synthesized answer is what the relay takes from a live upstream: the
 * checks on a 2xx answer pass it, the SSE relay ends it `completed`, and a
 * recorder fed by the relay's `onEvent` (as a filling miss is) records the
 * stored answer back, relayed as is or translated.
 */
import { describe, expect, it } from 'vitest';
import { createAnswerRecorder } from '../../../src/cache/answer-recorder.js';
import type { CachedAnswer } from '../../../src/cache/cache-types.js';
import { synthesizeUpstreamResponse } from '../../../src/cache/synthesize-answer.js';
import { checkEventStream, readCompleteJson } from '../../../src/handlers/check-upstream-answer.js';
import { type RelayOutcome, relaySse } from '../../../src/sse/relay-stream.js';
import { createMessagesToChatStream } from '../../../src/translate/messages-to-chat-stream.js';
import type { WireFormat } from '../../../src/types.js';

type Json = Record<string, unknown>;

const chatBody: Json = {
  id: 'chatcmpl-stored', object: 'chat.completion', created: 1, model: 'gpt-test',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Héllo 🌍', refusal: null }, logprobs: null, finish_reason: 'stop' }],
  usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
};

const messagesBody: Json = {
  id: 'msg_stored', type: 'message', role: 'assistant', model: 'claude-test',
  content: [{ type: 'thinking', thinking: 'Hmm.', signature: 'sig==' }, { type: 'text', text: 'Héllo 🌍' }, { type: 'tool_use', id: 'toolu_1', name: 'f', input: { a: [1] } }],
  stop_reason: 'tool_use', stop_sequence: null, usage: { input_tokens: 3, output_tokens: 9 },
};

const entry = (format: WireFormat, body: Json): CachedAnswer => ({ v: 1, createdAt: 0, format, upstream: 'u', body });

async function relayed(answer: CachedAnswer, format: WireFormat) {
  const response = synthesizeUpstreamResponse(answer, { stream: true, includeUsage: true });
  await checkEventStream(response, 'u');
  const recorder = createAnswerRecorder(answer.format);
  let outcome: RelayOutcome | undefined;
  const body = relaySse({
    upstream: response.body,
    upstreamFormat: answer.format,
    format,
    heartbeatMs: 0,
    signal: new AbortController().signal,
    onEvent: (event) => recorder.observe(event),
    onEnd: (end) => {
      outcome = end;
    },
    ...(format === answer.format ? {} : { transform: createMessagesToChatStream({ model: 'm', id: 'chatcmpl-t', created: 1, includeUsage: true }) }),
  });
  let text = '';
  for await (const chunk of body) text += Buffer.from(chunk).toString('utf8');
  return { text, outcome, recorded: recorder.finish() };
}

describe('replay behind the relay', () => {
  it('a JSON answer passes the completeness check as the stored answer', async () => {
    const { json } = await readCompleteJson(synthesizeUpstreamResponse(entry('messages', messagesBody), { stream: false, includeUsage: false }), 'u');
    expect(json).toEqual({ ...messagesBody, id: expect.stringMatching(/^msg_/) });
  });

  it.each([
    ['chat relayed as chat', entry('chat', chatBody), 'chat' as const],
    ['messages relayed as messages', entry('messages', messagesBody), 'messages' as const],
    ['messages translated for chat', entry('messages', messagesBody), 'chat' as const],
  ])('%s: ends completed, and the relay\'s events record the stored answer back', async (_name, answer, format) => {
    const { text, outcome, recorded } = await relayed(answer, format);
    expect(outcome?.status).toBe('completed');
    expect(text).toContain(format === 'chat' ? 'data: [DONE]' : 'event: message_stop');
    expect(text).toContain('Héllo 🌍');
    expect(recorded).toEqual({ ...answer.body, id: expect.any(String), ...(answer.format === 'chat' ? { created: expect.any(Number) } : {}) });
  });
});
