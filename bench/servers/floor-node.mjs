/**
 * The floor (see floor-work.mjs) on plain node:http and undici's `request`.
 * A streamed request (`"stream": true`) is checked the same way, its answer's
 * content type checked (no stream of garbage), then piped with
 * backpressure, one write per upstream read (a slow stream's reads are one
 * event each), watching the last bytes for the terminal event so that a
 * stream cut short ends with an error event; a client leaving destroys the
 * upstream body.
 */
import { createServer } from 'node:http';
import { Pool } from 'undici';
import { announce } from './announce.mjs';
import { checkRequest, isCompleteAnswer } from './floor-work.mjs';
import { readBody } from './read-body.mjs';

const pool = new Pool(process.env.STUB, { keepAliveTimeout: 60_000 });
const CUT = 'data: {"error":{"message":"The upstream ended the stream before it was complete."}}\n\n';

function pipeEvents(upstream, res) {
  if (!String(upstream.headers['content-type']).startsWith('text/event-stream')) {
    upstream.body.destroy();
    res.writeHead(502).end();
    return;
  }
  res.writeHead(upstream.statusCode, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.flushHeaders();
  // The stream's last bytes (across reads: a terminal event may be split between two).
  let tail = '';
  upstream.body.on('data', (chunk) => {
    tail = (tail + chunk.subarray(-32).toString('latin1')).slice(-32);
    if (!res.write(chunk)) {
      upstream.body.pause();
      res.once('drain', () => upstream.body.resume());
    }
  });
  upstream.body.on('end', () => {
    if (!tail.includes('[DONE]') && !tail.includes('message_stop')) res.write(CUT);
    res.end();
  });
  upstream.body.on('error', () => res.destroy());
  res.on('close', () => {
    if (!res.writableFinished) upstream.body.destroy();
  });
}

const server = createServer({ keepAliveTimeout: 60_000 }, async (req, res) => {
  try {
    const raw = await readBody(req);
    const checked = checkRequest(req.url, (name) => req.headers[name], raw);
    if (checked.status) return void res.writeHead(checked.status, { 'content-type': 'application/json' }).end(checked.body);
    const prefix = req.headers['x-bench-prefix'] ?? '';
    const upstream = await pool.request({ method: 'POST', path: prefix + req.url, headers: checked.headers, body: raw });
    if (checked.stream) return pipeEvents(upstream, res);
    const bytes = Buffer.from(await upstream.body.arrayBuffer());
    if (!isCompleteAnswer(bytes)) return void res.writeHead(502).end();
    res.writeHead(upstream.statusCode, { 'content-type': 'application/json', 'content-length': bytes.length });
    res.end(bytes);
  } catch {
    if (!res.headersSent) res.writeHead(502).end();
  }
});
server.headersTimeout = 0;
server.requestTimeout = 0;
announce(server, Number(process.env.PORT ?? 0), () => pool.close());
