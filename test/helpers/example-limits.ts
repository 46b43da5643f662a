/**
 * What the example-limits suites share: the keys they configure and one chat
 * call through a gateway built from the examples' environment.
 */
import type { createGateway } from 'modelgate';

export const KEYS = 'sk-ex-one,sk-ex-two';

/** One chat completion through `gateway` with `key`; the gateway's response. */
export function ask(gateway: ReturnType<typeof createGateway>, key: string) {
  return gateway.handle({
    method: 'POST',
    url: '/v1/chat/completions',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] },
    signal: new AbortController().signal,
  });
}
