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
  /** True when the body was read to its end. */
  completed: boolean;
  /** When the call's signal aborted. */
  abortedAt?: number;
}

export interface RecordingUpstream extends Upstream {
  readonly calls: RecordedCall[];
}

async function* watch(body: AsyncIterable<Uint8Array>, record: RecordedCall): AsyncGenerator<Uint8Array, void, undefined> {
  try {
    for await (const chunk of body) yield chunk;
    record.completed = true;
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
