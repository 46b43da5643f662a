/**
 * The bytes the stub upstream answers with, built once: non-streamed JSON
 * answers and SSE events in both wire formats (chat completions and
 * messages), shaped like the recorded real streams (PROTOCOLS B.4, A.6),
 * and embeddings answers (OpenAI's list, Gemini's `batchEmbedContents`).
 */
import { EMBEDDING_DIMENSIONS, EMBEDDING_INPUTS } from './payloads.mjs';

const CREATED = 1_700_000_000;

/** Events of the stub stream no reader finishes (the slow-readers scenario): ~130 MB. */
export const ENDLESS_EVENTS = 1_000_000;
/** The same stream for the clients that never read: one event more, so the stub's statistics tell them apart. */
export const ENDLESS_EVENTS_UNREAD = ENDLESS_EVENTS + 1;

/** Non-streamed chat-completions answer (about 450 bytes). */
export const CHAT_JSON = Buffer.from(JSON.stringify({
  id: 'chatcmpl-bench0000000000000000000000',
  object: 'chat.completion',
  created: CREATED,
  model: 'gpt-bench',
  choices: [{
    index: 0,
    message: { role: 'assistant', content: 'A short answer of about twenty tokens, like a typical small reply from a model.', refusal: null },
    logprobs: null,
    finish_reason: 'stop',
  }],
  usage: { prompt_tokens: 210, completion_tokens: 20, total_tokens: 230 },
  system_fingerprint: 'fp_bench',
}));

/** Non-streamed messages answer (about 450 bytes). */
export const MESSAGES_JSON = Buffer.from(JSON.stringify({
  id: 'msg_bench000000000000000000',
  type: 'message',
  role: 'assistant',
  model: 'vendora-sonnet-4-6',
  content: [{ type: 'text', text: 'A short answer of about twenty tokens, like a typical small reply from a model.' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 210, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 20 },
}));

const chatChunk = (delta, finish = null) => `data: ${JSON.stringify({
  id: 'chatcmpl-bench0000000000000000000000',
  object: 'chat.completion.chunk',
  created: CREATED,
  model: 'gpt-bench',
  system_fingerprint: 'fp_bench',
  choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
})}\n\n`;

const namedEvent = (data) => `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * One stream's parts: `head` (sent first), `body` (repeated for the middle
 * events), `tail` (sent last). `total(n)` is the number of SSE events a
 * stream with `n` body events carries, as a client counts blank-line ends.
 */
export const CHAT_STREAM = {
  head: Buffer.from(chatChunk({ role: 'assistant', content: '', refusal: null })),
  body: Buffer.from(chatChunk({ content: ' token' })),
  tail: Buffer.from(chatChunk({}, 'stop') + 'data: [DONE]\n\n'),
  endMarker: '[DONE]',
};

export const MESSAGES_STREAM = {
  head: Buffer.from(
    namedEvent({
      type: 'message_start',
      message: {
        id: 'msg_bench000000000000000000', type: 'message', role: 'assistant', model: 'vendora-haiku-4-5', content: [],
        stop_reason: null, stop_sequence: null,
        usage: { input_tokens: 210, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 },
      },
    }) + namedEvent({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
  ),
  body: Buffer.from(namedEvent({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: ' token' } })),
  tail: Buffer.from(
    namedEvent({ type: 'content_block_stop', index: 0 })
    + namedEvent({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 5000 } })
    + namedEvent({ type: 'message_stop' }),
  ),
  endMarker: 'message_stop',
};

const geminiChunk = (parts, extra = {}) => `data: ${JSON.stringify({
  candidates: [{ content: { parts, role: 'model' }, index: 0, ...extra }],
  usageMetadata: { promptTokenCount: 210, totalTokenCount: 210 },
  modelVersion: 'gemini-2.5-flash',
  responseId: 'bench-gemini-0000000000',
})}\r\n\r\n`;

/** A Gemini `streamGenerateContent?alt=sse` stream (CRLF line ends, as Google sends them), translated by the gateway into chat chunks. */
export const GEMINI_STREAM = {
  head: Buffer.from(geminiChunk([{ text: 'A' }])),
  body: Buffer.from(geminiChunk([{ text: ' token' }])),
  tail: Buffer.from(geminiChunk([{ text: '.' }], { finishReason: 'STOP' })),
  endMarker: '[DONE]',
};

/**
 * The event a Responses stream ends with. It carries the whole Response
 * (all the streamed text), so the stream client looks for it at the start
 * of the last event, not in the last bytes.
 */
export const RESPONSES_STREAM_END = 'event: response.completed';

/**
 * Embedding vectors of the stub: one per passage of the bench request
 * (payloads.mjs), deterministic values with the ~10 significant digits
 * OpenAI's JSON carries.
 */
const EMBEDDING_VECTORS = Array.from({ length: EMBEDDING_INPUTS }, (_, row) =>
  Array.from({ length: EMBEDDING_DIMENSIONS }, (_, i) => Number((Math.sin(row * 131 + i * 0.37) * 0.06).toFixed(10))));

const float32Base64 = (vector) => Buffer.from(new Float32Array(vector).buffer).toString('base64');
const embeddingsList = (encode) => Buffer.from(JSON.stringify({
  object: 'list',
  data: EMBEDDING_VECTORS.map((vector, index) => ({ object: 'embedding', index, embedding: encode(vector) })),
  model: 'text-embedding-3-small',
  usage: { prompt_tokens: 1600, total_tokens: 1600 },
}));

/** An OpenAI embeddings answer for the bench request, floats (about 165 KB) and base64 (about 66 KB). */
export const EMBEDDINGS_JSON = embeddingsList((vector) => vector);
export const EMBEDDINGS_BASE64_JSON = embeddingsList(float32Base64);

/** Gemini's `batchEmbedContents` answer for the bench request (always floats: the gateway encodes base64 itself). */
export const GEMINI_EMBEDDINGS_JSON = Buffer.from(JSON.stringify({ embeddings: EMBEDDING_VECTORS.map((values) => ({ values })) }));
