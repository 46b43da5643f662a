/**
 * A file store that calls a server which never answers is bounded by the
 * gateway's `requestTimeoutMs` (list, metadata, delete), and a caller who
 * leaves aborts the store's call: an outage of the vendor's files API
 * costs one deadline, not the upstream's own first-byte time-out.
 */
import { once } from 'node:events';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { messagesUpstream, upstreamFileStore } from 'modelgate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StartedApp, startApp } from '../helpers/start-app.js';

const KEY = 'sk-files-deadline-0123456789';
const HEADERS = { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' };

describe.each(['node', 'express5'] as const)('file store calls on %s', (mount) => {
  let silent: Server;
  let held: ServerResponse[] = [];
  let app: StartedApp;

  beforeAll(async () => {
    // Accepts every request and never answers it.
    silent = createServer((_request, response) => void held.push(response));
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const vendor = messagesUpstream({ baseURL: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, apiKey: 'sk-vendor-0123456789abcdef', name: 'vendor' });
    app = await startApp(mount, {
      auth: { keys: [KEY] },
      routes: [{ match: 'vendora-*', upstream: vendor }],
      files: { store: upstreamFileStore(vendor), shared: true },
      requestTimeoutMs: 400,
      logger: false,
    });
  });

  afterAll(async () => {
    await app.close();
    for (const response of held) response.destroy();
    held = [];
    silent.close();
  });

  it.each(['/v1/files', '/v1/files/file_1'])('GET %s answers within the request deadline, in the files format', async (path) => {
    const started = performance.now();
    const response = await fetch(`${app.url}${path}`, { headers: HEADERS });
    const elapsed = performance.now() - started;
    expect(response.status).toBe(504);
    const body = (await response.json()) as { type: string; error: { type: string; message: string } };
    expect(body.type).toBe('error');
    expect(body.error.message).toMatch(/did not answer within 400 ms \(requestTimeoutMs\)/);
    expect(body.error.message).not.toContain('127.0.0.1');
    // 400 ms deadline; a generous margin for a loaded machine, far below the upstream's own 300 s first-byte time-out.
    expect(elapsed).toBeLessThan(5_000);
  });
});
