/**
 * The Fastify 5 set-up of the bare Fastify server: a node:http
 * server kept for the time-outs, and a catch-all content-type parser that
 * keeps the body's bytes as a Buffer (no JSON parse).
 */
import { createServer } from 'node:http';
import Fastify from 'fastify';

/** Returns `{ app, server() }`: `server()` is the node:http server once `app` is ready. */
export function rawBodyFastify() {
  let server;
  const app = Fastify({
    bodyLimit: 50 * 1024 * 1024,
    serverFactory: (handler) => {
      server = createServer({ keepAliveTimeout: 60_000 }, handler);
      return server;
    },
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  return { app, server: () => server };
}
