/**
 * A Hono app on Node (`@hono/node-server`) with routes of its own (`/`,
 * `/health`) and the gateway's fetch handler mounted next to them.
 * Configuration: see `examples/shared/config-from-env.ts`.
 *
 *   npm run start:hono
 */
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createFetchHandler } from 'modelgate/fetch';
import { configFromEnv } from '../shared/config-from-env.js';
import { handleShutdown } from '../shared/handle-shutdown.js';
import { formatStartup } from '../shared/print-startup.js';

const config = configFromEnv();
const app = new Hono();

// The app's own routes.
app.get('/', (c) =>
  c.html(
    '<!doctype html><title>Example app</title><h1>Example app</h1>' +
      '<p>The model gateway is mounted at <code>/v1</code>: <code>POST /v1/chat/completions</code>, <code>POST /v1/messages</code>, <code>GET /v1/models</code>.</p>',
  ),
);
app.get('/health', (c) => c.json({ status: 'ok' }));

// The gateway: a (Request) => Promise<Response> handler for every /v1 path.
const gateway = createFetchHandler(config.options);
app.all('/v1/*', (c) => gateway(c.req.raw));

const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${info.port}`;
  console.log(formatStartup({ app: 'Hono example', url, key: config.keys[0]!, generatedKey: config.generatedKey, notes: config.notes }));
}) as Server;
handleShutdown(server, gateway.gateway);
