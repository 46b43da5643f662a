/**
 * The stub upstream: a node:http server that answers both wire formats as
 * cheaply as possible, so that it is never what a benchmark measures.
 *
 * Path decides the answer (the body is drained, never parsed):
 *   [/sse/<events>/<intervalMs>]/v1/chat/completions   chat format
 *   [/sse/<events>/<intervalMs>]/v1/messages           messages format
 *   /model/<id>-s<events>/invoke-with-response-stream  Bedrock event stream (fast, never signed-checked)
 *   /v1beta/models/<id>-s<events>:streamGenerateContent  Gemini SSE (fast, the key never checked)
 *   [/b64]/v1/embeddings                               OpenAI embeddings, 16 vectors: floats, or base64 under /b64
 *   /v1beta/models/<id>:batchEmbedContents             Gemini embeddings, 16 vectors
 * Without the `/sse/...` prefix the answer is one JSON body. With it, an SSE
 * stream of `<events>` content events (plus the format's opening and closing
 * events); interval 0 writes them as fast as the socket takes them, in
 * batches of 16 events per write (a fast real upstream's packets also carry
 * several events), otherwise one event every `<intervalMs>` ms.
 *
 * `GET /stats/fast-streams` answers `{ open: [{ id, events, written }] }`: the bytes
 * each open fast stream has written so far (the stub writes only when the
 * socket takes more, so a stream whose reader stopped stops growing).
 *
 * Run as a process: `PORT=0 node bench/servers/stub-upstream.mjs` (prints `PORT <n>`).
 */
import { createServer } from 'node:http';
import {
  CHAT_JSON, CHAT_STREAM, EMBEDDINGS_BASE64_JSON, EMBEDDINGS_JSON, GEMINI_EMBEDDINGS_JSON, GEMINI_STREAM, MESSAGES_JSON, MESSAGES_STREAM,
} from '../lib/wire-bodies.mjs';
import { announce } from './announce.mjs';
import { BEDROCK_STREAM, BEDROCK_STREAM_HEAD } from './bedrock-frames.mjs';

const BATCH = 16;
const SSE_HEAD = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-request-id': 'req_stub' };
/** Whole JSON answers by path (the embeddings answers). */
const JSON_ANSWERS = new Map([
  ['/v1/embeddings', EMBEDDINGS_JSON],
  ['/b64/v1/embeddings', EMBEDDINGS_BASE64_JSON],
]);
const GEMINI_EMBED = /^\/v1beta\/models\/[^/:]+:batchEmbedContents$/;

const batches = new Map([CHAT_STREAM, MESSAGES_STREAM, BEDROCK_STREAM, GEMINI_STREAM].map((s) => [s, Buffer.concat(Array(BATCH).fill(s.body))]));

function parsePath(url) {
  const bedrock = /^\/model\/[^/]*-s(\d+)\/invoke-with-response-stream$/.exec(url);
  if (bedrock) return { format: 'bedrock', stream: true, events: Number(bedrock[1]), intervalMs: 0 };
  const gemini = /^\/v1beta\/models\/[^/:]*-s(\d+):streamGenerateContent(?:\?|$)/.exec(url);
  if (gemini) return { format: 'gemini', stream: true, events: Number(gemini[1]), intervalMs: 0 };
  let rest = url;
  let events = 0;
  let intervalMs = 0;
  const prefix = /^\/sse\/(\d+)\/(\d+)(\/.*)$/.exec(url);
  if (prefix) {
    events = Number(prefix[1]);
    intervalMs = Number(prefix[2]);
    rest = prefix[3];
  }
  const q = rest.indexOf('?');
  if (q !== -1) rest = rest.slice(0, q);
  const format = rest.endsWith('/chat/completions') ? 'chat' : rest.endsWith('/messages') ? 'messages' : undefined;
  return { format, stream: prefix !== null, events, intervalMs };
}

/** Open fast streams and the bytes each has written (for `/stats/fast-streams`). */
const openFast = new Map();
let nextId = 0;

function fastStream(res, parts, events) {
  let left = events;
  const batch = batches.get(parts);
  const id = nextId++;
  const stat = { id, events, written: parts.head.length };
  openFast.set(id, stat);
  res.once('close', () => openFast.delete(id));
  res.write(parts.head);
  const pump = () => {
    while (left > 0 && !res.destroyed) {
      const n = Math.min(BATCH, left);
      left -= n;
      const chunk = n === BATCH ? batch : batch.subarray(0, n * parts.body.length);
      stat.written += chunk.length;
      if (!res.write(chunk)) {
        res.once('drain', pump);
        return;
      }
    }
    if (!res.destroyed) res.end(parts.tail);
  };
  // Let the head leave on its own, like a real upstream's first event.
  setImmediate(pump);
}

function slowStream(res, parts, events, intervalMs) {
  let left = events;
  res.write(parts.head);
  const timer = setInterval(() => {
    if (res.destroyed) return clearInterval(timer);
    if (left-- > 0) res.write(parts.body);
    else {
      clearInterval(timer);
      res.end(parts.tail);
    }
  }, intervalMs);
  res.once('close', () => clearInterval(timer));
}

function answer(req, res) {
  if (req.url === '/stats/fast-streams') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ open: [...openFast.values()] }));
    return;
  }
  const fixed = JSON_ANSWERS.get(req.url) ?? (GEMINI_EMBED.test(req.url ?? '') ? GEMINI_EMBEDDINGS_JSON : undefined);
  if (fixed !== undefined) {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': fixed.length, 'x-request-id': 'req_stub' });
    res.end(fixed);
    return;
  }
  const { format, stream, events, intervalMs } = parsePath(req.url ?? '/');
  if (format === undefined) {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"error":{"message":"stub: unknown path","type":"invalid_request_error","param":null,"code":null}}');
    return;
  }
  if (!stream) {
    const body = format === 'chat' ? CHAT_JSON : MESSAGES_JSON;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length, 'x-request-id': 'req_stub' });
    res.end(body);
    return;
  }
  res.writeHead(200, format === 'bedrock' ? BEDROCK_STREAM_HEAD : SSE_HEAD);
  const parts = { chat: CHAT_STREAM, messages: MESSAGES_STREAM, bedrock: BEDROCK_STREAM, gemini: GEMINI_STREAM }[format];
  if (intervalMs === 0) fastStream(res, parts, events);
  else slowStream(res, parts, events, intervalMs);
}

const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
  req.on('data', () => {});
  req.on('end', () => answer(req, res));
});
server.headersTimeout = 0;
server.requestTimeout = 0;
announce(server, Number(process.env.PORT ?? 0));
