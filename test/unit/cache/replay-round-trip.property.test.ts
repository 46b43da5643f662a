/**
 * Properties of replay over generated answers: a stored answer synthesized
 * as a stream and recorded back is the same answer, and synthesized as
 * JSON it is the same answer, in both wire formats; only the response id
 * (and, for chat, `created`) is new on every hit.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAnswerRecorder } from '../../../src/cache/answer-recorder.js';
import type { CachedAnswer } from '../../../src/cache/cache-types.js';
import { synthesizeUpstreamResponse } from '../../../src/cache/synthesize-answer.js';
import { chatCompletionChunkSchema, messagesStreamEventSchema } from '../../../src/schemas/index.js';
import type { WireFormat } from '../../../src/types.js';
import { chatAnswer, messagesAnswer } from './support/answer-arbitraries.js';
import { readEvents, readJson } from './support/read-response.js';

type Json = Record<string, unknown>;

const entry = (format: WireFormat, body: Json): CachedAnswer => ({ v: 1, createdAt: 0, format, upstream: 'u', body });

/** The answer as a hit gives it back: a fresh id (`created` = now for chat). */
function asHit(format: WireFormat, body: Json): Json {
  return format === 'chat' ? { ...body, id: expect.stringMatching(/^chatcmpl-/), created: expect.any(Number) } : { ...body, id: expect.stringMatching(/^msg_/) };
}

async function recordStream(format: WireFormat, body: Json, includeUsage = true): Promise<{ recorded: Json | undefined; events: Json[] }> {
  const recorder = createAnswerRecorder(format);
  const events: Json[] = [];
  for (const event of await readEvents(synthesizeUpstreamResponse(entry(format, body), { stream: true, includeUsage }))) {
    recorder.observe(event);
    if (event.data !== '[DONE]') events.push(JSON.parse(event.data) as Json);
  }
  return { recorded: recorder.finish(), events };
}

describe('replay round trip', () => {
  it('chat: recording the synthesized stream gives the stored completion back, and every chunk is a valid chunk', async () => {
    await fc.assert(
      fc.asyncProperty(chatAnswer, async (body) => {
        const { recorded, events } = await recordStream('chat', body);
        expect(recorded).toEqual(asHit('chat', body));
        for (const chunk of events) chatCompletionChunkSchema.parse(chunk);
      }),
      { numRuns: 300 },
    );
  });

  it('messages: recording the synthesized stream gives the stored message back, and every event is a valid event', async () => {
    await fc.assert(
      fc.asyncProperty(messagesAnswer, async (body) => {
        const { recorded, events } = await recordStream('messages', body);
        expect(recorded).toEqual(asHit('messages', body));
        for (const event of events) messagesStreamEventSchema.parse(event);
      }),
      { numRuns: 300 },
    );
  });

  it('JSON: the synthesized body is the stored answer with a fresh id, in both formats', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(chatAnswer.map((body) => ['chat', body] as const), messagesAnswer.map((body) => ['messages', body] as const)), async ([format, body]) => {
        const response = synthesizeUpstreamResponse(entry(format, body), { stream: false, includeUsage: false });
        expect(response.status).toBe(200);
        expect(response.headers['content-type']).toBe('application/json');
        expect(await readJson(response)).toEqual(asHit(format, body));
      }),
      { numRuns: 200 },
    );
  });
});
