/**
 * An independent checker of a Responses event stream, written from the
 * event grammar the official clients rely on (openai-node's
 * `ResponseStream` accumulator, Codex, the Agents SDK, the AI SDK):
 *
 * - every event is one SSE event whose `event:` name equals its JSON `type`;
 *   `sequence_number` counts from 0;
 * - `response.created` (in_progress, empty output), then `response.in_progress`;
 * - one item open at a time: `output_item.added` (fresh non-empty id,
 *   `output_index` = items added so far) → its part/delta/done events →
 *   `output_item.done`; no event for an item that is not the open one;
 * - every `…done` text equals the concatenated deltas, and `output_item.done`
 *   carries exactly what the events built;
 * - one terminal event, last: `response.completed` / `response.incomplete`
 *   whose `output` equals the done items and whose `usage` has every key;
 *   or `error` (flat and nested fields) then `response.failed`;
 * - every Response in the stream has the same id.
 *
 * Throws an `Error` naming the event at fault.
 */
import { isDeepStrictEqual } from 'node:util';

type Json = Record<string, any>;

/** What a valid stream amounts to. */
export interface ResponsesStreamSummary {
  events: Json[];
  /** The items as `output_item.done` carried them, in order. */
  items: Json[];
  /** The terminal event. */
  terminal: Json;
  /** The response id shared by every event. */
  responseId: string;
}

/** Decodes encoded events (one string each); each must be exactly one `event:` + one `data:` line. */
export function decodeResponsesEvents(encoded: readonly string[]): Json[] {
  return encoded.map((text, i) => {
    const match = /^event: ([^\n]+)\ndata: ([^\n]+)\n\n$/.exec(text);
    if (!match) throw new Error(`event ${i} is not one "event:" + "data:" SSE event: ${JSON.stringify(text.slice(0, 200))}`);
    const data = JSON.parse(match[2] as string) as Json;
    if (data.type !== match[1]) throw new Error(`event ${i}: event name ${match[1]} differs from type ${String(data.type)}`);
    return data;
  });
}

function fail(i: number, event: Json, message: string): never {
  throw new Error(`event ${i} (${String(event.type)}): ${message}`);
}

function checkUsage(i: number, event: Json, usage: Json | null | undefined): void {
  const isCount = (value: unknown) => Number.isInteger(value) && (value as number) >= 0;
  if (
    !usage ||
    !isCount(usage.input_tokens) ||
    !isCount(usage.output_tokens) ||
    !isCount(usage.total_tokens) ||
    !isCount(usage.input_tokens_details?.cached_tokens) ||
    !isCount(usage.output_tokens_details?.reasoning_tokens)
  ) {
    fail(i, event, `usage lacks a key: ${JSON.stringify(usage)}`);
  }
}

interface OpenItem {
  index: number;
  id: string;
  type: string;
  added: Json;
  parts: { type: string; text: string; open: boolean }[];
  summary: { text: string; open: boolean; textDone: boolean }[];
  args: string;
  argsDone: boolean;
  input: string;
  inputDone: boolean;
}

