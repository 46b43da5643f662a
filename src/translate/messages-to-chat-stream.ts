/**
 * A messages event stream → a chat-completions chunk stream, one event at a
 * time (nothing is buffered beyond the current thinking block's text).
 *
 * | messages event | chat chunk `delta` |
 * |---|---|
 * | `message_start` | nothing (its usage is kept for the end) |
 * | first `content_block_start` | carries `role: 'assistant'` (and `content: null` unless it is text, as the vendor of chat does) |
 * | `content_block_start` text | `{content: ''}` |
 * | `content_block_start` tool_use | `{tool_calls:[{index:k, id, type:'function', function:{name, arguments:''}}]}`, k = 0, 1, … per tool block |
 * | `content_block_start` thinking | `{reasoning_content: ''}` |
 * | `text_delta` | `{content}` |
 * | `input_json_delta` | `{tool_calls:[{index:k, function:{arguments}}]}` on the block's own k (empty fragments are skipped) |
 * | forced JSON tool of `json_object` (start, `input_json_delta`) | `{content}`: the object streams as the answer text; its `tool_use` stop is `stop` |
 * | `thinking_delta` | `{reasoning_content}` |
 * | `signature_delta` | extension `{thinking_blocks:[{type:'thinking', thinking, signature}]}`: the whole signed block, to send back |
 * | `content_block_start` redacted_thinking | extension `{thinking_blocks:[{type:'redacted_thinking', data}]}` |
 * | `citations_delta`, `content_block_stop`, `ping` | nothing |
 * | `message_delta` | `{}` with `finish_reason` (`finishReasonOf`) |
 * | `message_stop` | the usage chunk (`choices: []`) when `includeUsage`, then `[DONE]` |
 * | `error` | `data: {"error":{...}}`, then nothing more |
 *
 * With `includeUsage` every other chunk has `usage: null`, as the chat
 * vendor sends it (PROTOCOLS B.4).
 */
import { GatewayError } from '../errors.js';
import { heldOutputTooLarge, MAX_HELD_OUTPUT_CHARS } from './held-output.js';
import type { ChatCompletionChunk, ChatUsage } from '../schemas/index.js';
import { errorFromUpstreamEvent } from '../sse/classify-upstream-event.js';
import type { RawSseEvent } from '../sse/raw-sse-event.js';
import type { SseByteSink } from '../sse/relay-options.js';
import { CHAT_DONE, encodeChatChunk } from '../sse/format-sse.js';
import { type FinishReason, finishReasonOf } from './map-finish-reason.js';
import { JSON_TOOL_NAME, reattachPrefill } from './map-response-format.js';
import { type MessagesUsageCounts, messagesUsageToChat } from './map-usage.js';
import { TextDeltaFinder } from './raw-text-delta.js';
import { EagerTextTransform, type SseEvent, type TextStreamTransform, parseEventData, readTextDelta } from './stream-transform.js';

/** Options of {@link createMessagesToChatStream}. */
export interface MessagesToChatStreamOptions {
  /** The model id the caller asked for. */
  model: string;
  /** Completion id, the same on every chunk. */
  id: string;
  /** Unix seconds, the same on every chunk. */
  created: number;
  /** `stream_options.include_usage`: send the usage chunk (and `usage: null` on the others). */
  includeUsage: boolean;
  /** Choice index (for `n > 1` fan-out). Default 0. */
  index?: number;
  /** The prefill `chatToMessagesRequest` returned, put back in front of the first text. */
  jsonPrefill?: string;
  /** End with `data: [DONE]`. Default true; a fan-out merging several streams sends its own. */
  emitDone?: boolean;
  /** Receives the final usage once, at `message_stop` (e.g. to sum a fan-out). */
  onUsage?: (usage: ChatUsage) => void;
}

type Delta = ChatCompletionChunk['choices'][number]['delta'];
type Json = Record<string, unknown>;

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

class MessagesToChatStream extends EagerTextTransform {
  private started = false;
  private closed = false;
  private finished = false;
  private readonly toolIndexByBlock = new Map<number, number>();
  private readonly thinkingByBlock = new Map<number, string>();
  private readonly jsonBlocks = new Set<number>();
  private usage: MessagesUsageCounts = {};
  private prefillPending: string | undefined;
  /** The constant start of every content chunk, up to its `delta` (built once: chunks are most of the stream). */
  private readonly chunkHead: string;
  /** The end of a chunk without a finish reason. */
  private readonly chunkTail: string;
  /** The bytes around a text chunk's JSON string literal. */
  private readonly contentHead: Buffer;
  private readonly contentTail: Buffer;
  private readonly textDeltas = new TextDeltaFinder();

