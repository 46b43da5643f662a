/**
 * Request bodies the load generators send: a ~1 KB chat request, a ~1 KB
 * messages request, and a ~200 KB conversation with a base64 image (the
 * "large" case: a gateway that re-serialises unchanged bodies pays for it here).
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

/** Deterministic base64 "image" data of about `bytes` characters (a PNG header, then noise). */
function base64Image(bytes) {
  const raw = Buffer.alloc(Math.ceil((bytes * 3) / 4));
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(raw);
  let x = 2463534242;
  for (let i = 8; i < raw.length; i++) {
    x ^= x << 13; x ^= x >>> 17; x ^= x << 5;
    raw[i] = x & 0xff;
  }
  return raw.toString('base64');
}

/** A ~200 KB chat request: a 40-turn conversation (~100 KB) and one base64 image (~100 KB). */
export function largeChat(model) {
  const messages = [{ role: 'system', content: SYSTEM }];
  for (let turn = 0; turn < 20; turn++) {
    messages.push({ role: 'user', content: `Question ${turn}: ${filler(330, turn)}` });
    messages.push({ role: 'assistant', content: `Answer ${turn}: ${filler(330, turn + 5)}` });
  }
  messages.push({
    role: 'user',
    content: [
      { type: 'text', text: 'What does this image show?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${base64Image(100_000)}`, detail: 'auto' } },
    ],
  });
  return JSON.stringify({ model, messages, max_tokens: 256 });
}
