/**
 * The stream editor of messages events: each text block's `text_delta`s
 * go through its own guard chain, the rest held back is sent before the
 * block's `content_block_stop`; a stop closes the open block and ends the
 * message with `stop_reason: "refusal"`.
 *
 * @internal
 */
import type { SseEvent } from '../../sse/parse-sse.js';
import type { GuardCallInfo } from '../call-guard.js';
import type { Guard, GuardRecord } from '../guard-types.js';
import { readsChannel } from '../run-guards.js';
import { createStreamTextGuard, type StreamTextGuard } from '../stream-text-guard.js';
import type { StreamEditor } from './guard-event-stream.js';

interface MessagesEvent {
  type?: string;
  index?: number;
  delta?: { type?: string; text?: unknown };
}

const eventOf = (type: string, data: Record<string, unknown>): SseEvent => ({ event: type, data: JSON.stringify({ type, ...data }) });

/** The messages editor, or undefined when no guard reads the text of answers. */
export function createMessagesStreamEditor(guards: readonly Guard[], info: GuardCallInfo, onRecords: (records: GuardRecord[]) => void): StreamEditor | undefined {
  if (!guards.some((guard) => readsChannel(guard, 'text'))) return undefined;
  const byBlock = new Map<number, StreamTextGuard>();
  const open = new Set<number>();
  let stopped = false;
  const report = () => onRecords([...byBlock.values()].flatMap((guard) => guard.records()));

  const stop = (): SseEvent[] => {
    stopped = true;
    report();
    return [
      ...[...open].map((index) => eventOf('content_block_stop', { index })),
      eventOf('message_delta', { delta: { stop_reason: 'refusal', stop_sequence: null }, usage: { output_tokens: 0 } }),
      eventOf('message_stop', {}),
    ];
  };

  return {
    get stopped() {
      return stopped;
    },
    async edit(event) {
      const parsed = JSON.parse(event.data) as MessagesEvent;
      const index = parsed.index ?? 0;
      switch (parsed.type) {
        case 'content_block_start':
          open.add(index);
          return [event];
        case 'content_block_delta': {
          if (parsed.delta?.type !== 'text_delta' || typeof parsed.delta.text !== 'string') return [event];
          let guard = byBlock.get(index);
          if (!guard) {
            guard = createStreamTextGuard({ ...info, guards, channel: 'text' })!;
            byBlock.set(index, guard);
          }
          const step = await guard.push(parsed.delta.text);
          if (step.stop) return stop();
          return step.text === '' ? [] : [eventOf('content_block_delta', { index, delta: { type: 'text_delta', text: step.text } })];
        }
        case 'content_block_stop': {
          open.delete(index);
          const guard = byBlock.get(index);
          if (!guard) return [event];
          const rest = await guard.end();
          if (rest.stop) {
            open.add(index);
            return stop();
          }
          return rest.text === '' ? [event] : [eventOf('content_block_delta', { index, delta: { type: 'text_delta', text: rest.text } }), event];
        }
        case 'message_stop':
          report();
          return [event];
        default:
          return [event];
      }
    },
  };
}