  constructor(private readonly options: MessagesToChatStreamOptions) {
    super();
    this.prefillPending = options.jsonPrefill || undefined;
    // The same bytes `encodeChatChunk(this.envelope(...))` writes, in the same key order.
    const envelope = encodeChatChunk(this.envelope([{ index: options.index ?? 0, delta: {}, logprobs: null, finish_reason: null }]));
    const at = envelope.indexOf('"delta":{}') + '"delta":'.length;
    this.chunkHead = envelope.slice(0, at);
    this.chunkTail = envelope.slice(at + 2);
    this.contentHead = Buffer.from(`${this.chunkHead}{"content":`);
    this.contentTail = Buffer.from(`}${this.chunkTail}`);
  }

  /**
   * Byte path for the common event: a `text_delta` after the first chunk
   * becomes `head + literal + tail`, the literal copied as the upstream
   * wrote it (same JSON text as the decoding path's; escapes may be spelt
   * differently).
   */
  pushRaw(raw: RawSseEvent, out: SseByteSink): boolean {
    if (this.closed || !this.started || this.prefillPending !== undefined) return false;
    const literal = this.textDeltas.find(raw);
    if (literal === undefined) return false;
    // An empty text sends nothing, as in `blockDelta`.
    if (literal.end - literal.start === 2) return true;
    out.addBuffer(this.contentHead);
    out.addBytes(raw.buf, literal.start, literal.end);
    out.addBuffer(this.contentTail);
    return true;
  }

  override push(event: SseEvent): string[] {
    if (!this.closed && event.event === 'content_block_delta') {
      // Fast path for the common event; the same output as `blockDelta`'s `text_delta` case.
      const delta = readTextDelta(event.data);
      if (delta !== undefined) return delta.text === '' ? [] : [this.textChunk(delta.text)];
    }
    return super.push(event);
  }

  protected *onPush(event: SseEvent): Iterable<string> {
    if (this.closed) return;
    const data = parseEventData(event);
    if (!data) {
      yield* this.onError(new GatewayError('UPSTREAM_ERROR', 'The upstream sent a stream event that is not a JSON object.'));
      return;
    }
    const type = typeof data.type === 'string' ? data.type : event.event;
    switch (type) {
      case 'message_start':
        this.addUsage((data.message as Json | undefined)?.usage);
        return;
      case 'content_block_start':
        yield* this.blockStart(Number(data.index), (data.content_block ?? {}) as Json);
        return;
      case 'content_block_delta':
        yield* this.blockDelta(Number(data.index), (data.delta ?? {}) as Json);
        return;
      case 'content_block_stop':
        this.thinkingByBlock.delete(Number(data.index));
        return;
      case 'message_delta': {
        this.addUsage(data.usage);
        const stopReason = (data.delta as Json | undefined)?.stop_reason;
        this.finished = true;
        yield this.chunk(this.withRole({}, null), finishReasonOf(typeof stopReason === 'string' ? stopReason : null, this.toolIndexByBlock.size));
        return;
      }
      case 'message_stop':
        yield* this.stop();
        return;
      case 'error':
        yield* this.onError(errorFromUpstreamEvent(event, 'messages', this.eventSource));
        return;
      default:
        // `ping` and event types newer than this translator carry nothing for chat.
        return;
    }
  }

  protected *onEnd(): Iterable<string> {
    if (this.closed) return;
    yield* this.onError(new GatewayError('UPSTREAM_ERROR', 'The upstream stream ended before `message_stop`.'));
  }

  protected *onError(err: GatewayError): Iterable<string> {
    if (this.closed) return;
    this.closed = true;
    yield this.errorEvent(err, 'chat');
  }

  private *blockStart(index: number, block: Json): Iterable<string> {
    switch (block.type) {
      case 'text': {
        const text = this.applyPrefill(str(block.text));
        yield this.chunk(this.withRole({ content: text }, ''));
        return;
      }
      case 'tool_use': {
        // Streams start with `input: {}` and send the JSON as deltas; a non-empty start input is sent at once.
        const input = block.input as Json | undefined;
        const args = input && Object.keys(input).length > 0 ? JSON.stringify(input) : '';
        if (block.name === JSON_TOOL_NAME) {
          // The forced tool of the `json_object` emulation: its input streams as the answer text.
          this.jsonBlocks.add(index);
          yield this.chunk(this.withRole({ content: args }, ''));
          return;
        }
        const k = this.toolIndexByBlock.size;
        this.toolIndexByBlock.set(index, k);
        const call = { index: k, id: str(block.id), type: 'function' as const, function: { name: str(block.name), arguments: args } };
        yield this.chunk(this.withRole({ tool_calls: [call] }, null));
        return;
      }
      case 'thinking': {
        const thinking = str(block.thinking);
        this.thinkingByBlock.set(index, thinking);
        yield this.chunk(this.withRole({ reasoning_content: thinking }, null));
        return;
      }
      case 'redacted_thinking':
        yield this.chunk(this.withRole({ thinking_blocks: [{ type: 'redacted_thinking', data: str(block.data) }] }, null));
        return;
      default:
        return;
    }
  }

