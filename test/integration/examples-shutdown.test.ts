/**
 * An example app receiving SIGTERM with a stream in flight: it refuses new
 * model calls, ends the stream with an error event at the grace deadline,
 * aborts the upstream request, and exits cleanly.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAIClient } from '../helpers/e2e-fixtures.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tsx = `${root}node_modules/.bin/tsx`;
const KEY = 'sk-shutdown-0123456789abcdef';

/** A chat upstream that sends one chunk, then holds the stream open until its client goes. */
const closed: IncomingMessage[] = [];
const upstream = createServer((req, res) => {
  req.resume();
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write(`data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', choices: [{ index: 0, delta: { role: 'assistant', content: 'Hello' }, finish_reason: null }] })}\n\n`);
  res.on('close', () => closed.push(req));
});

beforeAll(async () => {
  upstream.listen(0, '127.0.0.1');
  await once(upstream, 'listening');
});
afterAll(() => {
  upstream.closeAllConnections();
  upstream.close();
});

describe.each(['express', 'fastify'] as const)('examples/%s/server.ts on SIGTERM with a stream in flight', (app) => {
  it('ends the stream with an error event at the grace deadline, aborts its upstream, refuses new calls and exits 0', async () => {
    const { port } = upstream.address() as AddressInfo;
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', MODELGATE_API_KEYS: KEY, MODELGATE_SHUTDOWN_GRACE_MS: '1500', UPSTREAM_OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`, UPSTREAM_OPENAI_API_KEY: 'sk-upstream-0123456789' };
    for (const name of ['UPSTREAM_ANTHROPIC_BASE_URL', 'UPSTREAM_ANTHROPIC_API_KEY', 'MODELGATE_MESSAGES_UPSTREAM', 'HOST']) delete env[name];
    const child = spawn(tsx, [`examples/${app}/server.ts`], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    try {
      for (const deadline = Date.now() + 60_000; !/listening on (http:\/\/\S+)/.test(output); ) {
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`example did not start:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const url = /listening on (http:\/\/\S+)/.exec(output)![1]!;
      const client = openAIClient(url, KEY);
      const closedBefore = closed.length;
      const stream = (await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }], stream: true }))[Symbol.asyncIterator]();
      const first = await stream.next();
      expect((first.value as { choices: Array<{ delta: { content?: string } }> }).choices[0]?.delta.content).toBe('Hello');

      const exited = once(child, 'exit');
      const signalledAt = Date.now();
      child.kill('SIGTERM');
      // Until the deadline, the stream is open and new model calls are refused with 503 "shutting down".
      for (let waited = 0; !output.includes('SIGTERM') && waited < 5000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
      const refused = await fetch(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] }),
      }).catch((error: unknown) => error);
      // A server that stopped listening refuses the connection instead: also no new call.
      if (refused instanceof Response) expect([refused.status, refused.headers.get('retry-after')]).toEqual([503, '1']);

      const ended = await stream.next().then(() => undefined, (error: unknown) => error);
      expect(ended).toBeInstanceOf(OpenAI.APIError);
      expect((ended as Error).message).toContain('shut down');
      expect(Date.now() - signalledAt).toBeGreaterThanOrEqual(1400);
      const [code] = (await exited) as [number | null];
      expect(code).toBe(0);
      expect(output).toContain('Closed.');
      // The gateway's upstream request was closed, not left running.
      expect(closed.length).toBeGreaterThan(closedBefore);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 90_000);
});
