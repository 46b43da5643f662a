/**
 * A chat-completions chunk stream → a messages event stream (the reverse
 * direction), in the order the vendor client's `MessageStream` requires
 * (PROTOCOLS A.6):
 *
 * 1. `message_start` (with `usage`) on the first upstream chunk;
 * 2. one content block at a time, indexes 0, 1, … in order, each
 *    `content_block_start` → deltas → `content_block_stop`:
 *    `reasoning_content` → a `thinking` block (`thinking_delta`, and a
 *    `signature_delta` when the upstream sends a signed block in the
 *    `thinking_blocks` extension), `content`/`refusal` → a `text` block,
 *    each tool call index → a `tool_use` block whose argument fragments
 *    become `input_json_delta`s;
 * 3. at the end, `message_delta` with `stop_reason` and the usage of the
 *    upstream's usage chunk (`output_tokens` always), then `message_stop`.
 *
 * Every event has its `event:` line. Chat streams may interleave fragments
 * of parallel tool calls; the vendor format cannot (a closed block never
 * reopens), so a fragment for an already-closed tool call ends the stream
 * with an error rather than corrupting its arguments.
 */
import { randomUUID } from 'node:crypto';
import { GatewayError } from '../errors.js';
import type { ChatUsage, MessagesStreamEvent } from '../schemas/index.js';
import { errorFromUpstreamEvent } from '../sse/classify-upstream-event.js';
import { encodeMessagesEvent } from '../sse/format-sse.js';
import { mapFinishReason } from './map-finish-reason.js';
import { chatUsageToMessages } from './map-usage.js';
import { EagerTextTransform, type SseEvent, type TextStreamTransform, parseEventData } from './stream-transform.js';

/** Options of {@link createChatToMessagesStream}. */
export interface ChatToMessagesStreamOptions {
  /** The model id the caller asked for. */
  model: string;
  /** Message id. Default `msg_<first chunk id>`, or a random one when that id is empty. */
  id?: string;
}

type Json = Record<string, unknown>;
type OpenBlock = { kind: 'text' | 'thinking'; index: number } | { kind: 'tool'; index: number; call: number };

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

class ChatToMessagesStream extends EagerTextTransform {
  private started = false;
  private closed = false;
  private open: OpenBlock | undefined;
  private nextIndex = 0;
  private readonly closedCalls = new Set<number>();
  private finishReason: string | undefined;
  private refused = false;
  private usage: ChatUsage | undefined;

  constructor(private readonly options: ChatToMessagesStreamOptions) {
    super();
  }

  protected *onPush(event: SseEvent): Iterable<string> {
    if (this.closed) return;
    if (event.data.startsWith('[DONE]')) {
      yield* this.onEnd();
      return;
    }
    const chunk = parseEventData(event);
    if (!chunk) {
      yield* this.onError(new GatewayError('UPSTREAM_ERROR', 'The upstream sent a stream chunk that is not a JSON object.'));
      return;
    }
    if (chunk.error !== undefined) {
      yield* this.onError(errorFromUpstreamEvent(event, 'chat', this.eventSource));
      return;
    }
    // Azure's first chunk (prompt filter results) says `id: ""`: an empty id is no id.
    if (!this.started) yield this.start(str(chunk.id) || undefined);
    if (typeof chunk.usage === 'object' && chunk.usage !== null) this.usage = chunk.usage as ChatUsage;
    const choices = Array.isArray(chunk.choices) ? (chunk.choices as Json[]) : [];
    // One choice was requested; a fan-out upstream's other choices are not ours.
    const choice = choices.find((item) => (item.index ?? 0) === 0);
    if (!choice) return;
    const delta = (choice.delta ?? {}) as Json;
    const reasoning = str(delta.reasoning_content);
    if (reasoning) yield* this.delta('thinking', { type: 'thinking_delta', thinking: reasoning });
    if (Array.isArray(delta.thinking_blocks)) yield* this.signature(delta.thinking_blocks as Json[]);
    const text = str(delta.content);
    if (text) yield* this.delta('text', { type: 'text_delta', text });
    const refusal = str(delta.refusal);
    if (refusal) {
      this.refused = true;
      yield* this.delta('text', { type: 'text_delta', text: refusal });
    }
    if (Array.isArray(delta.tool_calls)) {
      for (const call of delta.tool_calls as Json[]) {
        yield* this.toolFragment(call);
        if (this.closed) return;
      }
    }
    const finish = str(choice.finish_reason);
    if (finish) {
      this.finishReason = finish;
      yield* this.closeBlock();
    }
  }

