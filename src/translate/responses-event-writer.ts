/**
 * The events of one Responses output item, from `output_item.added` to
 * `output_item.done`, and the sequence numbers of the whole stream. The
 * stream translator decides which item is open; this module writes what
 * opening, extending and closing an item sends, in the order the
 * official clients' stream accumulators expect.
 * @internal
 */
import type { ResponseOutputItem } from '../responses/response-object.js';
import { clientItem } from '../responses/response-object.js';
import type { ChatThinkingBlock } from './messages-to-chat-response.js';
import { HeldOutput } from './held-output.js';
import { type ResponseAnswerOptions, customToolInput, reasoningItem } from './responses-output.js';

/** One content part of a message item as it accumulates. */
export interface MessagePart {
  type: 'output_text' | 'refusal';
  text: string;
}

interface ItemBase {
  /** Output item id (`rs_`, `msg_`, `fc_`, `ctc_`); a call's is fixed when it is added. */
  id: string;
  /** `output_item.added` was sent; its deltas stream as they arrive. */
  opened: boolean;
  /** `output_item.done` was sent. */
  closed: boolean;
  /** Index in `output`, fixed when added. */
  outputIndex: number;
}

/** A reasoning item; `block` is the signed or redacted thinking block that closes it. */
export interface ReasoningState extends ItemBase {
  kind: 'reasoning';
  text: string;
  hasPart: boolean;
  block: ChatThinkingBlock | undefined;
}

export interface MessageState extends ItemBase {
  kind: 'message';
  parts: MessagePart[];
}

/** A chat tool call; `custom` when its name is one of the request's custom tools (decided when it is added). */
export interface CallState extends ItemBase {
  kind: 'call';
  callId: string;
  name: string;
  args: string;
  custom: boolean;
}

export type ItemState = ReasoningState | MessageState | CallState;

const SUMMARY_INDEX = 0;

function emptyPart(type: MessagePart['type']) {
  return type === 'output_text' ? { type, text: '', annotations: [], logprobs: [] } : { type, refusal: '' };
}

function fullPart(part: MessagePart) {
  return part.type === 'output_text'
    ? { type: part.type, text: part.text, annotations: [], logprobs: [] }
    : { type: part.type, refusal: part.text };
}

/** Writes the events of one stream; counts `sequence_number` from 0. */
export class ResponsesEventWriter {
  private sequence = 0;
  private outputCount = 0;
  /** The text every item gathered, held for `response.completed` and the store; the translator adds each item it creates. */
  readonly held: HeldOutput;

  constructor(private readonly options: ResponseAnswerOptions) {
    this.held = new HeldOutput('Responses output', options.maxHeldChars);
  }

  /** One encoded event: `event: <type>` and its JSON (`type`, `sequence_number`, then `fields`). */
  event(type: string, fields: Record<string, unknown>): string {
    return `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: this.sequence++, ...fields })}\n\n`;
  }

  /** `output_item.added`, then everything the item gathered while it waited. */
  *open(item: ItemState): Iterable<string> {
    item.opened = true;
    item.outputIndex = this.outputCount++;
    const at = { output_index: item.outputIndex };
    switch (item.kind) {
      case 'reasoning': {
        yield this.event('response.output_item.added', { ...at, item: { id: item.id, type: 'reasoning', summary: [], encrypted_content: null } });
        const text = item.text;
        item.text = '';
        if (text !== '') yield* this.addReasoning(item, text);
        return;
      }
      case 'message': {
        yield this.event('response.output_item.added', { ...at, item: { id: item.id, type: 'message', status: 'in_progress', role: 'assistant', content: [] } });
        const parts = item.parts;
        item.parts = [];
        for (const part of parts) yield* this.addMessage(item, part.type, part.text, true);
        return;
      }
      case 'call': {
        const added = item.custom
          ? { id: item.id, type: 'custom_tool_call', call_id: item.callId, name: item.name, input: '' }
          : { id: item.id, type: 'function_call', status: 'in_progress', call_id: item.callId, name: item.name, arguments: '' };
        yield this.event('response.output_item.added', { ...at, item: added });
        if (!item.custom && item.args !== '') yield this.argumentsDelta(item, item.args);
        return;
      }
    }
  }

  /** Adds summary text; streams it when the item is open. */
  *appendReasoning(item: ReasoningState, text: string): Iterable<string> {
    this.held.add(text.length);
    yield* this.addReasoning(item, text);
  }

  /** Adds text or refusal to a message; a change of kind closes the current part and opens another. */
  *appendMessage(item: MessageState, type: MessagePart['type'], text: string): Iterable<string> {
    this.held.add(text.length);
    yield* this.addMessage(item, type, text);
  }

