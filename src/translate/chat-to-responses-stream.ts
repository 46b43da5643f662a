/**
 * A chat-completions chunk stream → a Responses event stream.
 *
 * | chat delta | Responses output item (events) |
 * |---|---|
 * | `reasoning_content` | a `reasoning` item: `reasoning_summary_part.added`, `reasoning_summary_text.delta`* |
 * | `thinking_blocks` (extension: a signed block, or a redacted one) | closes the reasoning item with `encrypted_content` = the sealed block (a redacted block is an item of its own; a signature sent alone seals the text streamed before it); more `reasoning_content` then starts a new item |
 * | `content`, `refusal` | a `message` item: `content_part.added`, `output_text.delta`* / `refusal.delta`* |
 * | `tool_calls[k]` | a `function_call` item: `function_call_arguments.delta`*; a call of a custom tool becomes a `custom_tool_call` whose input is sent once whole |
 * | `finish_reason` | closes every item (`…done`, `output_item.done`) |
 * | chunks of choices other than 0 (`n > 1`) | nothing: a Response has one output, choice 0's |
 * | usage chunk, `[DONE]` / `end()` | `response.completed` (or `response.incomplete` for `length` / `content_filter`) with every item and complete usage |
 *
 * The stream opens with `response.created` and `response.in_progress`.
 * Items never interleave: one is open at a time and is closed before the
 * next is added. Text streams as it arrives; what arrives for a later item
 * while one is open waits, and a tool call stays open until its arguments
 * are a complete JSON object (chat streams may interleave calls by index).
 * A failure ends the stream with `error` and `response.failed`.
 *
 * @see https://platform.openai.com/docs/api-reference/responses-streaming
 */
import { GatewayError } from '../errors.js';
import type { Redactor } from '../redact/redactor.js';
import { toChatErrorBody } from '../render-error.js';
import { newCallId, newCustomToolCallItemId, newFunctionCallItemId, newMessageItemId, newReasoningItemId } from '../responses/response-ids.js';
import {
  type ResponseObject,
  type ResponseOutputItem,
  type ResponseState,
  buildResponseObject,
  chatUsageToResponses,
  clientView,
  incompleteDetailsOf,
} from '../responses/response-object.js';
import type { ChatFinishReason, ChatUsage } from '../schemas/index.js';
import { errorFromUpstreamEvent } from '../sse/classify-upstream-event.js';
import type { ChatThinkingBlock } from './messages-to-chat-response.js';
import { ITEM_CHARS } from './held-output.js';
import { type CallState, type ItemState, type MessagePart, type ReasoningState, ResponsesEventWriter } from './responses-event-writer.js';
import { type ResponseAnswerOptions, isCompleteArguments, nowSeconds, readThinkingBlock } from './responses-output.js';
import { EagerTextTransform, type SseEvent, type TextStreamTransform, parseEventData } from './stream-transform.js';

/** A chat → Responses stream translator. */
export interface ResponsesStreamTransform extends TextStreamTransform {
  /** Each call returns the encoded events it produced (an array, computed eagerly). */
  push(event: SseEvent): string[];
  end(): string[];
  error(error: GatewayError): string[];
  useRedactor(redactor: Redactor): void;
  /**
   * The stored view of the Response (reasoning items keep
   * `encrypted_content`), set when the call that produced the terminal
   * `response.completed` / `response.incomplete` event returns: store it
   * before releasing that event. `undefined` before, and after a failure.
   */
  readonly final: ResponseObject | undefined;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

const FINISH_REASONS: ReadonlySet<string> = new Set(['stop', 'length', 'tool_calls', 'content_filter', 'function_call']);

class ChatToResponsesStream extends EagerTextTransform implements ResponsesStreamTransform {
  private readonly writer: ResponsesEventWriter;
  private started = false;
  private closed = false;
  /** Items added or waiting to be, in output order; only the first may be open. */
  private queue: ItemState[] = [];
  /** The stored view of every closed item, in output order. */
  private readonly output: ResponseOutputItem[] = [];
  private readonly calls = new Map<number, CallState>();
  private usage: ChatUsage | undefined;
  private finishReason: ChatFinishReason | null = null;
  private result: ResponseObject | undefined;

  constructor(private readonly options: ResponseAnswerOptions) {
    super();
    this.writer = new ResponsesEventWriter(options);
  }

  get final(): ResponseObject | undefined {
    return this.result;
  }

