/**
 * Starts a real app with the gateway mounted, on 127.0.0.1 port 0, for the
 * end-to-end tests: the plain node handler, Express 5 and 4, Koa 3 and 2,
 * with and without a body parser in front, Express behind compression,
 * Fastify 5 and 4 (the plugin; Fastify parses JSON app-wide by default) and
 * Hono on Node (the fetch handler, through @hono/node-server).
 * Every app also serves a route of its own (`GET /health`) so tests can
 * check the gateway leaves the app's routes alone.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { bodyParser } from '@koa/bodyparser';
import compression from 'compression';
import express5 from 'express';
import express4 from 'express4';
import fastify5 from 'fastify';
import fastify4 from 'fastify4';
import { Hono } from 'hono';
import Koa3 from 'koa';
import Koa2 from 'koa2';
import { createGateway, type Gateway, type GatewayOptions } from 'modelgate';
import { expressGateway } from 'modelgate/express';
import { fastifyGateway } from 'modelgate/fastify';
import { createFetchHandler } from 'modelgate/fetch';
import { koaGateway } from 'modelgate/koa';
import { createNodeHandler } from 'modelgate/node';

/** Every way the suites mount the gateway. */
export const MOUNTS = [
  'node',
  'express5',
  'express4',
  'koa3',
  'koa2',
  'express5+json',
  'express4+json',
  'koa3+bodyparser',
  'koa2+bodyparser',
  'express5+compression',
  'fastify5',
  'fastify4',
  'hono',
] as const;

export type Mount = (typeof MOUNTS)[number];

/** A running app. */
export interface StartedApp {
  /** `http://127.0.0.1:<port>`: the messages client's base URL; add `/v1` for the chat client. */
  url: string;
  gateway: Gateway;
  /**
   * The errors the framework reported to the app (Koa's `error` event), in
   * order, never printed. A client that leaves mid-request or mid-stream is
   * one of them (`CLIENT_GONE`); `close()` rejects with any other.
   */
  appErrors: NodeJS.ErrnoException[];
  close(): Promise<void>;
}

/** Error codes that mean the client left (Koa reports them as app errors). */
export const CLIENT_GONE: ReadonlySet<string | undefined> = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE', 'HPE_INVALID_EOF_STATE']);

const HEALTH = JSON.stringify({ status: 'ok' });

function nodeListener(gateway: Gateway): RequestListener {
  const handle = createNodeHandler(gateway);
  return (req, res) => {
    if (req.url === '/health') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(HEALTH);
      return;
    }
    handle(req, res);
  };
}

function expressListener(mount: Mount, gateway: Gateway): RequestListener {
  const express = mount.startsWith('express4') ? express4 : express5;
  const app = express();
  if (mount.endsWith('+compression')) app.use(compression());
  // An app-wide JSON parser in front of the gateway, as many apps already have.
  if (mount.endsWith('+json')) app.use(express.json({ limit: '50mb' }));
  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.use(expressGateway(gateway));
  return app as unknown as RequestListener;
}

function koaListener(mount: Mount, gateway: Gateway, appErrors: NodeJS.ErrnoException[]): RequestListener {
  const Koa = mount.startsWith('koa2') ? Koa2 : Koa3;
  const app = new Koa();
  if (mount.endsWith('+bodyparser')) app.use(bodyParser({ jsonLimit: '50mb' }));
  app.use(async (ctx, next) => {
    if (ctx.path !== '/health') return next();
    ctx.body = { status: 'ok' };
  });
  app.use(koaGateway(gateway));
  // Koa reports a client that left as an app error (Koa 3 pipes stream bodies with
  // stream.pipeline: "Premature close"; a reset socket, a body cut short). Listening
  // replaces Koa's own printing; the tests read them from `appErrors`.
  app.on('error', (error: NodeJS.ErrnoException) => appErrors.push(error));
  return app.callback();
}

async function fastifyListener(mount: Mount, gateway: Gateway): Promise<RequestListener> {
  const fastify = mount === 'fastify4' ? fastify4 : fastify5;
  let listener: RequestListener | undefined;
  // Fastify's handler on a server of our own (see `listen`): the documented serverFactory.
  const app = fastify({
    serverFactory: (handler) => {
      listener = handler;
      return createServer(handler);
    },
  });
  app.get('/health', async () => ({ status: 'ok' }));
  await app.register(fastifyGateway, { gateway });
  await app.ready();
  return listener!;
}

function honoListener(gateway: Gateway): RequestListener {
  const app = new Hono();
  app.get('/health', (c) => c.json({ status: 'ok' }));
  const handler = createFetchHandler(gateway);
  app.all('/v1/*', (c) => handler(c.req.raw));
  return getRequestListener(app.fetch);
}

/** The request listener of `mount` serving `gateway`; errors reported to the app go to `appErrors`. */
export async function createListener(mount: Mount, gateway: Gateway, appErrors: NodeJS.ErrnoException[] = []): Promise<RequestListener> {
  if (mount === 'node') return nodeListener(gateway);
  if (mount === 'hono') return honoListener(gateway);
  if (mount.startsWith('fastify')) return fastifyListener(mount, gateway);
  if (mount.startsWith('express')) return expressListener(mount, gateway);
  return koaListener(mount, gateway, appErrors);
}

/** Listens on 127.0.0.1 port 0; `close` also ends open keep-alive and stream connections. */
export function listen(listener: RequestListener): Promise<{ url: string; server: Server; close(): Promise<void> }> {
  const server = createServer(listener);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        server,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

/** Starts `mount` serving a gateway made from `options` (or the given gateway). */
export async function startApp(mount: Mount, options: GatewayOptions | Gateway): Promise<StartedApp> {
  const gateway = 'handle' in options ? options : createGateway(options);
  const appErrors: NodeJS.ErrnoException[] = [];
  const running = await listen(await createListener(mount, gateway, appErrors));
  return {
    url: running.url,
    gateway,
    appErrors,
    async close() {
      await running.close();
      await gateway.close();
      const unexpected = appErrors.find((error) => !CLIENT_GONE.has(error.code));
      if (unexpected) throw new Error(`${mount} reported an app error other than a client leaving`, { cause: unexpected });
    },
  };
}