  /** `appendReasoning` without counting (text moved, not added: an item opening). */
  private *addReasoning(item: ReasoningState, text: string): Iterable<string> {
    item.text += text;
    if (!item.opened || text === '') return;
    const at = { item_id: item.id, output_index: item.outputIndex, summary_index: SUMMARY_INDEX };
    if (!item.hasPart) {
      item.hasPart = true;
      yield this.event('response.reasoning_summary_part.added', { ...at, part: { type: 'summary_text', text: '' } });
    }
    yield this.event('response.reasoning_summary_text.delta', { ...at, delta: text });
  }

  private *addMessage(item: MessageState, type: MessagePart['type'], text: string, newPartEvenIfEmpty = false): Iterable<string> {
    const last = item.parts[item.parts.length - 1];
    let part = last;
    if (!last || last.type !== type || newPartEvenIfEmpty) {
      if (last && item.opened) yield* this.closePart(item, item.parts.length - 1);
      part = { type, text: '' };
      item.parts.push(part);
      if (item.opened) {
        yield this.event('response.content_part.added', { ...this.partAt(item, item.parts.length - 1), part: emptyPart(type) });
      }
    }
    (part as MessagePart).text += text;
    if (!item.opened || text === '') return;
    const at = this.partAt(item, item.parts.length - 1);
    yield type === 'output_text'
      ? this.event('response.output_text.delta', { ...at, delta: text, logprobs: [] })
      : this.event('response.refusal.delta', { ...at, delta: text });
  }

  /** Adds argument text to a call; a function call's streams when open, a custom tool's input is sent whole at the end. */
  *appendArguments(item: CallState, text: string): Iterable<string> {
    this.held.add(text.length);
    item.args += text;
    if (item.opened && !item.custom) yield this.argumentsDelta(item, text);
  }

  /** The item as it stands, in its stored form (reasoning keeps `encrypted_content`). */
  snapshot(item: ItemState, status: 'completed' | 'incomplete' = 'incomplete'): ResponseOutputItem {
    switch (item.kind) {
      case 'reasoning':
        return reasoningItem(item.id, item.text, item.block ? this.options.seal([item.block]) : null);
      case 'message':
        return { id: item.id, type: 'message', status, role: 'assistant', content: item.parts.map(fullPart) };
      case 'call':
        return item.custom
          ? { id: item.id, type: 'custom_tool_call', status: 'completed', call_id: item.callId, name: item.name, input: customToolInput(item.args) }
          : { id: item.id, type: 'function_call', status: status === 'incomplete' && !item.closed ? 'incomplete' : 'completed', call_id: item.callId, name: item.name, arguments: item.args };
    }
  }

  /** Every `…done` event of the item, then `output_item.done` carrying `stored` as the client may see it. */
  *close(item: ItemState, stored: ResponseOutputItem): Iterable<string> {
    const at = { item_id: item.id, output_index: item.outputIndex };
    switch (item.kind) {
      case 'reasoning':
        if (item.hasPart) {
          const summary = { ...at, summary_index: SUMMARY_INDEX };
          yield this.event('response.reasoning_summary_text.done', { ...summary, text: item.text });
          yield this.event('response.reasoning_summary_part.done', { ...summary, part: { type: 'summary_text', text: item.text } });
        }
        break;
      case 'message':
        if (item.parts.length > 0) yield* this.closePart(item, item.parts.length - 1);
        break;
      case 'call':
        if (item.custom) {
          const input = customToolInput(item.args);
          if (input !== '') yield this.event('response.custom_tool_call_input.delta', { ...at, delta: input });
          yield this.event('response.custom_tool_call_input.done', { ...at, input });
        } else {
          yield this.event('response.function_call_arguments.done', { ...at, name: item.name, arguments: item.args });
        }
        break;
    }
    item.closed = true;
    yield this.event('response.output_item.done', { output_index: item.outputIndex, item: clientItem(stored, this.options.includeEncrypted) });
  }

  private partAt(item: MessageState, contentIndex: number) {
    return { item_id: item.id, output_index: item.outputIndex, content_index: contentIndex };
  }

  private *closePart(item: MessageState, contentIndex: number): Iterable<string> {
    const part = item.parts[contentIndex] as MessagePart;
    const at = this.partAt(item, contentIndex);
    yield part.type === 'output_text'
      ? this.event('response.output_text.done', { ...at, text: part.text, logprobs: [] })
      : this.event('response.refusal.done', { ...at, refusal: part.text });
    yield this.event('response.content_part.done', { ...at, part: fullPart(part) });
  }

  private argumentsDelta(item: CallState, text: string): string {
    return this.event('response.function_call_arguments.delta', { item_id: item.id, output_index: item.outputIndex, delta: text });
  }
}
