/** modelgate's fetch handler (`createFetchHandler` from `dist/fetch.js`) in Hono on Node, mounted as the README shows. */
import { createServer } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { createFetchHandler, createGateway } from '../../dist/fetch.js';
import { announce } from './announce.mjs';
import { gatewayOptions } from './modelgate-options.mjs';

const gateway = createGateway(gatewayOptions());
const handler = createFetchHandler(gateway);
const app = new Hono();
app.all('/v1/*', (c) => handler(c.req.raw));
const server = createServer({ keepAliveTimeout: 60_000 }, getRequestListener(app.fetch));
server.headersTimeout = 0;
server.requestTimeout = 0;
announce(server, Number(process.env.PORT ?? 0), () => gateway.close());
