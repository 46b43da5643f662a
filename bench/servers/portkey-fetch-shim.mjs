/**
 * Preloaded into Portkey's process for the streamed cases only (`--import`).
 *
 * Why: Portkey 1.15.2 wraps a streamed upstream answer as
 * `new Response(stream, upstreamResponse)`; under @hono/node-server's
 * lightweight global `Response` that shares the upstream response's
 * `Headers`, which Node's fetch made immutable, so Portkey's next
 * `headers.append(...)` throws `TypeError: immutable` and every streamed
 * request answers 500. Giving fetch's answers mutable headers (a copy of the
 * head; the body stream is not touched) lets the stream through.
 */
const nativeFetch = globalThis.fetch;
const NativeResponse = globalThis.Response;
globalThis.fetch = async function fetchWithMutableHeaders(...args) {
  const response = await nativeFetch(...args);
  return new NativeResponse(response.body, { status: response.status, statusText: response.statusText, headers: response.headers });
};