  protected *onPush(event: SseEvent): Iterable<string> {
    if (this.closed) return;
    // Past the bound, the stream fails (the relay ends it with `error()`): what the last event added went out, nothing more is held.
    this.writer.held.check();
    yield* this.start();
    if (event.data.startsWith('[DONE]')) {
      yield* this.complete();
      return;
    }
    const data = parseEventData(event);
    if (!data) {
      yield* this.onError(new GatewayError('UPSTREAM_ERROR', 'The upstream sent a stream event that is not a JSON object.'));
      return;
    }
    if (data.error !== undefined && data.error !== null) {
      yield* this.onError(errorFromUpstreamEvent(event, 'chat', this.eventSource));
      return;
    }
    if (typeof data.usage === 'object' && data.usage !== null) this.usage = data.usage as ChatUsage;
    const choices = Array.isArray(data.choices) ? (data.choices as unknown[]).filter(isObject) : [];
    // A Response has one output, choice 0's (as `chatToResponsesResponse` keeps); an `n > 1` chunk may carry another choice alone.
    const choice = choices.find((entry) => (entry.index ?? 0) === 0);
    if (!choice) return;
    const delta = isObject(choice.delta) ? choice.delta : {};
    if (typeof delta.reasoning_content === 'string' && delta.reasoning_content !== '') yield* this.addReasoning(delta.reasoning_content);
    if (Array.isArray(delta.thinking_blocks)) {
      for (const entry of delta.thinking_blocks) {
        const block = readThinkingBlock(entry);
        if (block) yield* this.addThinkingBlock(block);
      }
    }
    if (typeof delta.content === 'string' && delta.content !== '') yield* this.addText('output_text', delta.content);
    if (typeof delta.refusal === 'string' && delta.refusal !== '') yield* this.addText('refusal', delta.refusal);
    if (Array.isArray(delta.tool_calls)) {
      for (const call of delta.tool_calls as unknown[]) if (isObject(call)) yield* this.addCallFragment(call);
    }
    yield* this.advance();
    if (typeof choice.finish_reason === 'string' && FINISH_REASONS.has(choice.finish_reason)) {
      this.finishReason = choice.finish_reason as ChatFinishReason;
      yield* this.closeAll();
    }
  }

  protected *onEnd(): Iterable<string> {
    if (this.closed) return;
    this.writer.held.check();
    yield* this.start();
    yield* this.complete();
  }

  protected *onError(error: GatewayError): Iterable<string> {
    if (this.closed) return;
    yield* this.start();
    this.closed = true;
    const body = toChatErrorBody(error).error;
    const { message } = body;
    const code = body.code ?? (error.status >= 500 ? 'server_error' : body.type);
    yield this.writer.event('error', { code, message, param: body.param, error: { type: body.type, code, message, param: body.param } });
    const head = this.queue[0];
    const output = [...this.output];
    if (head?.opened) output.push(this.writer.snapshot(head));
    const response = this.response({ status: 'failed', output, usage: chatUsageToResponses(this.usage), error: { code, message } });
    yield this.writer.event('response.failed', { response: clientView(response, this.options.includeEncrypted) });
  }

  private response(state: ResponseState): ResponseObject {
    return buildResponseObject(this.options, state);
  }

  private *start(): Iterable<string> {
    if (this.started) return;
    this.started = true;
    const response = this.response({ status: 'in_progress', output: [], usage: null });
    yield this.writer.event('response.created', { response });
    yield this.writer.event('response.in_progress', { response });
  }

  private *complete(): Iterable<string> {
    yield* this.closeAll();
    this.closed = true;
    const incomplete = incompleteDetailsOf(this.finishReason);
    const stored = this.response({
      status: incomplete ? 'incomplete' : 'completed',
      output: this.output,
      usage: chatUsageToResponses(this.usage),
      completedAt: incomplete ? null : (this.options.now ?? nowSeconds)(),
      incompleteDetails: incomplete,
    });
    this.result = stored;
    yield this.writer.event(incomplete ? 'response.incomplete' : 'response.completed', { response: clientView(stored, this.options.includeEncrypted) });
  }

  /** The last item of `kind` still open or waiting that `accepts` more, else a new one at the end of the queue. */
  private target<K extends ItemState['kind']>(kind: K, accepts: (item: Extract<ItemState, { kind: K }>) => boolean, create: () => Extract<ItemState, { kind: K }>) {
    for (let i = this.queue.length - 1; i >= 0; i--) {
      const item = this.queue[i] as ItemState;
      if (item.kind === kind && accepts(item as Extract<ItemState, { kind: K }>)) return item as Extract<ItemState, { kind: K }>;
    }
    const item = create();
    this.writer.held.add(ITEM_CHARS);
    this.queue.push(item);
    return item;
  }

  private newReasoning(text: string, block?: ChatThinkingBlock): ReasoningState {
    return { kind: 'reasoning', id: newReasoningItemId(), opened: false, closed: false, outputIndex: -1, text, hasPart: false, block };
  }

  private *addReasoning(text: string): Iterable<string> {
    const item = this.target('reasoning', (r) => r.block === undefined, () => this.newReasoning(''));
    yield* this.writer.appendReasoning(item, text);
  }

