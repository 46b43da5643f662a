/**
 * Type-checked by check-package.mjs in a fresh app that installed the packed
 * tarball and none of the optional peers (no framework, no OpenTelemetry, no
 * prom-client, no Redis client), with `strict` and `skipLibCheck: false`:
 * the framework-free subpaths' declarations (ESM: `.d.ts`) stand alone.
 */
import { createServer } from 'node:http';
import {
  createGateway,
  type GatewayLogger,
  type GatewayOptions,
  isGatewayError,
  type LimitStore,
  memoryLimitStore,
  redisLimitStore,
} from 'modelgate';
import { createFetchHandler, type FetchHandler } from 'modelgate/fetch';
import { createNodeHandler } from 'modelgate/node';
import { createSimulator, type Simulator } from 'modelgate/testing';

const logger: GatewayLogger = {
  info: () => {},
  warn: () => {},
  error: () => {},
  debug: () => {},
  child: () => logger,
};

// The peers' objects are described by shape: objects of the app's own fit them.
const redisStore: LimitStore = redisLimitStore({ client: { evalsha: async () => null, eval: async () => null } });
const options: GatewayOptions = {
  auth: { keys: ['sk-app'] },
  logger,
  openTelemetry: { captureContent: false },
  prometheus: { registry: { registerMetric: () => {}, getSingleMetric: () => undefined } },
  limits: { store: process.env.REDIS_URL ? redisStore : memoryLimitStore() },
};

const gateway = createGateway(options);
const handler: FetchHandler = createFetchHandler(gateway);
const server = createServer(createNodeHandler(gateway));
const simulator: Simulator = createSimulator();
const response: Promise<Response> = handler(new Request('http://localhost/v1/models'));

export { isGatewayError, response, server, simulator };
