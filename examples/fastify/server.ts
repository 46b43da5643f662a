/**
 * A Fastify app with routes of its own (`/`, `/health`) and the gateway
 * registered next to them as a plugin. Configuration: see
 * `examples/shared/config-from-env.ts`.
 *
 *   npm run start:fastify
 */
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { fastifyGateway } from 'modelgate/fastify';
import { configFromEnv } from '../shared/config-from-env.js';
import { handleShutdown } from '../shared/handle-shutdown.js';
import { formatStartup } from '../shared/print-startup.js';

const config = configFromEnv();
const app = Fastify();

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

// The gateway: serves /v1/* (add `prefix: '/ai'` for /ai/v1/*), reading request bodies itself.
await app.register(fastifyGateway, config.options);

await app.listen({ port: config.port, host: config.host });
const { port } = app.server.address() as AddressInfo;
const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
console.log(formatStartup({ app: 'Fastify example', url, key: config.keys[0]!, generatedKey: config.generatedKey, notes: config.notes }));
handleShutdown(app.server, app.modelgate.gateway);