  private *blockDelta(index: number, delta: Json): Iterable<string> {
    switch (delta.type) {
      case 'text_delta': {
        const text = str(delta.text);
        if (text !== '') yield this.chunk(this.withRole({ content: this.applyPrefill(text) }, ''));
        return;
      }
      case 'input_json_delta': {
        const k = this.toolIndexByBlock.get(index);
        const fragment = str(delta.partial_json);
        if (fragment === '') return;
        if (this.jsonBlocks.has(index)) yield this.chunk({ content: fragment });
        else if (k !== undefined) yield this.chunk({ tool_calls: [{ index: k, function: { arguments: fragment } }] });
        return;
      }
      case 'thinking_delta': {
        const thinking = str(delta.thinking);
        const held = this.thinkingByBlock.get(index) ?? '';
        // The block is held whole until its signature sends it as one `thinking_blocks` entry.
        if (held.length + thinking.length > MAX_HELD_OUTPUT_CHARS) throw heldOutputTooLarge(MAX_HELD_OUTPUT_CHARS, 'thinking');
        this.thinkingByBlock.set(index, held + thinking);
        if (thinking !== '') yield this.chunk(this.withRole({ reasoning_content: thinking }, null));
        return;
      }
      case 'signature_delta': {
        const block = { type: 'thinking', thinking: this.thinkingByBlock.get(index) ?? '', signature: str(delta.signature) };
        yield this.chunk(this.withRole({ thinking_blocks: [block] }, null));
        return;
      }
      default:
        // `citations_delta`: chat has no citations.
        return;
    }
  }

  private *stop(): Iterable<string> {
    // A stream without `message_delta` still owes the client a finish reason (the client helper requires one).
    if (!this.finished) yield this.chunk(this.withRole({}, null), 'stop');
    this.closed = true;
    const usage = messagesUsageToChat(this.usage);
    this.options.onUsage?.(usage);
    if (this.options.includeUsage) yield encodeChatChunk(this.envelope([], usage));
    if (this.options.emitDone ?? true) yield CHAT_DONE;
  }

  /** Counters are cumulative: later values replace earlier ones. */
  private addUsage(value: unknown): void {
    if (typeof value !== 'object' || value === null) return;
    for (const [key, count] of Object.entries(value)) {
      if (count !== null && count !== undefined) (this.usage as Json)[key] = count;
    }
  }

  private applyPrefill(text: string): string {
    if (this.prefillPending === undefined || text.trim() === '') return text;
    const prefill = this.prefillPending;
    this.prefillPending = undefined;
    return reattachPrefill(prefill, text);
  }

  /** The first chunk of a choice carries the role; `content` as the chat vendor's first chunk has it. */
  private withRole(delta: Delta, content: string | null): Delta {
    if (this.started) return delta;
    this.started = true;
    return { role: 'assistant', content, ...delta, refusal: null };
  }

  /** `chunk(withRole({content: text}))`, without building the delta object once the role was sent. */
  private textChunk(text: string): string {
    const content = this.applyPrefill(text);
    if (!this.started) return this.chunk(this.withRole({ content }, ''));
    return `${this.chunkHead}{"content":${JSON.stringify(content)}}${this.chunkTail}`;
  }

  private chunk(delta: Delta, finishReason: FinishReason | null = null): string {
    if (finishReason === null) return `${this.chunkHead}${JSON.stringify(delta)}${this.chunkTail}`;
    return encodeChatChunk(this.envelope([{ index: this.options.index ?? 0, delta, logprobs: null, finish_reason: finishReason }]));
  }

  private envelope(choices: ChatCompletionChunk['choices'], usage?: ChatUsage): ChatCompletionChunk {
    const chunk: ChatCompletionChunk = {
      id: this.options.id,
      object: 'chat.completion.chunk',
      created: this.options.created,
      model: this.options.model,
      choices,
    };
    if (this.options.includeUsage) chunk.usage = usage ?? null;
    return chunk;
  }
}

/**
 * Creates the translator for one streamed chat completion served by a
 * messages upstream. Drive it with the relay (`relaySse`) or call
 * `push`/`end`/`error` directly; each yielded string is one SSE event.
 */
export function createMessagesToChatStream(options: MessagesToChatStreamOptions): TextStreamTransform {
  return new MessagesToChatStream(options);
}
