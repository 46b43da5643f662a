/** Counts the model calls an upstream receives. */
import type { Upstream } from 'modelgate';

export interface CountingUpstream extends Upstream {
  /** Model calls sent so far. */
  calls: number;
}

export function countCalls(upstream: Upstream): CountingUpstream {
  const counted: CountingUpstream = {
    name: upstream.name,
    format: upstream.format,
    calls: 0,
    callerHeaderPrefixes: upstream.callerHeaderPrefixes,
    send(call) {
      if (call.operation === 'chat.completions' || call.operation === 'messages') counted.calls++;
      return upstream.send(call);
    },
  };
  return counted;
}
