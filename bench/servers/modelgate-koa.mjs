/** modelgate in Koa 3 (`koaGateway` from `dist/koa.js`), no body parser: it reads the bytes itself, like the bare Koa proxy. */
import { createServer } from 'node:http';
import Koa from 'koa';
import { createGateway, koaGateway } from '../../dist/koa.js';
import { announce } from './announce.mjs';
import { gatewayOptions } from './modelgate-options.mjs';

const gateway = createGateway(gatewayOptions());
const app = new Koa();
app.use(koaGateway(gateway));
const server = createServer({ keepAliveTimeout: 60_000 }, app.callback());
server.headersTimeout = 0;
server.requestTimeout = 0;
announce(server, Number(process.env.PORT ?? 0), () => gateway.close());
