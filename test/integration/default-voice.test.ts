/**
 * The gateway's own voice over real HTTP: with neither `logger` nor
 * `onError`, an upstream that refuses connections prints one line on
 * stderr, and calls repeated within the minute print no more; `logger:
 * false` and an app's `onError` keep stderr quiet. Caller mistakes never
 * print.
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type GatewayOptions, openAICompatible } from 'modelgate';
import { startApp, type Mount, type StartedApp } from '../helpers/start-app.js';

const KEY = 'sk-voice-integration-0123456789';

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let port: number;
beforeAll(async () => {
  port = await closedPort();
});

function options(extra: Partial<GatewayOptions> = {}): GatewayOptions {
  return {
    auth: { keys: [KEY] },
    // No retry: each call is one refused connection, at once.
    routes: [{ match: '*', upstream: openAICompatible({ name: 'local-llm', baseURL: `http://127.0.0.1:${port}/v1`, apiKey: 'sk-upstream-secret-0123456789' }), retries: 0 }],
    ...extra,
  };
}

/** The gateway's lines among everything written to stderr while `run` runs. */
async function stderrLines(run: () => Promise<void>): Promise<string[]> {
  const written: string[] = [];
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString());
    return true;
  });
  try {
    await run();
  } finally {
    spy.mockRestore();
  }
  return written.join('').split('\n').filter((line) => line.startsWith('modelgate:'));
}

async function chat(app: StartedApp, body: unknown = { model: 'local-model', messages: [{ role: 'user', content: 'Hello, my secret prompt' }] }): Promise<number> {
  const response = await fetch(`${app.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  return response.status;
}

const MOUNTS: readonly Mount[] = ['node', 'express5'];

describe.each(MOUNTS)('default voice on %s', (mount) => {
  let app: StartedApp | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('an upstream that refuses connections: one line on stderr, naming it, no more for repeated calls', async () => {
    const statuses: number[] = [];
    const lines = await stderrLines(async () => {
      app = await startApp(mount, options());
      for (let i = 0; i < 4; i++) statuses.push(await chat(app));
    });
    expect(statuses).toEqual([502, 502, 502, 502]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^modelgate: upstream unreachable \(ECONNREFUSED\) \(upstream "local-llm"\); check that it is running/);
    // Neither the upstream's key, its address, nor the caller's text.
    expect(lines[0]).not.toMatch(/sk-upstream|127\.0\.0\.1|secret prompt|local-model/);
  });

  it("a caller's mistakes (a wrong key, a bad body) print nothing", async () => {
    const lines = await stderrLines(async () => {
      app = await startApp(mount, options());
      const wrongKey = await fetch(`${app.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: 'Bearer sk-wrong-0123456789abcdef', 'content-type': 'application/json' }, body: '{}' });
      await wrongKey.arrayBuffer();
      expect(wrongKey.status).toBe(401);
      expect(await chat(app, { model: 'local-model' })).toBe(400);
    });
    expect(lines).toEqual([]);
  });

  it('logger: false prints nothing', async () => {
    const lines = await stderrLines(async () => {
      app = await startApp(mount, options({ logger: false }));
      expect(await chat(app)).toBe(502);
    });
    expect(lines).toEqual([]);
  });

  it("with the app's onError: it gets the failure, and stderr gets no line", async () => {
    const reported: string[] = [];
    const lines = await stderrLines(async () => {
      app = await startApp(mount, options({ onError: ({ error }) => reported.push(error.code) }));
      expect(await chat(app)).toBe(502);
    });
    expect(reported).toEqual(['UPSTREAM_UNAVAILABLE']);
    expect(lines).toEqual([]);
  });
});
