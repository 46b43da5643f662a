/** modelgate on plain node:http (`createNodeHandler` from `dist/node.js`); `BENCH_OBS` adds observability (see observability.mjs). */
import { createServer } from 'node:http';
import { createGateway, createNodeHandler } from '../../dist/node.js';
import { announce } from './announce.mjs';
import { gatewayOptions } from './modelgate-options.mjs';
import { observabilityOptions } from './observability.mjs';

const observability = await observabilityOptions();
const gateway = createGateway({ ...gatewayOptions(), ...observability.options });
const server = createServer({ keepAliveTimeout: 60_000 }, createNodeHandler(gateway));
server.headersTimeout = 0;
server.requestTimeout = 0;
announce(server, Number(process.env.PORT ?? 0), () => gateway.close().then(() => observability.close()));