  private *addThinkingBlock(block: ChatThinkingBlock): Iterable<string> {
    if (block.type === 'redacted_thinking') {
      this.writer.held.add(ITEM_CHARS + block.data.length);
      this.queue.push(this.newReasoning('', block));
      return;
    }
    const item = this.target('reasoning', (r) => r.block === undefined, () => this.newReasoning(''));
    const streamed = item.text;
    // A signature sent alone (upstreams that stream thinking in fragments) signs the text streamed before it.
    const signed = block.thinking === '' ? { ...block, thinking: streamed } : block;
    // The block keeps its own copy of the thinking when the text already streamed.
    this.writer.held.add(block.signature.length + (streamed === '' ? 0 : signed.thinking.length));
    item.block = signed;
    // A block that arrives whole, or continues the streamed text, shows the rest of its text.
    if (signed.thinking.startsWith(streamed)) yield* this.writer.appendReasoning(item, signed.thinking.slice(streamed.length));
  }

  private *addText(type: MessagePart['type'], text: string): Iterable<string> {
    const item = this.target('message', () => true, () => ({ kind: 'message', id: newMessageItemId(), opened: false, closed: false, outputIndex: -1, parts: [] }));
    yield* this.writer.appendMessage(item, type, text);
  }

  private *addCallFragment(call: Json): Iterable<string> {
    const index = typeof call.index === 'number' ? call.index : 0;
    const fn = isObject(call.function) ? call.function : {};
    const name = typeof fn.name === 'string' ? fn.name : '';
    let state = this.calls.get(index);
    if (!state) {
      state = {
        kind: 'call',
        id: '',
        opened: false,
        closed: false,
        outputIndex: -1,
        callId: typeof call.id === 'string' && call.id !== '' ? call.id : newCallId(),
        name,
        args: '',
        custom: false,
      };
      this.calls.set(index, state);
      this.writer.held.add(ITEM_CHARS);
      this.queue.push(state);
    } else if (!state.opened && state.name === '' && name !== '') {
      state.name = name;
    }
    // A fragment for a call already closed (its arguments were a whole object) can only be spacing: nothing to add.
    if (state.closed || typeof fn.arguments !== 'string' || fn.arguments === '') return;
    yield* this.writer.appendArguments(state, fn.arguments);
  }

  /** Opens the head item, and closes it whenever something waits behind it and it can end there. */
  private *advance(): Iterable<string> {
    for (let head = this.queue[0]; head; head = this.queue[0]) {
      if (!head.opened) {
        // A call is added once its name is known (chat sends it with the first fragment).
        if (head.kind === 'call' && head.name === '') return;
        this.prepare(head);
        yield* this.writer.open(head);
        continue;
      }
      if (this.queue.length < 2 || (head.kind === 'call' && !isCompleteArguments(head.args))) return;
      yield* this.close(head, 'completed');
    }
  }

  /** Fixes what an item is once it is added: its id, and whether a call is a custom tool's. */
  private prepare(item: ItemState): void {
    if (item.kind !== 'call') return;
    item.custom = this.options.customTools.has(item.name);
    item.id = item.custom ? newCustomToolCallItemId() : newFunctionCallItemId();
  }

  private *close(item: ItemState, status: 'completed' | 'incomplete'): Iterable<string> {
    const stored = this.writer.snapshot(item, status);
    yield* this.writer.close(item, stored);
    this.output.push(stored);
    this.queue.shift();
  }

  /** Closes every item; an answer with no item at all gets an empty message, so `output` is never empty. */
  private *closeAll(): Iterable<string> {
    if (this.queue.length === 0 && this.output.length === 0) {
      this.queue.push({ kind: 'message', id: newMessageItemId(), opened: false, closed: false, outputIndex: -1, parts: [{ type: 'output_text', text: '' }] });
    }
    while (this.queue.length > 0) {
      const head = this.queue[0] as ItemState;
      if (!head.opened && head.kind === 'call' && head.name === '') {
        // A call that never got a name cannot be run: it is left out.
        this.queue.shift();
        continue;
      }
      if (!head.opened) {
        this.prepare(head);
        yield* this.writer.open(head);
      }
      // A truncated answer's last text is the part cut short.
      const truncated = this.queue.length === 1 && head.kind === 'message' && incompleteDetailsOf(this.finishReason) !== null;
      yield* this.close(head, truncated ? 'incomplete' : 'completed');
    }
  }
}

/**
 * Creates the translator for one streamed Response served by a chat
 * upstream (or by a messages upstream through `createMessagesToChatStream`).
 * Drive it with the relay or call `push`/`end`/`error`; each yielded string
 * is one SSE event (`event: <type>` + `data: <json>`).
 */
export function createChatToResponsesStream(options: ResponseAnswerOptions): ResponsesStreamTransform {
  return new ChatToResponsesStream(options);
}
