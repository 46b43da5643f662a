/**
 * A messages event stream → the `message` the same call returns unstreamed
 * (PROTOCOLS A.5, A.6):
 *
 * | event | message |
 * |---|---|
 * | `message_start` | the message (id, model, …) and its usage |
 * | `content_block_start` | block `index` as it starts (server tool blocks and `redacted_thinking` arrive whole) |
 * | `text_delta` | the text block's `text`, concatenated |
 * | `citations_delta` | the text block's `citations`, in order |
 * | `thinking_delta`, `signature_delta` | the thinking block's `thinking`, `signature` |
 * | `input_json_delta` | the block's `input`, parsed from the concatenated JSON at `content_block_stop` |
 * | `message_delta` | `stop_reason`, `stop_sequence` and the delta's other fields (`stop_details`, `container`); usage figures replace the start's |
 * | `message_stop` | the end |
 * | `ping`, newer event types | nothing |
 *
 * Whole only with `message_start`, `message_delta` and `message_stop`,
 * blocks started in order and all stopped, every delta of a kind its block
 * takes, and every streamed tool input a JSON object.
 *
 * @internal
 */
import { parseEventData } from '../translate/stream-transform.js';
import type { SseEvent } from '../sse/parse-sse.js';
import type { AnswerRecorder } from './answer-recorder-contract.js';
import { RecordBudget } from './record-budget.js';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The field each text delta appends to (the same name in the delta and the block), and the block type that takes it. */
const TEXT_DELTAS: ReadonlyMap<string, { field: string; block: string }> = new Map([
  ['text_delta', { field: 'text', block: 'text' }],
  ['thinking_delta', { field: 'thinking', block: 'thinking' }],
  ['signature_delta', { field: 'signature', block: 'thinking' }],
]);

class MessagesStreamRecorder implements AnswerRecorder {
  private readonly budget: RecordBudget;
  private message: Json | undefined;
  private usage: Json = {};
  private final: Json | undefined;
  private blocks: Json[] = [];
  /** The streamed JSON of the open block's input. */
  private json = '';
  private open = -1;
  private stopped = false;
  private broken = false;

  constructor(maxBytes: number) {
    this.budget = new RecordBudget(maxBytes);
  }

  observe(event: SseEvent): void {
    if (this.broken || this.stopped) return;
    if (event.event === 'error') return this.break();
    const data = parseEventData(event);
    if (!data) return this.break();
    const type = typeof data.type === 'string' ? data.type : event.event;
    switch (type) {
      case 'message_start':
        return this.start(data.message);
      case 'content_block_start':
        return this.blockStart(data.index, data.content_block, event.data);
      case 'content_block_delta':
        return this.blockDelta(data.index, data.delta);
      case 'content_block_stop':
        return this.blockStop(data.index);
      case 'message_delta':
        return this.messageDelta(data);
      case 'message_stop':
        if (this.open !== -1 || !this.final) return this.break();
        this.stopped = true;
        return;
      case 'error':
        return this.break();
      default:
        // `ping`, and event types newer than this recorder: they carry nothing a message holds.
        return;
    }
  }

  finish(): Json | undefined {
    if (this.broken || !this.stopped || !this.message || !this.final) return undefined;
    return { ...this.message, content: this.blocks, ...this.final, usage: this.usage };
  }

  private break(): void {
    this.broken = true;
    this.blocks = [];
    this.json = '';
  }

  private start(message: unknown): void {
    if (this.message || !isObject(message)) return this.break();
    this.message = { ...message };
    this.usage = isObject(message.usage) ? { ...message.usage } : {};
  }

  private blockStart(index: unknown, block: unknown, data: string): void {
    if (!this.message || this.open !== -1 || index !== this.blocks.length || !isObject(block) || typeof block.type !== 'string') return this.break();
    // Blocks that arrive whole (redacted thinking, server tool results) are kept as they came: counted by their event.
    if (!this.budget.spend(data)) return this.break();
    this.blocks.push({ ...block });
    this.open = index;
    this.json = '';
  }

  private blockDelta(index: unknown, delta: unknown): void {
    const block = this.blocks[this.open];
    if (index !== this.open || !block || !isObject(delta) || typeof delta.type !== 'string') return this.break();
    const text = TEXT_DELTAS.get(delta.type);
    if (text) {
      const piece = delta[text.field];
      if (block.type !== text.block || typeof piece !== 'string' || !this.budget.spend(piece)) return this.break();
      block[text.field] = str(block[text.field]) + piece;
      return;
    }
    if (delta.type === 'input_json_delta') {
      const piece = delta.partial_json;
      if (block.type === 'text' || block.type === 'thinking' || typeof piece !== 'string' || !this.budget.spend(piece)) return this.break();
      this.json += piece;
      return;
    }
    if (delta.type === 'citations_delta') {
      if (block.type !== 'text' || !isObject(delta.citation) || !this.budget.spend(JSON.stringify(delta.citation))) return this.break();
      block.citations = [...(Array.isArray(block.citations) ? block.citations : []), delta.citation];
      return;
    }
    // A delta this recorder cannot keep would be missing from every replay.
    this.break();
  }

  private blockStop(index: unknown): void {
    const block = this.blocks[this.open];
    if (index !== this.open || !block) return this.break();
    this.open = -1;
    if (this.json.trim() === '') return;
    let input: unknown;
    try {
      input = JSON.parse(this.json);
    } catch {
      return this.break();
    }
    if (!isObject(input)) return this.break();
    block.input = input;
    this.json = '';
  }

  private messageDelta(data: Json): void {
    if (!this.message || this.open !== -1 || !isObject(data.delta)) return this.break();
    const { stop_reason: stopReason, stop_sequence: stopSequence, ...rest } = data.delta;
    this.final = { ...this.final, ...rest, stop_reason: stopReason ?? null, stop_sequence: stopSequence ?? null };
    if (!isObject(data.usage)) return;
    // Figures are cumulative: each one sent replaces the start's.
    for (const [key, value] of Object.entries(data.usage)) {
      if (value !== null && value !== undefined) this.usage[key] = value;
    }
  }
}

/** Creates a recorder for a messages stream. */
export function createMessagesStreamRecorder(maxBytes: number): AnswerRecorder {
  return new MessagesStreamRecorder(maxBytes);
}
