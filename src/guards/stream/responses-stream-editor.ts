/**
 * The stream editor of Responses events: each `output_text` part's deltas
 * go through its own guard chain; the rest held back is sent before the
 * part's `response.output_text.done`, and every event that repeats the
 * text (the part's, the item's and the response's `done` events) carries
 * the guarded text. Events are renumbered (`sequence_number`), as a flush
 * adds one and a dropped empty delta takes one away. A stop ends the
 * stream with `response.incomplete`, `incomplete_details.reason:
 * "content_filter"`, with the items finished before it.
 *
 * Also the finished response's source for the store (`final`): a
 * response is stored as the client got it.
 *
 * @internal
 */
import type { FinishedResponseSource } from '../../responses/hold-until-stored.js';
import type { SseEvent } from '../../sse/parse-sse.js';
import type { GuardCallInfo } from '../call-guard.js';
import type { Guard, GuardRecord } from '../guard-types.js';
import { readsChannel } from '../run-guards.js';
import { createStreamTextGuard, type StreamTextGuard } from '../stream-text-guard.js';
import type { StreamEditor } from './guard-event-stream.js';

type Json = Record<string, unknown>;

const TERMINAL = new Set(['response.completed', 'response.incomplete', 'response.failed']);
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const objects = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isObject) : []);

export interface ResponsesStreamEditor extends StreamEditor, FinishedResponseSource {}

/** The Responses editor, or undefined when no guard reads the text of answers. */
export function createResponsesStreamEditor(guards: readonly Guard[], info: GuardCallInfo, onRecords: (records: GuardRecord[]) => void): ResponsesStreamEditor | undefined {
  if (!guards.some((guard) => readsChannel(guard, 'text'))) return undefined;
  const byPart = new Map<string, { guard: StreamTextGuard; sent: string }>();
  const doneItems: Json[] = [];
  let snapshot: Json | undefined;
  let sequence: number | undefined;
  let stopped = false;
  let final: Json | undefined;
  const report = () => onRecords([...byPart.values()].flatMap((part) => part.guard.records()));

  const partOf = (key: string) => {
    let part = byPart.get(key);
    if (!part) {
      part = { guard: createStreamTextGuard({ ...info, guards, channel: 'text' })!, sent: '' };
      byPart.set(key, part);
    }
    return part;
  };
  /** Writes the guarded text into an item's `output_text` parts. */
  const rewriteItem = (item: Json): void => {
    objects(item.content).forEach((part, index) => {
      const guarded = byPart.get(`${String(item.id)}:${index}`);
      if (part.type === 'output_text' && guarded) part.text = guarded.sent;
    });
  };
  const out = (data: Json): SseEvent => {
    sequence = sequence === undefined ? (typeof data.sequence_number === 'number' ? data.sequence_number : 0) : sequence + 1;
    data.sequence_number = sequence;
    return { event: String(data.type), data: JSON.stringify(data) };
  };
  const stop = (): SseEvent[] => {
    stopped = true;
    report();
    const response: Json = { ...snapshot, status: 'incomplete', incomplete_details: { reason: 'content_filter' }, output: doneItems, completed_at: null };
    final = response;
    return [out({ type: 'response.incomplete', response })];
  };

  return {
    get stopped() {
      return stopped;
    },
    get final() {
      return final;
    },
    async edit(event) {
      const data = JSON.parse(event.data) as Json;
      const type = String(data.type);
      const key = `${String(data.item_id)}:${String(data.content_index)}`;
      if (type === 'response.created' || type === 'response.in_progress') snapshot = isObject(data.response) ? data.response : snapshot;
      if (type === 'response.output_text.delta' && typeof data.delta === 'string') {
        const part = partOf(key);
        const step = await part.guard.push(data.delta);
        if (step.stop) return stop();
        if (step.text === '') return [];
        part.sent += step.text;
        return [out({ ...data, delta: step.text })];
      }
      if (type === 'response.output_text.done') {
        const part = partOf(key);
        const rest = await part.guard.end();
        if (rest.stop) return stop();
        part.sent += rest.text;
        const flushed = rest.text === '' ? [] : [out({ type: 'response.output_text.delta', item_id: data.item_id, output_index: data.output_index, content_index: data.content_index, delta: rest.text, logprobs: [] })];
        return [...flushed, out({ ...data, text: part.sent })];
      }
      if (type === 'response.content_part.done' && isObject(data.part) && data.part.type === 'output_text') {
        const part = byPart.get(key);
        if (part) data.part.text = part.sent;
      }
      if (type === 'response.output_item.done' && isObject(data.item)) {
        rewriteItem(data.item);
        doneItems.push(data.item);
      }
      if (TERMINAL.has(type) && isObject(data.response)) {
        for (const item of objects(data.response.output)) rewriteItem(item);
        final = data.response;
        report();
      }
      return [out(data)];
    },
  };
}
