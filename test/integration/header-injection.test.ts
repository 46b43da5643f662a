/**
 * Caller text never breaks a response header: a Responses tool `type`
 * holding CR LF, dropped under `dropUnsupportedParams`, is named in
 * `x-modelgate-dropped-params`. The client gets its 200 with a clean header
 * and no header of the caller's making, on the node:http adapter and on the
 * fetch adapter (Hono on Node), over real HTTP.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH, KEY } from '../helpers/e2e-fixtures.js';
import { startApp, type StartedApp } from '../helpers/start-app.js';

/** A raw HTTP POST: status, headers and body as the wire carried them (no client library in between). */
function post(url: string, body: unknown): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe.each(['node', 'hono'] as const)('a CR LF in caller text bound for a header, on %s', (mount) => {
  let app: StartedApp;

  beforeAll(async () => {
    app = await startApp(mount, { auth: AUTH, dropUnsupportedParams: true });
  });
  afterAll(() => app.close());

  it('answers 200 with the dropped tool named in a clean header and no injected header', async () => {
    const response = await post(`${app.url}/v1/responses`, {
      model: 'gpt-4o',
      input: 'Hello.',
      tools: [{ type: 'web_search\r\nx-injected: 1' }],
    });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body).object).toBe('response');
    expect(response.headers['x-injected']).toBeUndefined();
    const dropped = response.headers['x-modelgate-dropped-params'];
    expect(dropped).toBe('tools.0 (web_search??x-injected: 1)');
  });
});
