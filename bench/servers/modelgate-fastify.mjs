/** modelgate in Fastify 5 (`fastifyGateway` from `dist/fastify.js`): the plugin reads the bytes itself, like the bare Fastify proxy's raw parser. */
import { createServer } from 'node:http';
import Fastify from 'fastify';
import { createGateway, fastifyGateway } from '../../dist/fastify.js';
import { announce } from './announce.mjs';
import { gatewayOptions } from './modelgate-options.mjs';

const gateway = createGateway(gatewayOptions());
let server;
const app = Fastify({
  serverFactory: (handler) => {
    server = createServer({ keepAliveTimeout: 60_000 }, handler);
    return server;
  },
});
await app.register(fastifyGateway, { gateway });
await app.ready();
server.headersTimeout = 0;
server.requestTimeout = 0;
announce(server, Number(process.env.PORT ?? 0), () => gateway.close());
