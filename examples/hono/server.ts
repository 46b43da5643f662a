/**
 * A Hono app on Node (`@hono/node-server`) with routes of its own (`/`,
 * `/health`) and the gateway's fetch handler mounted next to them.
 * Configuration: see `examples/shared/config-from-env.ts`.
 *
 *   npm run start:hono
 *   MODELGATE_METRICS=1 OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 npm run start:hono
 */
import type { Server } from 'node:http';
import { createAdaptorServer } from '@hono/node-server';
import { Hono } from 'hono';
import { createFetchHandler } from 'modelgate/fetch';
import { configFromEnvOrExit } from '../shared/config-from-env.js';
import { handleShutdown } from '../shared/handle-shutdown.js';
import { EXAMPLE_LISTEN_BACKLOG, LISTEN_BACKLOG_NOTE } from '../shared/listen-backlog.js';
import { observabilityFromEnv } from '../shared/observability-from-env.js';
import { formatStartup, listeningURL } from '../shared/print-startup.js';
import { applyServerTimeouts } from '../shared/server-timeouts.js';

const config = configFromEnvOrExit();
// Before the gateway: the OpenTelemetry SDK (when configured) must be registered first.
const observability = await observabilityFromEnv();
const app = new Hono();

// The app's own routes.
app.get('/', (c) =>
  c.html(
    '<!doctype html><title>Example app</title><h1>Example app</h1>' +
      '<p>The model gateway is mounted at <code>/v1</code>: <code>POST /v1/chat/completions</code>, <code>POST /v1/messages</code>, <code>GET /v1/models</code>.</p>',
  ),
);
app.get('/health', (c) => c.json({ status: 'ok' }));
const registry = observability.registry;
if (registry) {
  app.get('/metrics', async (c) => c.text(await registry.metrics(), 200, { 'content-type': registry.contentType }));
}

// The gateway: a (Request) => Promise<Response> handler for every /v1 path.
const gateway = createFetchHandler({ ...config.options, ...observability.options });
app.all('/v1/*', (c) => gateway(c.req.raw));

// `serve()` without its `listen`, which takes no backlog.
const server = createAdaptorServer({ fetch: app.fetch, hostname: config.host }) as Server;
server.listen({ port: config.port, host: config.host, backlog: EXAMPLE_LISTEN_BACKLOG }, () => {
  const url = listeningURL(config.host, server);
  console.log(formatStartup({ app: 'Hono example', url, key: config.keys[0]!, generatedKey: config.generatedKey, notes: [...config.notes, timeouts, LISTEN_BACKLOG_NOTE, ...observability.notes] }));
});
const timeouts = applyServerTimeouts(server);
handleShutdown(server, gateway.gateway, { onClose: async () => { await config.dispose?.(); await observability.shutdown(); } });