  protected *onEnd(): Iterable<string> {
    if (this.closed) return;
    this.closed = true;
    if (!this.started) yield this.start(undefined);
    yield* this.closeBlock();
    const usage = chatUsageToMessages(this.usage);
    const stopReason = this.refused ? 'refusal' : mapFinishReason(this.finishReason);
    const { output_tokens_details: details, ...counts } = usage;
    yield this.emit({
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null },
      // Whole-message totals; the vendor client overwrites its snapshot with each one present.
      usage: { ...counts, ...(details ? { output_tokens_details: details } : {}) },
    });
    yield this.emit({ type: 'message_stop' });
  }

  protected *onError(err: GatewayError): Iterable<string> {
    if (this.closed) return;
    this.closed = true;
    yield this.errorEvent(err, 'messages');
  }

  private start(upstreamId: string | undefined): string {
    this.started = true;
    return this.emit({
      type: 'message_start',
      message: {
        id: this.options.id ?? `msg_${upstreamId ?? randomUUID().replace(/-/g, '')}`,
        type: 'message',
        role: 'assistant',
        model: this.options.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        // Chat streams report usage only at the end; `message_delta` carries the real counts.
        usage: { input_tokens: 0, output_tokens: 0 },
      },
    });
  }

  /** A delta for a text or thinking block, opening one if a different block is open. */
  private *delta(kind: 'text' | 'thinking', delta: Json): Iterable<string> {
    if (this.open?.kind !== kind) {
      yield* this.closeBlock();
      const index = this.nextIndex++;
      this.open = { kind, index };
      const block = kind === 'text' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '', signature: '' };
      yield this.emit({ type: 'content_block_start', index, content_block: block } as MessagesStreamEvent);
    }
    yield this.emit({ type: 'content_block_delta', index: this.open.index, delta } as MessagesStreamEvent);
  }

  private *signature(blocks: readonly Json[]): Iterable<string> {
    for (const block of blocks) {
      const signature = str(block.signature);
      if (block.type === 'thinking' && signature && this.open?.kind === 'thinking') {
        yield this.emit({ type: 'content_block_delta', index: this.open.index, delta: { type: 'signature_delta', signature } });
      }
    }
  }

  private *toolFragment(fragment: Json): Iterable<string> {
    const call = typeof fragment.index === 'number' ? fragment.index : 0;
    const fn = (fragment.function ?? {}) as Json;
    if (this.open?.kind !== 'tool' || this.open.call !== call) {
      if (this.closedCalls.has(call)) {
        yield* this.onError(new GatewayError('UPSTREAM_ERROR', 'The upstream interleaved parallel tool call fragments, which the messages format cannot express.'));
        return;
      }
      yield* this.closeBlock();
      const index = this.nextIndex++;
      this.open = { kind: 'tool', index, call };
      const id = str(fragment.id) ?? `toolu_${randomUUID().replace(/-/g, '')}`;
      yield this.emit({ type: 'content_block_start', index, content_block: { type: 'tool_use', id, name: str(fn.name) ?? '', input: {} } });
    }
    const args = str(fn.arguments);
    if (args) yield this.emit({ type: 'content_block_delta', index: this.open.index, delta: { type: 'input_json_delta', partial_json: args } });
  }

  private *closeBlock(): Iterable<string> {
    if (!this.open) return;
    if (this.open.kind === 'tool') this.closedCalls.add(this.open.call);
    yield this.emit({ type: 'content_block_stop', index: this.open.index });
    this.open = undefined;
  }

  private emit(event: MessagesStreamEvent): string {
    return encodeMessagesEvent(event);
  }
}

/**
 * Creates the translator for one streamed messages response served by a
 * chat upstream. Drive it with the relay (`relaySse`) or call
 * `push`/`end`/`error` directly; each yielded string is one SSE event.
 */
export function createChatToMessagesStream(options: ChatToMessagesStreamOptions): TextStreamTransform {
  return new ChatToMessagesStream(options);
}
