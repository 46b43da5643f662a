/**
 * Output guards on a stream as the client gets it (after any translation,
 * and for a cache replay too): the client-format SSE bytes are parsed
 * back into events, a format's editor rewrites their text deltas through
 * the guards (held back, see `stream-text-guard.ts`), and the events are
 * written again. On a stop the editor's filter ending is sent, nothing
 * after it, and the source is returned, which aborts the upstream as a
 * client leaving does (its usage so far is still reported).
 *
 * Comments (the relay's `: ping` keep-alive while the upstream is silent)
 * pass through unchanged and in order, so a guarded stream still shows
 * life to the client and to proxies that cut idle connections.
 *
 * Only streams with output guards pass through here: the rest are relayed
 * as before, at no cost.
 *
 * @internal
 */
import { createParser } from 'eventsource-parser';
import type { SseEvent } from '../../sse/parse-sse.js';

/** Rewrites one format's events; `stopped` once a guard stopped the answer (the last events it gave end the stream). */
export interface StreamEditor {
  edit(event: SseEvent): Promise<SseEvent[]>;
  readonly stopped: boolean;
}

/** What the parser read, in the order it came: an event to edit or a comment to pass on. */
type ParsedItem = { kind: 'event'; event: SseEvent } | { kind: 'comment'; text: string };

const encoder = new TextEncoder();

function encodeEvent(event: SseEvent): string {
  // Every event here is one JSON line or a sentinel: no line breaks to split.
  return `${event.event === undefined ? '' : `event: ${event.event}\n`}data: ${event.data}\n\n`;
}

/** `source` (client-format SSE bytes) with its events passed through `editor`. */
export async function* guardEventStream(source: AsyncIterable<Uint8Array>, editor: StreamEditor): AsyncGenerator<Uint8Array, void, undefined> {
  const iterator = source[Symbol.asyncIterator]();
  const parsed: ParsedItem[] = [];
  const parser = createParser({
    onEvent: (message) => {
      const event: SseEvent = { data: message.data };
      if (message.event !== undefined) event.event = message.event;
      parsed.push({ kind: 'event', event });
    },
    // The parser strips the colon (and one space); a comment never holds a line break.
    onComment: (text) => parsed.push({ kind: 'comment', text }),
  });
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      parser.feed(decoder.decode(next.value, { stream: true }));
      let out = '';
      for (const item of parsed.splice(0)) {
        if (item.kind === 'comment') {
          out += `: ${item.text}\n\n`;
          continue;
        }
        for (const edited of await editor.edit(item.event)) out += encodeEvent(edited);
        if (editor.stopped) break;
      }
      if (out !== '') yield encoder.encode(out);
      if (editor.stopped) return;
    }
  } finally {
    // A stop, or the client gone: the relay aborts (or drains) the upstream and reports the usage read so far.
    // Not awaited: the relay's return settles after a read still pending on a silent upstream.
    iterator.return?.()?.catch(() => {});
  }
}
