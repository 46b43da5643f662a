/** Helpers of the in-process cost scripts (`bench/*-cost.mjs`): calls to `gateway.handle()` timed by CPU. */

/** Reads a gateway response to its end; a non-200 is a broken benchmark, not a figure. */
export async function drain(response) {
  if (response.status !== 200) throw new Error(`status ${response.status}: ${JSON.stringify(response.body)}`);
  if (response.body instanceof Uint8Array || response.type === 'json') return;
  for await (const chunk of response.body) void chunk;
}

/** CPU µs per call of `fn` over `count` calls, one after the other. */
export async function cpuPerCall(count, fn) {
  const start = process.cpuUsage();
  for (let index = 0; index < count; index++) await fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / count;
}

export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The 50 events of the chat stream the cost scripts relay (head, 48 bodies, tail). */
export function chatStreamChunks(stream) {
  return [stream.head, ...Array.from({ length: 48 }, () => stream.body), stream.tail];
}

/**
 * An upstream in the same process that answers at once: `chunks` as an SSE
 * stream when `stream`, else the JSON `bytes`.
 */
export function cannedUpstream({ name, format, server, stream, chunks, bytes }) {
  return {
    name,
    format,
    ...(server ? { server } : {}),
    async send() {
      if (stream) return { status: 200, headers: { 'content-type': 'text/event-stream' }, body: (async function* () { yield* chunks; })() };
      return {
        status: 200,
        headers: { 'content-type': 'application/json', 'content-length': String(bytes.byteLength) },
        body: (async function* () { yield bytes; })(),
      };
    },
  };
}
