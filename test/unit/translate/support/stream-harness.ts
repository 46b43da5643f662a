/**
 * Test plumbing for the stream translators: fixture loading, a driver that
 * calls a transform exactly as `relaySse` does, decoders for the output,
 * and reference accumulators that fold a stream into its non-streamed form.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { GatewayError } from '../../../../src/errors.js';
import type { WireFormat } from '../../../../src/types.js';
import type { ChatCompletion, ChatCompletionChunk, MessagesResponse } from '../../../../src/schemas/index.js';
import { classifyUpstreamEvent, errorFromUpstreamEvent } from '../../../../src/sse/classify-upstream-event.js';
import { parseSse } from '../../../../src/sse/parse-sse.js';
import type { SseEvent, StreamTransform } from '../../../../src/translate/stream-transform.js';

const FIXTURES = new URL('../../../fixtures/', import.meta.url);

/** Reads a file under `test/fixtures/`. */
export function readFixture(path: string): string {
  return readFileSync(fileURLToPath(new URL(path, FIXTURES)), 'utf8');
}

/** Parses an SSE fixture with the gateway's own parser. */
export async function readSseFixture(path: string): Promise<SseEvent[]> {
  const bytes = new TextEncoder().encode(readFixture(path));
  async function* body(): AsyncIterable<Uint8Array> {
    yield bytes;
  }
  const events: SseEvent[] = [];
  for await (const event of parseSse(body())) events.push(event);
  return events;
}

/**
 * A data-only fixture (one JSON payload per line): adds the `event:` name
 * the real messages API sends (it equals the payload's `type`).
 */
export function readJsonLinesFixture(path: string): SseEvent[] {
  return readFixture(path)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => ({ event: (JSON.parse(line) as { type: string }).type, data: line }));
}

/** Drives `transform` over `events` exactly as `relaySse` calls it. */
export function runTransform(transform: StreamTransform, events: readonly SseEvent[], upstreamFormat: WireFormat): string[] {
  const out: string[] = [];
  const take = (chunks: Iterable<string | Uint8Array>): void => {
    for (const chunk of chunks) out.push(typeof chunk === 'string' ? chunk : new TextDecoder().decode(chunk));
  };
  for (const event of events) {
    const kind = classifyUpstreamEvent(event, upstreamFormat);
    if (kind === 'error') {
      take(transform.error(errorFromUpstreamEvent(event, upstreamFormat)));
      return out;
    }
    if (!(kind === 'terminal' && upstreamFormat === 'chat')) take(transform.push(event));
    if (kind === 'terminal') {
      take(transform.end());
      return out;
    }
  }
  // The relay reports an upstream that closed before its terminal event as an error, never as `end()`.
  take(transform.error(new GatewayError('UPSTREAM_ERROR', 'The upstream ended the stream before it was complete.')));
  return out;
}

/** A decoded output event. */
export interface DecodedEvent {
  event?: string;
  data: unknown;
}

/** Decodes encoded output events; also checks each is exactly one well-formed SSE event. */
export function decodeEvents(encoded: readonly string[]): DecodedEvent[] {
  return encoded.map((text) => {
    if (!text.endsWith('\n\n') || text.slice(0, -2).includes('\n\n')) throw new Error(`not one SSE event: ${JSON.stringify(text)}`);
    const lines = text.slice(0, -2).split('\n');
    const decoded: DecodedEvent = { data: undefined };
    const data: string[] = [];
    for (const line of lines) {
      if (line.startsWith('event: ')) decoded.event = line.slice(7);
      else if (line.startsWith('data: ')) data.push(line.slice(6));
      else throw new Error(`unexpected line ${JSON.stringify(line)}`);
    }
    const joined = data.join('\n');
    decoded.data = joined === '[DONE]' ? '[DONE]' : JSON.parse(joined);
    return decoded;
  });
}

/**
 * Folds chat chunks into a completion the way the openai client's helper
 * merges them, except that `reasoning_content` is concatenated (the helper
 * keeps only the last fragment of fields it does not know) and
 * `thinking_blocks` fragments are collected in order.
 */
