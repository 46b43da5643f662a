/**
 * An Express app that already has routes of its own (`/`, `/health`) and
 * mounts the gateway next to them. Configuration: see
 * `examples/shared/config-from-env.ts`.
 *
 *   npm start
 *   PORT=9000 MODELGATE_API_KEYS=sk-one,sk-two npm start
 *   UPSTREAM_OPENAI_API_KEY=sk-... UPSTREAM_ANTHROPIC_API_KEY=sk-ant-... npm start
 *   MODELGATE_METRICS=1 OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 npm start
 */
import express from 'express';
import { expressBaseUrlHints, expressGateway } from 'modelgate/express';
import { configFromEnvOrExit } from '../shared/config-from-env.js';
import { handleShutdown } from '../shared/handle-shutdown.js';
import { EXAMPLE_LISTEN_BACKLOG, LISTEN_BACKLOG_NOTE } from '../shared/listen-backlog.js';
import { observabilityFromEnv } from '../shared/observability-from-env.js';
import { formatStartup, listeningURL } from '../shared/print-startup.js';
import { applyServerTimeouts } from '../shared/server-timeouts.js';

const config = configFromEnvOrExit();
// Before the gateway: the OpenTelemetry SDK (when configured) must be registered first.
const observability = await observabilityFromEnv();
const app = express();
app.disable('x-powered-by');

// The app's own routes.
app.get('/', (_req, res) => {
  res.type('html').send(
    '<!doctype html><title>Example app</title><h1>Example app</h1>' +
      '<p>The model gateway is mounted at <code>/v1</code>: <code>POST /v1/chat/completions</code>, <code>POST /v1/messages</code>, <code>GET /v1/models</code>.</p>',
  );
});
app.get('/health', (_req, res) => {
  res.json({ status: 'ok' });
});
const registry = observability.registry;
if (registry) {
  app.get('/metrics', async (_req, res) => {
    res.type(registry.contentType).send(await registry.metrics());
  });
}

// The gateway: serves /v1/* and passes every other path on to the app. It answers
// errors of earlier middleware on /v1 paths (a JSON parser's, say) in the caller's format.
const gateway = expressGateway({ ...config.options, ...observability.options });
app.use(gateway);
// Last: a client whose base URL lacks /v1 (POST /chat/completions) gets a 404 saying to add it.
app.use(expressBaseUrlHints(gateway));

const server = app.listen(config.port, config.host, EXAMPLE_LISTEN_BACKLOG, () => {
  const url = listeningURL(config.host, server);
  console.log(formatStartup({ app: 'Express example', url, key: config.keys[0]!, generatedKey: config.generatedKey, notes: [...config.notes, timeouts, LISTEN_BACKLOG_NOTE, ...observability.notes] }));
});
const timeouts = applyServerTimeouts(server);
handleShutdown(server, gateway.gateway, { onClose: async () => { await config.dispose?.(); await observability.shutdown(); } });
