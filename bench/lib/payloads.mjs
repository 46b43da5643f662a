/**
 * Request bodies the load generators send: a ~1 KB chat request, the same
 * conversation as a messages request and as a Responses request, and an
 * embeddings request of 16 passages.
 */

const SYSTEM = 'You are a helpful assistant for a benchmark. Answer briefly and precisely; do not invent facts.';

function filler(words, seed) {
  const vocabulary = ['gateway', 'latency', 'stream', 'token', 'model', 'request', 'header', 'upstream', 'socket', 'budget', 'event', 'cache'];
  const out = [];
  for (let i = 0; i < words; i++) out.push(vocabulary[(i * 7 + seed) % vocabulary.length]);
  return out.join(' ');
}

/** A ~1 KB chat-completions request for `model`. */
export function smallChat(model, { stream = false } = {}) {
  return JSON.stringify({
    model,
    messages: [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: `Summarise this in one line: ${filler(90, 1)}` },
      { role: 'assistant', content: 'Sure: it is about a gateway relaying model calls.' },
      { role: 'user', content: `And now this one: ${filler(30, 2)}` },
    ],
    max_tokens: 256,
    ...(stream ? { stream: true } : {}),
  });
}

/** A ~1 KB messages request for `model`. */
export function smallMessages(model, { stream = false } = {}) {
  return JSON.stringify({
    model,
    max_tokens: 256,
    system: SYSTEM,
    messages: [
      { role: 'user', content: `Summarise this in one line: ${filler(90, 1)}` },
      { role: 'assistant', content: 'Sure: it is about a gateway relaying model calls.' },
      { role: 'user', content: `And now this one: ${filler(30, 2)}` },
    ],
    ...(stream ? { stream: true } : {}),
  });
}

/** The same ~1 KB conversation as a Responses request for `model` (`instructions` + `input` items). */
export function smallResponses(model, { stream = false } = {}) {
  return JSON.stringify({
    model,
    instructions: SYSTEM,
    input: [
      { role: 'user', content: `Summarise this in one line: ${filler(90, 1)}` },
      { role: 'assistant', content: 'Sure: it is about a gateway relaying model calls.' },
      { role: 'user', content: `And now this one: ${filler(30, 2)}` },
    ],
    max_output_tokens: 256,
    ...(stream ? { stream: true } : {}),
  });
}

/** Passages per embeddings request, and the vector length asked for. */
export const EMBEDDING_INPUTS = 16;
export const EMBEDDING_DIMENSIONS = 768;

/** An embeddings request for `model`: 16 passages of ~100 tokens (95 words each), 768 dimensions, floats or base64. */
export function embeddingsRequest(model, { encoding = 'float' } = {}) {
  return JSON.stringify({
    model,
    input: Array.from({ length: EMBEDDING_INPUTS }, (_, i) => `Passage ${i}: ${filler(95, i)}`),
    dimensions: EMBEDDING_DIMENSIONS,
    encoding_format: encoding,
  });
}
