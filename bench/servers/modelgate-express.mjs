/**
 * modelgate in Express 5 (`expressGateway` from `dist/express.js`). By
 * default mounted after the app's `express.json()`, like the bare Express
 * proxy it is compared with, so it receives a parsed body; with
 * `BENCH_RAW=1` mounted before it, so it reads the bytes itself; with
 * `BENCH_KEEP_RAW=1` after `express.json({ verify: keepRawBody })`, so it
 * gets the parsed body and the bytes (the README's advice).
 */
import { createServer } from 'node:http';
import express from 'express';
import { createGateway, expressGateway, keepRawBody } from '../../dist/express.js';
import { announce } from './announce.mjs';
import { gatewayOptions } from './modelgate-options.mjs';

const gateway = createGateway(gatewayOptions());
const app = express();
if (process.env.BENCH_RAW === '1') {
  app.use(expressGateway(gateway));
  app.use(express.json({ limit: '50mb' }));
} else if (process.env.BENCH_KEEP_RAW === '1') {
  app.use(express.json({ limit: '50mb', verify: keepRawBody }));
  app.use(expressGateway(gateway));
} else {
  app.use(express.json({ limit: '50mb' }));
  app.use(expressGateway(gateway));
}
const server = createServer({ keepAliveTimeout: 60_000 }, app);
server.headersTimeout = 0;
server.requestTimeout = 0;
announce(server, Number(process.env.PORT ?? 0), () => gateway.close());