export function accumulateChatChunks(chunks: readonly ChatCompletionChunk[]): ChatCompletion {
  const first = chunks[0];
  if (!first) throw new Error('no chunks');
  type Message = ChatCompletion['choices'][number]['message'];
  const message: Message = { role: 'assistant', content: null, refusal: null };
  let finishReason: ChatCompletion['choices'][number]['finish_reason'] | undefined;
  let usage: ChatCompletion['usage'];
  const calls: { id: string; type: 'function'; function: { name: string; arguments: string } }[] = [];
  for (const chunk of chunks) {
    if (chunk.usage) usage = chunk.usage;
    for (const choice of chunk.choices) {
      const { delta } = choice;
      if (typeof delta.content === 'string') message.content = (message.content ?? '') + delta.content;
      if (typeof delta.reasoning_content === 'string') {
        message.reasoning_content = (message.reasoning_content ?? '') + delta.reasoning_content;
      }
      if (Array.isArray(delta.thinking_blocks)) {
        message.thinking_blocks = [...((message.thinking_blocks as unknown[]) ?? []), ...delta.thinking_blocks];
      }
      for (const call of delta.tool_calls ?? []) {
        const entry = (calls[call.index] ??= { id: '', type: 'function', function: { name: '', arguments: '' } });
        if (call.id) entry.id = call.id;
        if (call.function?.name) entry.function.name = call.function.name;
        if (call.function?.arguments) entry.function.arguments += call.function.arguments;
      }
      if (choice.finish_reason) finishReason = choice.finish_reason;
    }
  }
  if (calls.length > 0) message.tool_calls = calls;
  if (!finishReason) throw new Error('no finish_reason');
  const completion: ChatCompletion = {
    id: first.id,
    object: 'chat.completion',
    created: first.created,
    model: first.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }],
  };
  if (usage) completion.usage = usage;
  return completion;
}

type Json = Record<string, unknown>;

/** Folds messages stream events into the message, as the vendor client's `MessageStream` does. */
export function accumulateMessagesEvents(events: readonly Json[]): MessagesResponse {
  let message: Json | undefined;
  const content: Json[] = [];
  const json: string[] = [];
  for (const event of events) {
    switch (event.type) {
      case 'message_start':
        if (message) throw new Error('second message_start');
        message = { ...(event.message as Json) };
        message.usage = { ...(message.usage as Json) };
        break;
      case 'content_block_start':
        if (event.index !== content.length) throw new Error(`block ${String(event.index)} out of order`);
        content.push({ ...(event.content_block as Json) });
        json.push('');
        break;
      case 'content_block_delta': {
        const index = event.index as number;
        const block = content[index];
        const delta = event.delta as Json;
        if (!block) throw new Error(`delta for unknown block ${index}`);
        if (delta.type === 'text_delta') block.text = String(block.text) + String(delta.text);
        else if (delta.type === 'thinking_delta') block.thinking = String(block.thinking) + String(delta.thinking);
        else if (delta.type === 'signature_delta') block.signature = delta.signature;
        else if (delta.type === 'input_json_delta') json[index] += String(delta.partial_json);
        break;
      }
      case 'content_block_stop': {
        const index = event.index as number;
        const block = content[index];
        if (block?.type === 'tool_use' && json[index] !== '') block.input = JSON.parse(json[index] as string);
        break;
      }
      case 'message_delta': {
        if (!message) throw new Error('message_delta before message_start');
        const delta = event.delta as Json;
        message.stop_reason = delta.stop_reason;
        message.stop_sequence = delta.stop_sequence ?? null;
        const usage = event.usage as Json;
        for (const [key, value] of Object.entries(usage)) if (value !== null && value !== undefined) (message.usage as Json)[key] = value;
        break;
      }
      default:
        break;
    }
  }
  if (!message) throw new Error('no message_start');
  return { ...message, content } as MessagesResponse;
}

/**
 * Re-serialises tool call arguments, so a streamed argument string
 * (`{"a": 1}`, as the model wrote it) compares equal to a re-encoded one
 * (`{"a":1}`).
 */
export function normalizeArguments(completion: ChatCompletion): ChatCompletion {
  return {
    ...completion,
    choices: completion.choices.map((choice) => {
      const calls = choice.message.tool_calls;
      if (!calls) return choice;
      const tool_calls = calls.map((call) => ({
        ...call,
        function: { ...call.function, arguments: JSON.stringify(JSON.parse(call.function.arguments || '{}')) },
      }));
      return { ...choice, message: { ...choice.message, tool_calls } };
    }),
  };
}
