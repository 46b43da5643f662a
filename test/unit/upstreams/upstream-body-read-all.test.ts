/**
 * The built-in transport's whole-body read (`UpstreamBody.readAll`, used for
 * non-streamed answers instead of iterating chunk by chunk): against a real
 * local server it joins the chunks as sent, stops and destroys the body past
 * its limit, and maps a body cut by the server to the transport's error.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isGatewayError } from '../../../src/errors.js';
import { readCompleteJson } from '../../../src/handlers/check-upstream-answer.js';
import { createHttpClient, UpstreamBody } from '../../../src/upstreams/http-client.js';

const PIECES = ['{"id":"a",', '"pad":"', 'x'.repeat(20_000), '",', '"end":true}'];
let server: Server;
let baseURL: string;
let lastResponse: ServerResponse | undefined;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    lastResponse = res;
    res.writeHead(200, { 'content-type': 'application/json' });
    if (req.url === '/cut') {
      res.write('{"id":"a",');
      setTimeout(() => res.destroy(), 20);
      return;
    }
    let index = 0;
    const next = (): void => {
      if (index === PIECES.length) return void res.end();
      res.write(PIECES[index++]);
      setTimeout(next, 5);
    };
    next();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function get(path: string) {
  const http = createHttpClient({ baseURL, name: 'local' });
  const response = await http.send({ method: 'POST', path, headers: {}, body: '{}', signal: new AbortController().signal });
  return { http, response };
}

describe('UpstreamBody.readAll', () => {
  it('joins the chunks the server wrote, in order', async () => {
    const { http, response } = await get('/whole');
    expect(response.body).toBeInstanceOf(UpstreamBody);
    const bytes = await (response.body as UpstreamBody).readAll(1 << 20);
    expect(Buffer.from(bytes!).toString()).toBe(PIECES.join(''));
    await http.close();
  });

  it('past the limit: undefined, and the body is destroyed (the server sees its client leave)', async () => {
    const { http, response } = await get('/whole');
    const closed = new Promise<void>((resolve) => lastResponse!.once('close', () => resolve()));
    expect(await (response.body as UpstreamBody).readAll(100)).toBeUndefined();
    await closed;
    expect(lastResponse!.writableFinished).toBe(false);
    await http.close();
  });

  it('through readCompleteJson: the answer parsed, or the size limit named', async () => {
    const whole = await get('/whole');
    expect((await readCompleteJson(whole.response, 'local')).json).toMatchObject({ id: 'a', end: true });
    const big = await get('/whole');
    await expect(readCompleteJson(big.response, 'local', 1000)).rejects.toThrow(/larger than this gateway's 1000-byte limit/);
    await whole.http.close();
    await big.http.close();
  });

  it('a body the server cuts rejects with the transport error (a GatewayError naming the upstream)', async () => {
    const { http, response } = await get('/cut');
    const error = await (response.body as UpstreamBody).readAll(1 << 20).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(isGatewayError(error)).toBe(true);
    expect(String((error as Error).message)).toContain('"local"');
    await http.close();
  });
});
