/**
 * Bounded reads of upstream bodies: error bodies are read to learn the
 * vendor's message, failed attempts are discarded to free their socket.
 */

/** Default cap of {@link readBody}: 64 KiB. */
export const DEFAULT_BODY_LIMIT = 64 * 1024;

/**
 * Reads at most `limit` bytes (default 64 KiB) of `body`. Stopping early
 * ends the iteration, which destroys an undici body (its socket is closed
 * rather than reused, the price of not reading an unbounded body).
 */
export async function readBody(
  body: AsyncIterable<Uint8Array>,
  limit = DEFAULT_BODY_LIMIT,
): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of body) {
    const room = limit - size;
    if (chunk.byteLength > room) {
      chunks.push(chunk.subarray(0, room));
      size = limit;
      truncated = true;
      break;
    }
    chunks.push(chunk);
    size += chunk.byteLength;
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { bytes, truncated };
}

/**
 * Throws `body` away so its connection is released: reads up to `limit`
 * bytes (small error bodies, socket reused) then destroys the rest. Never
 * rejects.
 */
export async function discardBody(body: AsyncIterable<Uint8Array>, limit = DEFAULT_BODY_LIMIT): Promise<void> {
  try {
    await readBody(body, limit);
  } catch {
    // A body that fails while being thrown away has released its socket anyway.
  }
}
