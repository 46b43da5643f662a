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
