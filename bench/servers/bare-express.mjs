/**
 * Bare proxy in Express 5 with `express.json()`, as a typical app would
 * write one: the body is parsed by the app's JSON middleware and forwarded
 * as `JSON.stringify(req.body)` with undici; the answer is piped back.
 * No validation, no auth. With `BENCH_RAW=1` there is no body parser: the
 * body's bytes are read and forwarded unchanged (the floor for Express).
 */
import { createServer } from 'node:http';
import { pipeline } from 'node:stream';
import express from 'express';
import { Pool } from 'undici';
import { announce } from './announce.mjs';
import { readBody } from './read-body.mjs';

const pool = new Pool(process.env.STUB, { keepAliveTimeout: 60_000 });
const app = express();
const raw = process.env.BENCH_RAW === '1';
if (!raw) app.use(express.json({ limit: '50mb' }));


app.use(async (req, res) => {
  try {
    const headers = { 'content-type': 'application/json' };
    for (const name of ['authorization', 'x-api-key', 'anthropic-version']) {
      const value = req.get(name);
      if (value) headers[name] = value;
    }
    const upstream = await pool.request({
      method: req.method,
      path: (req.get('x-bench-prefix') ?? '') + req.originalUrl,
      headers,
      body: raw ? await readBody(req) : JSON.stringify(req.body),
    });
    res.status(upstream.statusCode).set('content-type', upstream.headers['content-type']);
    if (upstream.headers['content-length']) res.set('content-length', upstream.headers['content-length']);
    else res.flushHeaders();
    pipeline(upstream.body, res, () => {});
  } catch {
    res.sendStatus(502);
  }
});
const server = createServer({ keepAliveTimeout: 60_000 }, app);
server.headersTimeout = 0;
server.requestTimeout = 0;
announce(server, Number(process.env.PORT ?? 0), () => pool.close());
