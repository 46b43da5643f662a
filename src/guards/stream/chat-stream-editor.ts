/**
 * The stream editor of chat-completions chunks: each choice's `content`
 * deltas go through its own guard chain, the rest held back is sent with
 * the choice's `finish_reason`; a stop ends every choice with
 * `finish_reason: "content_filter"`, then `[DONE]`.
 *
 * @internal
 */
import type { SseEvent } from '../../sse/parse-sse.js';
import type { GuardCallInfo } from '../call-guard.js';
import type { Guard, GuardRecord } from '../guard-types.js';
import { readsChannel } from '../run-guards.js';
import { createStreamTextGuard, type StreamTextGuard } from '../stream-text-guard.js';
import type { StreamEditor } from './guard-event-stream.js';

interface ChunkChoice {
  index?: number;
  delta?: { content?: unknown } & Record<string, unknown>;
  finish_reason?: unknown;
}

/** The chat editor, or undefined when no guard reads the text of answers. */
export function createChatStreamEditor(guards: readonly Guard[], info: GuardCallInfo, onRecords: (records: GuardRecord[]) => void): StreamEditor | undefined {
  if (!guards.some((guard) => readsChannel(guard, 'text'))) return undefined;
  const byChoice = new Map<number, StreamTextGuard>();
  const open = new Set<number>();
  let stopped = false;
  const guardOf = (index: number): StreamTextGuard => {
    let guard = byChoice.get(index);
    if (!guard) {
      guard = createStreamTextGuard({ ...info, guards, channel: 'text' })!;
      byChoice.set(index, guard);
    }
    return guard;
  };
  const report = () => onRecords([...byChoice.values()].flatMap((guard) => guard.records()));

  return {
    get stopped() {
      return stopped;
    },
    async edit(event) {
      if (event.data === '[DONE]' || event.event === 'error') {
        if (event.data === '[DONE]') report();
        return [event];
      }
      const chunk = JSON.parse(event.data) as Record<string, unknown> & { choices?: ChunkChoice[] };
      for (const choice of chunk.choices ?? []) {
        const index = choice.index ?? 0;
        open.add(index);
        const guard = guardOf(index);
        let text = '';
        if (typeof choice.delta?.content === 'string' && choice.delta.content !== '') {
          const step = await guard.push(choice.delta.content);
          if (step.stop) return stop(chunk);
          text = step.text;
        }
        if (choice.finish_reason != null) {
          const rest = await guard.end();
          if (rest.stop) return stop(chunk);
          open.delete(index);
          text += rest.text;
        }
        if (typeof choice.delta?.content === 'string' || text !== '') choice.delta = { ...choice.delta, content: text };
      }
      return [{ data: JSON.stringify(chunk) }];
    },
  };

  /** The filter ending: every open choice ends with `content_filter`, nothing of the chunk that stopped is sent. */
  function stop(chunk: Record<string, unknown>): SseEvent[] {
    stopped = true;
    report();
    const { id, object, created, model } = chunk;
    const choices = [...open].map((index) => ({ index, delta: {}, finish_reason: 'content_filter', logprobs: null }));
    return [{ data: JSON.stringify({ id, object, created, model, choices }) }, { data: '[DONE]' }];
  }
}
