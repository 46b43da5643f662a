/**
 * Bare proxy on plain node:http and undici's `request` (the floor a
 * gateway on node:http can reach): reads the body bytes, forwards them
 * unchanged to the stub (path prefix from `x-bench-prefix`), pipes the
 * answer back. No validation, no auth, no parsing.
 */
import { createServer } from 'node:http';
import { pipeline } from 'node:stream';
import { Pool } from 'undici';
import { announce } from './announce.mjs';

const stub = process.env.STUB;
const pool = new Pool(stub, { keepAliveTimeout: 60_000 });

function upstreamHeaders(headers) {
  const out = { 'content-type': 'application/json' };
  if (headers.authorization) out.authorization = headers.authorization;
  if (headers['x-api-key']) out['x-api-key'] = headers['x-api-key'];
  if (headers['anthropic-version']) out['anthropic-version'] = headers['anthropic-version'];
  return out;
}

const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', async () => {
    try {
      const upstream = await pool.request({
        method: req.method,
        path: (req.headers['x-bench-prefix'] ?? '') + req.url,
        headers: upstreamHeaders(req.headers),
        body: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks),
      });
      const head = { 'content-type': upstream.headers['content-type'] };
      if (upstream.headers['content-length']) head['content-length'] = upstream.headers['content-length'];
      res.writeHead(upstream.statusCode, head);
      if (!upstream.headers['content-length']) res.flushHeaders();
      pipeline(upstream.body, res, () => {});
    } catch {
      res.writeHead(502).end();
    }
  });
});
server.headersTimeout = 0;
server.requestTimeout = 0;
announce(server, Number(process.env.PORT ?? 0), () => pool.close());
