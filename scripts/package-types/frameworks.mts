/**
 * Type-checked by check-package.mjs once the app has added the frameworks
 * (express and @types/express, koa and @types/koa, fastify) but still none
 * of the observability or Redis peers: every subpath, mounted the way the
 * README shows.
 */
import express from 'express';
import Fastify from 'fastify';
import Koa from 'koa';
import { createGateway, type GatewayOptions } from 'modelgate';
import { type ExpressGateway, expressGateway } from 'modelgate/express';
import { fastifyGateway } from 'modelgate/fastify';
import { createFetchHandler } from 'modelgate/fetch';
import { type KoaGateway, koaGateway } from 'modelgate/koa';
import { createNodeHandler } from 'modelgate/node';
import { createSimulator } from 'modelgate/testing';

const options: GatewayOptions = { auth: { keys: ['sk-app'] } };
const gateway = createGateway(options);

const app = express();
const mounted: ExpressGateway = expressGateway(gateway);
app.use(mounted);

const koa = new Koa();
const koaMounted: KoaGateway = koaGateway(gateway);
koa.use(koaMounted);

const fastify = Fastify();
await fastify.register(fastifyGateway, { gateway });

export const others = [createFetchHandler(gateway), createNodeHandler(gateway), createSimulator()] as const;
