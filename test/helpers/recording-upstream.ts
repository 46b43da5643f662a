/**
 * Wraps an upstream (a paced simulator face, say) and records, per call,
 * when its body ended and whether it ran to the end or was stopped, and
 * when the call's abort signal fired: what the gateway did to its upstream,
 * seen from the upstream's side.
 */
import { performance } from 'node:perf_hooks';
import type { Upstream, UpstreamCall, UpstreamResponse } from 'modelgate';

export interface RecordedCall {
  operation: UpstreamCall['operation'];
  startedAt: number;
  /** When the body iteration finished (completed or stopped). */
  endedAt?: number;
  /** True when the body carried its terminating event (`message_stop` or `[DONE]`): the answer was written in full. */
  completed: boolean;
  /** When the call's signal aborted. */
  abortedAt?: number;
}

export interface RecordingUpstream extends Upstream {
  readonly calls: RecordedCall[];
}

/** A stream ends early without error when its upstream is stopped, so completion is read from the last event. */
const TERMINATOR = /event: message_stop|data: \[DONE\]/;

async function* watch(body: AsyncIterable<Uint8Array>, record: RecordedCall): AsyncGenerator<Uint8Array, void, undefined> {
  let last: Uint8Array | undefined;
  try {
    for await (const chunk of body) {
      last = chunk;
      yield chunk;
    }
    record.completed = last !== undefined && TERMINATOR.test(Buffer.from(last).toString('utf8'));
  } finally {
    record.endedAt = performance.now();
  }
}

/** Records every call sent to `upstream`. */
export function recordUpstream(upstream: Upstream): RecordingUpstream {
  const calls: RecordedCall[] = [];
  return {
    name: upstream.name,
    format: upstream.format,
    calls,
    async send(call): Promise<UpstreamResponse> {
      const record: RecordedCall = { operation: call.operation, startedAt: performance.now(), completed: false };
      calls.push(record);
      call.signal.addEventListener('abort', () => {
        record.abortedAt = performance.now();
      }, { once: true });
      const response = await upstream.send(call);
      return { ...response, body: watch(response.body, record) };
    },
  };
}
