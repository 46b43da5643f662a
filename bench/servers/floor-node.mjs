/** The floor (see floor-work.mjs) on plain node:http and undici's `request`. */
import { createServer } from 'node:http';
import { Pool } from 'undici';
import { announce } from './announce.mjs';
import { checkRequest, isCompleteAnswer } from './floor-work.mjs';
import { readBody } from './read-body.mjs';

const pool = new Pool(process.env.STUB, { keepAliveTimeout: 60_000 });

const server = createServer({ keepAliveTimeout: 60_000 }, async (req, res) => {
  try {
    const raw = await readBody(req);
    const checked = checkRequest(req.url, (name) => req.headers[name], raw);
    if (checked.status) return void res.writeHead(checked.status, { 'content-type': 'application/json' }).end(checked.body);
    const prefix = req.headers['x-bench-prefix'] ?? '';
    const upstream = await pool.request({ method: 'POST', path: prefix + req.url, headers: checked.headers, body: raw });
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
