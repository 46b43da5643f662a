/**
 * Test helpers: call a simulator face in process, read its body, split SSE
 * and validate every event against the package's response schemas.
 */
import { expect } from 'vitest';
import {
  chatCompletionChunkSchema,
  chatCompletionResponseSchema,
  messagesResponseSchema,
  messagesStreamEventSchema,
  type ChatCompletion,
  type ChatCompletionChunk,
  type MessagesResponse,
  type MessagesStreamEvent,
} from '../../../../src/schemas/index.js';
import type { Upstream, UpstreamCall, UpstreamOperation } from '../../../../src/upstreams/upstream.js';

export interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
  json(): unknown;
}

/** Sends `body` as `operation` and reads the whole answer. */
export async function send(
  upstream: Upstream,
  operation: UpstreamOperation,
  body?: unknown,
  extra: Partial<UpstreamCall> = {},
): Promise<Answer> {
  const response = await upstream.send({ operation, body, headers: {}, signal: new AbortController().signal, ...extra });
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of response.body) text += decoder.decode(chunk, { stream: true });
  text += decoder.decode();
  return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) };
}

/** One SSE frame as written. */
export interface Frame {
  event?: string;
  data: string;
}

/** Splits SSE text into frames (the simulator writes one `data:` line per event). */
export function splitSse(text: string): Frame[] {
  return text
    .split('\n\n')
    .filter((block) => block.length > 0)
    .map((block) => {
      const frame: Frame = { data: '' };
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) frame.event = line.slice(7);
        else if (line.startsWith('data: ')) frame.data = line.slice(6);
      }
      return frame;
    });
}

/** The events of a messages stream, each checked against `messagesStreamEventSchema` and its `event:` line. */
export function messagesEvents(text: string): MessagesStreamEvent[] {
  return splitSse(text).map((frame) => {
    const event = messagesStreamEventSchema.parse(JSON.parse(frame.data));
    expect(frame.event).toBe(event.type);
    return event;
  });
}

/** The chunks of a chat stream, each checked against `chatCompletionChunkSchema`; asserts `[DONE]` ends it. */
export function chatChunks(text: string): ChatCompletionChunk[] {
  const frames = splitSse(text);
  expect(frames[frames.length - 1]?.data).toBe('[DONE]');
  for (const frame of frames) expect(frame.event).toBeUndefined();
  return frames.slice(0, -1).map((frame) => chatCompletionChunkSchema.parse(JSON.parse(frame.data)));
}

/** A non-streamed messages answer, checked against `messagesResponseSchema`. */
export function asMessage(answer: Answer): MessagesResponse {
  expect(answer.status).toBe(200);
  expect(answer.headers['content-type']).toBe('application/json');
  expect(answer.headers['request-id']).toMatch(/^req_/);
  return messagesResponseSchema.parse(answer.json());
}

/** A non-streamed chat answer, checked against `chatCompletionResponseSchema`. */
export function asCompletion(answer: Answer): ChatCompletion {
  expect(answer.status).toBe(200);
  expect(answer.headers['content-type']).toBe('application/json');
  expect(answer.headers['x-request-id']).toMatch(/^req_/);
  return chatCompletionResponseSchema.parse(answer.json());
}

/** The concatenated text blocks of a message. */
export function textOf(message: MessagesResponse): string {
  return message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

/** A user message request for the messages face. */
export function ask(text: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { model: 'vendora-sonnet-4-6', max_tokens: 400, messages: [{ role: 'user', content: text }], ...extra };
}

/** A user message request for the chat face. */
export function chat(text: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { model: 'any-chat-model', messages: [{ role: 'user', content: text }], ...extra };
}