/** Checks `encoded` against the grammar; `expectedId` (when given) must be the id of every Response. */
export function checkResponsesStream(encoded: readonly string[], expectedId?: string): ResponsesStreamSummary {
  const events = decodeResponsesEvents(encoded);
  const items: Json[] = [];
  const ids = new Set<string>();
  let open: OpenItem | undefined;
  let responseId = expectedId;
  let terminal: Json | undefined;

  events.forEach((event, i) => {
    if (terminal) fail(i, event, 'event after the terminal event');
    if (event.sequence_number !== i) fail(i, event, `sequence_number ${String(event.sequence_number)}, expected ${i}`);
    if (i === 0 && event.type !== 'response.created') fail(i, event, 'the stream must open with response.created');
    if (i === 1 && event.type !== 'response.in_progress') fail(i, event, 'response.in_progress must follow response.created');
    if (event.response !== undefined) {
      responseId ??= event.response.id;
      if (typeof event.response.id !== 'string' || event.response.id !== responseId) fail(i, event, `response id ${String(event.response.id)} is not ${String(responseId)}`);
      if (event.response.object !== 'response') fail(i, event, 'response.object is not "response"');
    }
    const scoped = event.output_index !== undefined || event.item_id !== undefined;
    if (scoped && event.type !== 'response.output_item.added') {
      if (!open) fail(i, event, 'no item is open');
      if (event.output_index !== open.index) fail(i, event, `output_index ${String(event.output_index)} is not the open item's ${open.index}`);
      if (event.item_id !== undefined && event.item_id !== open.id) fail(i, event, `item_id ${String(event.item_id)} is not the open item's ${open.id}`);
    }
    const part = (index: unknown) => {
      const entry = open?.parts[index as number];
      if (!entry || index !== open!.parts.length - 1 || !entry.open) fail(i, event, `content part ${String(index)} is not the open part`);
      return entry;
    };
    const summary = (index: unknown) => {
      const entry = open?.summary[index as number];
      if (!entry || !entry.open) fail(i, event, `summary part ${String(index)} is not open`);
      return entry;
    };
    switch (event.type) {
      case 'response.created':
      case 'response.in_progress':
        if (i > 1) fail(i, event, 'repeated');
        if (event.response.status !== 'in_progress' || !isDeepStrictEqual(event.response.output, [])) fail(i, event, 'must be in_progress with output []');
        if (typeof event.response.created_at !== 'number' || typeof event.response.model !== 'string') fail(i, event, 'needs created_at and model');
        break;
      case 'response.output_item.added': {
        if (open) fail(i, event, `item ${open.id} is still open`);
        const item = event.item as Json;
        if (event.output_index !== items.length) fail(i, event, `output_index ${String(event.output_index)}, expected ${items.length}`);
        if (typeof item.id !== 'string' || item.id === '' || ids.has(item.id)) fail(i, event, `item id ${String(item.id)} is empty or reused`);
        ids.add(item.id);
        if (item.type === 'message' && (item.status !== 'in_progress' || item.role !== 'assistant' || !isDeepStrictEqual(item.content, []))) fail(i, event, 'a message starts in_progress, assistant, with no content');
        if (item.type === 'function_call' && (item.arguments !== '' || item.status !== 'in_progress' || !item.call_id || !item.name)) fail(i, event, 'a function call starts with call_id, name, arguments "" and in_progress');
        if (item.type === 'custom_tool_call' && (item.input !== '' || !item.call_id || !item.name)) fail(i, event, 'a custom tool call starts with call_id, name and input ""');
        if (item.type === 'reasoning' && (!isDeepStrictEqual(item.summary, []) || item.encrypted_content !== null)) fail(i, event, 'a reasoning item starts with summary [] and encrypted_content null');
        if (!['message', 'function_call', 'custom_tool_call', 'reasoning'].includes(item.type)) fail(i, event, `unexpected item type ${String(item.type)}`);
        open = { index: items.length, id: item.id, type: item.type, added: item, parts: [], summary: [], args: '', argsDone: false, input: '', inputDone: false };
        break;
      }
      case 'response.content_part.added':
        if (open!.type !== 'message') fail(i, event, 'content part on a non-message');
        if (event.content_index !== open!.parts.length || open!.parts.some((p) => p.open)) fail(i, event, 'content parts must open one after another');
        if (event.part.type === 'output_text' && !isDeepStrictEqual(event.part, { type: 'output_text', text: '', annotations: [], logprobs: [] })) fail(i, event, 'an output_text part starts empty with annotations []');
        if (event.part.type === 'refusal' && event.part.refusal !== '') fail(i, event, 'a refusal part starts empty');
        open!.parts.push({ type: event.part.type, text: '', open: true });
        break;
      case 'response.output_text.delta':
      case 'response.refusal.delta': {
        const entry = part(event.content_index);
        if (entry.type !== (event.type === 'response.output_text.delta' ? 'output_text' : 'refusal')) fail(i, event, `delta for a ${entry.type} part`);
        if (typeof event.delta !== 'string') fail(i, event, 'delta is not a string');
        entry.text += event.delta;
        break;
      }
      case 'response.output_text.done':
      case 'response.refusal.done': {
        const entry = part(event.content_index);
        const text = event.type === 'response.output_text.done' ? event.text : event.refusal;
        if (text !== entry.text) fail(i, event, `done text ${JSON.stringify(text)} differs from the deltas ${JSON.stringify(entry.text)}`);
        break;
      }
      case 'response.content_part.done': {
        const entry = part(event.content_index);
        const expected = entry.type === 'output_text' ? { type: 'output_text', text: entry.text, annotations: [], logprobs: [] } : { type: 'refusal', refusal: entry.text };
        if (!isDeepStrictEqual(event.part, expected)) fail(i, event, `part ${JSON.stringify(event.part)} differs from the deltas`);
        entry.open = false;
        break;
      }
      case 'response.function_call_arguments.delta':
        if (open!.type !== 'function_call' || open!.argsDone) fail(i, event, 'arguments delta outside an open function call');
        open!.args += event.delta;
        break;
      case 'response.function_call_arguments.done':
        if (open!.type !== 'function_call' || open!.argsDone) fail(i, event, 'arguments done outside an open function call');
        if (event.arguments !== open!.args) fail(i, event, 'done arguments differ from the deltas');
        open!.argsDone = true;
        break;
      case 'response.custom_tool_call_input.delta':
        if (open!.type !== 'custom_tool_call' || open!.inputDone) fail(i, event, 'input delta outside an open custom tool call');
        open!.input += event.delta;
        break;
      case 'response.custom_tool_call_input.done':
        if (open!.type !== 'custom_tool_call' || open!.inputDone) fail(i, event, 'input done outside an open custom tool call');
        if (event.input !== open!.input) fail(i, event, 'done input differs from the deltas');
        open!.inputDone = true;
        break;
      case 'response.reasoning_summary_part.added':
        if (open!.type !== 'reasoning') fail(i, event, 'summary part on a non-reasoning item');
        if (event.summary_index !== open!.summary.length || open!.summary.some((s) => s.open)) fail(i, event, 'summary parts must open one after another');
        if (!isDeepStrictEqual(event.part, { type: 'summary_text', text: '' })) fail(i, event, 'a summary part starts empty');
        open!.summary.push({ text: '', open: true, textDone: false });
        break;
      case 'response.reasoning_summary_text.delta':
        summary(event.summary_index).text += event.delta;
        break;
      case 'response.reasoning_summary_text.done': {
        const entry = summary(event.summary_index);
        if (event.text !== entry.text) fail(i, event, 'summary done text differs from the deltas');
        entry.textDone = true;
        break;
      }
      case 'response.reasoning_summary_part.done': {
        const entry = summary(event.summary_index);
        if (!entry.textDone || !isDeepStrictEqual(event.part, { type: 'summary_text', text: entry.text })) fail(i, event, 'summary part done without its text done, or with other text');
        entry.open = false;
        break;
      }
      case 'response.output_item.done': {
        const item = event.item as Json;
        const current = open!;
        if (item.id !== current.id || item.type !== current.type) fail(i, event, 'item differs from the one added');
        if (current.parts.some((p) => p.open) || current.summary.some((s) => s.open)) fail(i, event, 'a part is still open');
        if (current.type === 'message') {
          const content = current.parts.map((p) => (p.type === 'output_text' ? { type: 'output_text', text: p.text, annotations: [], logprobs: [] } : { type: 'refusal', refusal: p.text }));
          if (!isDeepStrictEqual(item.content, content)) fail(i, event, 'message content differs from the deltas');
          if (item.status !== 'completed' && item.status !== 'incomplete') fail(i, event, 'a done message is completed or incomplete');
        }
        if (current.type === 'function_call' && (!current.argsDone || item.arguments !== current.args || item.status !== 'completed' || item.call_id !== current.added.call_id || item.name !== current.added.name)) {
          fail(i, event, 'function call done without arguments.done, with other arguments/call_id/name, or not completed');
        }
        if (current.type === 'custom_tool_call' && (!current.inputDone || item.input !== current.input || item.call_id !== current.added.call_id)) fail(i, event, 'custom tool call done without input.done or with other input');
        if (current.type === 'reasoning') {
          if (!isDeepStrictEqual(item.summary, current.summary.map((s) => ({ type: 'summary_text', text: s.text })))) fail(i, event, 'reasoning summary differs from the deltas');
          if (item.encrypted_content !== null && typeof item.encrypted_content !== 'string') fail(i, event, 'encrypted_content is a string or null');
        }
        items.push(item);
        open = undefined;
        break;
      }
      case 'response.completed':
      case 'response.incomplete': {
        if (open) fail(i, event, `item ${open.id} is still open`);
        const status = event.type === 'response.completed' ? 'completed' : 'incomplete';
        if (event.response.status !== status) fail(i, event, `status ${String(event.response.status)}`);
        if (status === 'incomplete' && !['max_output_tokens', 'content_filter'].includes(event.response.incomplete_details?.reason)) fail(i, event, 'incomplete_details.reason missing');
        if (status === 'completed' && event.response.incomplete_details !== null) fail(i, event, 'completed with incomplete_details');
        if (!isDeepStrictEqual(event.response.output, items)) fail(i, event, 'response.output differs from the done items');
        checkUsage(i, event, event.response.usage);
        terminal = event;
        break;
      }
      case 'error': {
        const nested = event.error as Json | undefined;
        if (typeof event.message !== 'string' || !('code' in event) || !('param' in event)) fail(i, event, 'needs flat code, message, param');
        if (!nested || nested.message !== event.message || nested.code !== event.code || typeof nested.type !== 'string' || !('param' in nested)) fail(i, event, 'needs nested error {type, code, message, param}');
        if (events[i + 1]?.type !== 'response.failed') fail(i, event, 'must be followed by response.failed');
        break;
      }
      case 'response.failed': {
        if (events[i - 1]?.type !== 'error') fail(i, event, 'must follow an error event');
        if (event.response.status !== 'failed' || typeof event.response.error?.code !== 'string' || typeof event.response.error?.message !== 'string') fail(i, event, 'needs status failed and error {code, message}');
        if (!isDeepStrictEqual(event.response.output.slice(0, items.length), items)) fail(i, event, 'output does not start with the done items');
        terminal = event;
        break;
      }
      default:
        fail(i, event, 'unknown event type');
    }
  });
  if (!terminal) throw new Error('the stream has no terminal event');
  return { events, items, terminal, responseId: responseId as string };
}
