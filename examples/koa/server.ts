/**
 * A Koa app with routes of its own (`/`, `/health`, via `@koa/router`) and
 * the gateway mounted next to them. Configuration: see
 * `examples/shared/config-from-env.ts`.
 *
 *   npm run start:koa
 *   MODELGATE_METRICS=1 OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 npm run start:koa
 */
import Router from '@koa/router';
import Koa from 'koa';
import { koaBaseUrlHints, koaGateway } from 'modelgate/koa';
import { configFromEnvOrExit } from '../shared/config-from-env.js';
import { handleShutdown } from '../shared/handle-shutdown.js';
import { EXAMPLE_LISTEN_BACKLOG, LISTEN_BACKLOG_NOTE } from '../shared/listen-backlog.js';
import { observabilityFromEnv } from '../shared/observability-from-env.js';
import { formatStartup, listeningURL } from '../shared/print-startup.js';
import { applyServerTimeouts } from '../shared/server-timeouts.js';

const config = configFromEnvOrExit();
// Before the gateway: the OpenTelemetry SDK (when configured) must be registered first.
const observability = await observabilityFromEnv();
const app = new Koa();

// Like Koa's default handler, skip errors marked `expose` (client errors, and
// clients that leave in the middle of a streamed answer: routine for a gateway).
app.on('error', (error: Error & { expose?: boolean }) => {
  if (!error.expose) console.error(error);
});

// The app's own routes.
const router = new Router();
router.get('/', (ctx) => {
  ctx.type = 'html';
  ctx.body =
    '<!doctype html><title>Example app</title><h1>Example app</h1>' +
    '<p>The model gateway is mounted at <code>/v1</code>: <code>POST /v1/chat/completions</code>, <code>POST /v1/messages</code>, <code>GET /v1/models</code>.</p>';
});
router.get('/health', (ctx) => {
  ctx.body = { status: 'ok' };
});
const registry = observability.registry;
if (registry) {
  router.get('/metrics', async (ctx) => {
    ctx.type = registry.contentType;
    ctx.body = await registry.metrics();
  });
}
app.use(router.routes());
app.use(router.allowedMethods());

// The gateway: serves /v1/* and passes every other path on.
const gateway = koaGateway({ ...config.options, ...observability.options });
app.use(gateway);
// A client whose base URL lacks /v1 (POST /chat/completions) gets a 404 saying to add it
// (only where no route of the app answered).
app.use(koaBaseUrlHints(gateway));

const server = app.listen(config.port, config.host, EXAMPLE_LISTEN_BACKLOG, () => {
  const url = listeningURL(config.host, server);
  console.log(formatStartup({ app: 'Koa example', url, key: config.keys[0]!, generatedKey: config.generatedKey, notes: [...config.notes, timeouts, LISTEN_BACKLOG_NOTE, ...observability.notes] }));
});
const timeouts = applyServerTimeouts(server);
handleShutdown(server, gateway.gateway, { onClose: async () => { await config.dispose?.(); await observability.shutdown(); } });
