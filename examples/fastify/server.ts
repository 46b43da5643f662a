/**
 * A Fastify app with routes of its own (`/`, `/health`) and the gateway
 * registered next to them as a plugin. Configuration: see
 * `examples/shared/config-from-env.ts`.
 *
 *   npm run start:fastify
 *   MODELGATE_METRICS=1 OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 npm run start:fastify
 */
import Fastify from 'fastify';
import { fastifyGateway } from 'modelgate/fastify';
import { configFromEnvOrExit } from '../shared/config-from-env.js';
import { handleShutdown } from '../shared/handle-shutdown.js';
import { EXAMPLE_LISTEN_BACKLOG, LISTEN_BACKLOG_NOTE } from '../shared/listen-backlog.js';
import { observabilityFromEnv } from '../shared/observability-from-env.js';
import { formatStartup, listeningURL } from '../shared/print-startup.js';
import { applyServerTimeouts } from '../shared/server-timeouts.js';

const config = configFromEnvOrExit();
// Before the gateway: the OpenTelemetry SDK (when configured) must be registered first.
const observability = await observabilityFromEnv();
const app = Fastify();
const timeouts = applyServerTimeouts(app.server);

// The app's own routes.
app.get('/', async (_request, reply) =>
  reply
    .type('text/html')
    .send(
      '<!doctype html><title>Example app</title><h1>Example app</h1>' +
        '<p>The model gateway is mounted at <code>/v1</code>: <code>POST /v1/chat/completions</code>, <code>POST /v1/messages</code>, <code>GET /v1/models</code>.</p>',
    ),
);
app.get('/health', async () => ({ status: 'ok' }));
const registry = observability.registry;
if (registry) {
  app.get('/metrics', async (_request, reply) => reply.type(registry.contentType).send(await registry.metrics()));
}

// The gateway: serves /v1/* (add `prefix: '/ai'` for /ai/v1/*), reading request bodies itself.
// baseUrlHints: a client whose base URL lacks /v1 (POST /chat/completions) gets a 404 saying to add it.
await app.register(fastifyGateway, { ...config.options, ...observability.options, baseUrlHints: true });

await app.listen({ port: config.port, host: config.host, backlog: EXAMPLE_LISTEN_BACKLOG });
const url = listeningURL(config.host, app.server);
console.log(formatStartup({ app: 'Fastify example', url, key: config.keys[0]!, generatedKey: config.generatedKey, notes: [...config.notes, timeouts, LISTEN_BACKLOG_NOTE, ...observability.notes] }));
handleShutdown(app.server, app.modelgate.gateway, { onClose: async () => { await config.dispose?.(); await observability.shutdown(); } });
