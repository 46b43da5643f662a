/**
 * A chat-completions chunk stream → a messages event stream (the reverse
 * direction), in the order the vendor client's `MessageStream` requires
 * (PROTOCOLS A.6):
 *
 * 1. `message_start` (with `usage`) on the first upstream chunk;
 * 2. one content block at a time, indexes 0, 1, … in order, each
 *    `content_block_start` → deltas → `content_block_stop`:
 *    `reasoning_content` → a `thinking` block (`thinking_delta`s),
 *    `content`/`refusal` → a `text` block, each tool call index → a
 *    `tool_use` block whose argument fragments become `input_json_delta`s;
 *    entries of the `thinking_blocks` extension, in order:
 *    - a signed `thinking` entry ends the open thinking block with its
 *      `signature_delta` when it signs the text streamed there (its
 *      `thinking` equal to that text, continuing it, or empty: upstreams
 *      that send the signature alone); otherwise it is a block of its own,
 *      its text then its signature. Either way the block closes: more
 *      reasoning starts a new one, as each of the vendor's thinking blocks
 *      carries its own signature;
 *    - a `redacted_thinking` entry → a `redacted_thinking` block (start and
 *      stop, no delta);
 *    - an unsigned `thinking` entry is a fragment: its text streams as
 *      reasoning unless the same delta's `reasoning_content` already did;
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
import { StreamedThinking } from './streamed-thinking.js';
import { EagerTextTransform, type SseEvent, type TextStreamTransform, parseEventData } from './stream-transform.js';

/** Options of {@link createChatToMessagesStream}. */
export interface ChatToMessagesStreamOptions {
  /** The model id the caller asked for. */
  model: string;
  /** Message id. Default `msg_<first chunk id>`, or a random one when that id is empty. */
  id?: string;
}

type Json = Record<string, unknown>;
type OpenThinking = { kind: 'thinking'; index: number; streamed: StreamedThinking };
type OpenBlock = { kind: 'text'; index: number } | OpenThinking | { kind: 'tool'; index: number; call: number };

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
    if (reasoning) yield* this.thinkingText(reasoning);
    if (Array.isArray(delta.thinking_blocks)) yield* this.thinkingBlocks(delta.thinking_blocks, { echoed: Boolean(reasoning) });
    const text = str(delta.content);
    if (text) yield* this.textDelta(text);
    const refusal = str(delta.refusal);
    if (refusal) {
      this.refused = true;
      yield* this.textDelta(refusal);
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

  /** Answer text, in the open text block or a new one. */
  private *textDelta(text: string): Iterable<string> {
    if (this.open?.kind !== 'text') {
      yield* this.closeBlock();
      const index = this.nextIndex++;
      this.open = { kind: 'text', index };
      yield this.emit({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
    }
    yield this.emit({ type: 'content_block_delta', index: this.open.index, delta: { type: 'text_delta', text } });
  }

  /** Makes the open block a thinking block. */
  private *openThinking(): Iterable<string> {
    if (this.open?.kind === 'thinking') return;
    yield* this.closeBlock();
    const index = this.nextIndex++;
    this.open = { kind: 'thinking', index, streamed: new StreamedThinking() };
    yield this.emit({ type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } });
  }

  /** Reasoning text, in the open thinking block or a new one. */
  private *thinkingText(text: string): Iterable<string> {
    yield* this.openThinking();
    const open = this.open as OpenThinking;
    open.streamed.append(text);
    yield this.emit({ type: 'content_block_delta', index: open.index, delta: { type: 'thinking_delta', thinking: text } });
  }

  /** The `thinking_blocks` entries of one delta; `echoed`: its `reasoning_content` already streamed their unsigned text. */
  private *thinkingBlocks(entries: readonly unknown[], { echoed }: { echoed: boolean }): Iterable<string> {
    for (const entry of entries) {
      if (typeof entry !== 'object' || entry === null) continue;
      const block = entry as Json;
      if (block.type === 'redacted_thinking' && typeof block.data === 'string') {
        yield* this.closeBlock();
        const index = this.nextIndex++;
        yield this.emit({ type: 'content_block_start', index, content_block: { type: 'redacted_thinking', data: block.data } });
        yield this.emit({ type: 'content_block_stop', index });
      } else if (block.type === 'thinking') {
        const thinking = str(block.thinking) ?? '';
        const signature = str(block.signature);
        if (signature) yield* this.signedThinking(thinking, signature);
        else if (thinking && !echoed) yield* this.thinkingText(thinking);
      }
    }
  }

  /** A signed block: the end of the open thinking block when it signs that text, else a block of its own. */
  private *signedThinking(thinking: string, signature: string): Iterable<string> {
    const open = this.open?.kind === 'thinking' ? this.open : undefined;
    const rest = open && (thinking === '' ? '' : open.streamed.restOf(thinking));
    // The open block's text is not what this signature signs: it stays unsigned, as plain chat reasoning is.
    if (rest === undefined) yield* this.closeBlock();
    const text = rest ?? thinking;
    if (text === '') yield* this.openThinking();
    else yield* this.thinkingText(text);
    const { index } = this.open as OpenThinking;
    yield this.emit({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature } });
    yield* this.closeBlock();
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
