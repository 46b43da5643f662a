/**
 * The example apps as a user runs them (`tsx examples/<app>/server.ts`):
 * the startup banner, its curl lines run verbatim in a shell, the official
 * clients with the printed URL and key, the app's own routes, upstreams
 * from the environment, and a graceful SIGTERM.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentClient, agentTurn } from '../helpers/agent-turn.js';
import { anthropicClient, openAIClient } from '../helpers/e2e-fixtures.js';
import { SPEC_MATRIX } from '../unit/models/spec-matrix.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const tsx = `${root}node_modules/.bin/tsx`;

interface RunningExample {
  child: ChildProcess;
  url: string;
  /** The printed key (only a generated one is printed). */
  key: string | undefined;
  curls: string[];
  output: () => string;
}

/** The environment without any variable the examples read, plus `extra`. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) {
    if (/^(UPSTREAM_|OPENAI_|ANTHROPIC_)/.test(name) || ['PORT', 'HOST', 'MODELGATE_API_KEYS', 'MODELGATE_ADAPT_THINKING'].includes(name)) delete env[name];
  }
  return { ...env, ...extra };
}

/** Starts an example and waits for its banner (the last curl line, the Responses one). */
async function startExample(app: 'express' | 'koa' | 'fastify' | 'hono', env: Record<string, string> = {}): Promise<RunningExample> {
  const child = spawn(tsx, [`examples/${app}/server.ts`], { cwd: root, env: cleanEnv({ PORT: '0', ...env }), stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  // tsx compiles the example on the fly: on a loaded machine that alone can take tens of seconds.
  const deadline = Date.now() + 60_000;
  while (!/curl -sS \S+\/v1\/responses .*\n/.test(text)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`example did not start:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const url = /listening on (http:\/\/\S+)/.exec(text)?.[1];
  const key = /API key: (sk-\S+)/.exec(text)?.[1];
  if (!url || !/API key: /.test(text)) throw new Error(`no URL or key line in:\n${text}`);
  const curls = text.split('\n').map((line) => line.trim()).filter((line) => line.startsWith('curl '));
  return { child, url, key, curls, output: () => text };
}

async function stop(example: RunningExample): Promise<number | null> {
  if (example.child.exitCode !== null) return example.child.exitCode;
  const exited = once(example.child, 'exit');
  example.child.kill('SIGTERM');
  const [code] = (await exited) as [number | null];
  return code;
}

/** Sends a default coding-agent turn to every model: the models that answered, and the error status of the others. */
async function agentOnEveryModel(example: RunningExample): Promise<{ answered: string[]; failed: Record<string, number> }> {
  if (example.key === undefined) throw new Error('the example printed no generated key');
  const client = agentClient(example.url, example.key);
  const answered: string[] = [];
  const failed: Record<string, number> = {};
  for (const { id } of SPEC_MATRIX) {
    try {
      const message = await client.messages.stream(agentTurn(id, 'Explain what src/index.ts exports.')).finalMessage();
      if (message.content.length > 0) answered.push(id);
    } catch (error) {
      failed[id] = (error as { status?: number }).status ?? 0;
    }
  }
  return { answered, failed };
}

describe.each(['express', 'koa', 'fastify', 'hono'] as const)('examples/%s/server.ts with no upstream configured', (app) => {
  let example: RunningExample;

  beforeAll(async () => {
    example = await startExample(app);
  }, 90_000);
  afterAll(async () => {
    if (example) await stop(example);
  });

  it('prints a generated dev key, the simulator note and five curl lines', () => {
    expect(example.key).toMatch(/^sk-dev-[\w-]{20,}$/);
    expect(example.output()).toContain('embedded simulator serves every model');
    expect(example.output()).toContain('Stored responses (/v1/responses): in memory');
    expect(example.curls).toHaveLength(5);
  });

  it('sets and prints time-outs for slow clients', () => {
    expect(example.output()).toContain('request head within 15 s (headersTimeout), whole request within 60 s (requestTimeout)');
  });

  it('listens with an accept queue of 4096 connections (Node defaults to 511), capped by net.core.somaxconn', async () => {
    const { port } = new URL(example.url);
    // For a listening socket, ss shows the backlog as its Send-Q: State, Recv-Q, Send-Q, Local, Peer.
    const { stdout } = await run('ss', ['-ltnH', `sport = :${port}`]);
    const sendQ = Number(stdout.trim().split(/\s+/)[2]);
    const somaxconn = Number(readFileSync('/proc/sys/net/core/somaxconn', 'utf8'));
    expect(sendQ).toBe(Math.min(4096, somaxconn));
    expect(example.output()).toContain('Connections waiting to be accepted: up to 4096');
  });

  it('the printed curl lines work verbatim', async () => {
    const [models, chat, messages, streamed, responses] = await Promise.all(example.curls.map((line) => run('sh', ['-c', line])));
    // The catalog's twelve and the simulator's three embedding models.
    expect((JSON.parse(models!.stdout) as { data: unknown[] }).data).toHaveLength(15);
    expect((JSON.parse(chat!.stdout) as { object: string }).object).toBe('chat.completion');
    expect((JSON.parse(messages!.stdout) as { type: string }).type).toBe('message');
    expect(streamed!.stdout).toMatch(/^event: message_start\n/);
    expect(streamed!.stdout).toContain('event: message_stop');
    expect(JSON.parse(responses!.stdout) as { object: string; status: string }).toMatchObject({ object: 'response', status: 'completed' });
  });

  it('serves the official clients with the printed URL and key, and the app routes', async () => {
    const completion = await openAIClient(example.url, example.key!).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] });
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    const message = await anthropicClient(example.url, example.key!).messages.create({ model: 'vendora-opus-4-8', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] });
    expect(message.stop_reason).toBe('end_turn');
    const client = openAIClient(example.url, example.key!);
    const first = await client.responses.create({ model: 'vendora-sonnet-4-6', input: 'Hi' });
    const next = await client.responses.create({ model: 'vendora-sonnet-4-6', previous_response_id: first.id, input: 'Again' });
    expect(next.previous_response_id).toBe(first.id);
    expect(await (await fetch(`${example.url}/health`)).json()).toEqual({ status: 'ok' });
    expect(await (await fetch(`${example.url}/`)).text()).toContain('mounted at <code>/v1</code>');
  });

  it('a client whose base URL lacks /v1 gets a 404 saying to add it (the Hono app routes only /v1/* to the gateway)', async () => {
    const response = await fetch(`${example.url}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${example.key!}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] }),
    });
    expect(response.status).toBe(404);
    const text = await response.text();
    if (app === 'hono') expect(text).not.toContain('/v1');
    else expect((JSON.parse(text) as { error: { message: string } }).error.message).toContain("Add /v1 to the end of the client's base URL");
  });

  it('without MODELGATE_ADAPT_THINKING keeps the SPEC errors: a default agent turn answers on the three adaptive models, 400 on the nine others', async () => {
    const { answered, failed } = await agentOnEveryModel(example);
    expect(answered).toEqual(SPEC_MATRIX.filter((row) => row.thinking === 'adaptive').map((row) => row.id));
    expect(failed).toEqual(Object.fromEntries(SPEC_MATRIX.filter((row) => row.thinking !== 'adaptive').map((row) => [row.id, 400])));
  });

  it('exits cleanly on SIGTERM', async () => {
    const code = await stop(example);
    expect(code).toBe(0);
    expect(example.output()).toContain('Closed.');
  });
});

describe('examples/koa/server.ts with MODELGATE_ADAPT_THINKING=1', () => {
  let example: RunningExample;

  beforeAll(async () => {
    example = await startExample('koa', { MODELGATE_ADAPT_THINKING: '1' });
  }, 90_000);
  afterAll(async () => {
    if (example) await stop(example);
  });

  it('says so at startup, and a coding agent with default settings gets answers on all twelve models', async () => {
    expect(example.output()).toContain('MODELGATE_ADAPT_THINKING');
    const { answered, failed } = await agentOnEveryModel(example);
    expect(failed).toEqual({});
    expect(answered).toEqual(SPEC_MATRIX.map((row) => row.id));
  });
});

describe('examples with UPSTREAM_OPENAI_BASE_URL set and no UPSTREAM_ANTHROPIC_* (one real upstream, one simulated)', () => {
  const seen: IncomingHttpHeaders[] = [];
  const upstream = createServer((req, res) => {
    seen.push(req.headers);
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({
      id: 'chatcmpl-upstream', object: 'chat.completion', created: 1, model: 'gpt-4o',
      choices: [{ index: 0, message: { role: 'assistant', content: 'from the configured upstream' }, finish_reason: 'stop', logprobs: null }],
      usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
    }));
  });
  let example: RunningExample;

  beforeAll(async () => {
    upstream.listen(0, '127.0.0.1');
    await once(upstream, 'listening');
    const { port } = upstream.address() as AddressInfo;
    example = await startExample('express', {
      UPSTREAM_OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1?api-key=sk-query-secret`,
      UPSTREAM_OPENAI_API_KEY: 'sk-upstream-secret',
      MODELGATE_API_KEYS: 'sk-mine-1, sk-mine-2',
    });
  }, 90_000);
  afterAll(async () => {
    if (example) await stop(example);
    upstream.close();
  });

  it('never prints the configured keys or URL secrets, and says which family is simulated', () => {
    const output = example.output();
    expect(example.key).toBeUndefined();
    for (const secret of ['sk-mine-1', 'sk-mine-2', 'sk-upstream-secret', 'sk-query-secret']) expect(output).not.toContain(secret);
    expect(output).toContain('API key: one of MODELGATE_API_KEYS (not printed');
    expect(output).toContain('/v1?api-key=***');
    expect(output).not.toContain('generated for this run');
    expect(output).toContain('UPSTREAM_ANTHROPIC_BASE_URL / UPSTREAM_ANTHROPIC_API_KEY not set');
  });

  it('its printed curl lines work with the key in $MODELGATE_KEY', async () => {
    const { stdout } = await run('sh', ['-c', example.curls[0]!], { env: { ...process.env, MODELGATE_KEY: 'sk-mine-2' } });
    expect((JSON.parse(stdout) as { data: unknown[] }).data).toHaveLength(12);
  });

  it('sends other models to the configured upstream with its own key; the vendor models to the simulator', async () => {
    const completion = await openAIClient(example.url, 'sk-mine-2').chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] });
    expect(completion.choices[0]?.message.content).toBe('from the configured upstream');
    expect(seen.at(-1)?.authorization).toBe('Bearer sk-upstream-secret');
    const message = await anthropicClient(example.url, 'sk-mine-1').messages.create({ model: 'vendora-sonnet-4-6', max_tokens: 32, messages: [{ role: 'user', content: 'Hi' }] });
    expect(message.type).toBe('message');
    expect(seen).toHaveLength(1);
    const files = await anthropicClient(example.url, 'sk-mine-1').beta.files.list();
    expect(files.data.length).toBeGreaterThan(0);
  });
});

/** A port free a moment ago (the examples must know theirs before listening to refuse themselves as upstream). */
async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Runs an example to its exit: code and output. */
async function runToExit(app: 'express' | 'koa' | 'fastify' | 'hono', env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(tsx, [`examples/${app}/server.ts`], { cwd: root, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  // Generous: tsx compiles the app first, which takes a while on a loaded machine.
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, stdout, stderr };
}

describe.each(['express', 'koa', 'fastify', 'hono'] as const)('examples/%s/server.ts with an upstream base URL naming its own address', (app) => {
  it('does not start: exit code 1, one line naming the variable to change, no stack trace, nothing listening', async () => {
    const port = await freePort();
    const { code, stdout, stderr } = await runToExit(app, { PORT: String(port), UPSTREAM_OPENAI_BASE_URL: `http://localhost:${port}/v1`, UPSTREAM_OPENAI_API_KEY: 'sk-up' });
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([
      `Not starting: UPSTREAM_OPENAI_BASE_URL=http://localhost:${port}/v1 points at this server itself (it listens on port ${port}): the gateway would be its own upstream. ` +
        'Set UPSTREAM_OPENAI_BASE_URL to the vendor\'s API (e.g. https://api.openai.com/v1), or unset it to use the simulator. ' +
        'To point a client at this server, set OPENAI_BASE_URL where the client runs, not here.',
    ]);
    expect(stdout).not.toContain('listening on');
    expect(stderr).not.toContain('sk-up');
  }, 90_000);
});

describe('examples/express/server.ts restarted with its banner\'s client lines exported (OPENAI_*, ANTHROPIC_* naming itself)', () => {
  let example: RunningExample;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    example = await startExample('express', {
      PORT: String(port),
      MODELGATE_API_KEYS: 'sk-mine-1',
      OPENAI_BASE_URL: `${url}/v1`,
      OPENAI_API_KEY: 'sk-mine-1',
      ANTHROPIC_BASE_URL: url,
      ANTHROPIC_API_KEY: 'sk-mine-1',
    });
  }, 90_000);
  afterAll(async () => {
    if (example) await stop(example);
  });

  it('starts on the simulator, says the client variables are ignored and what the server reads, and answers without calling itself', async () => {
    const output = example.output();
    expect(output).toContain('OPENAI_BASE_URL and OPENAI_API_KEY are client variables (they point a client at a server) and this server ignores them: its upstream is read from UPSTREAM_OPENAI_BASE_URL / UPSTREAM_OPENAI_API_KEY.');
    expect(output).toContain('ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY are client variables');
    expect(output).toContain('embedded simulator serves every model');
    const completion = await openAIClient(example.url, 'sk-mine-1').chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] });
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    const message = await anthropicClient(example.url, 'sk-mine-1').messages.create({ model: 'vendora-opus-4-8', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] });
    expect(message.stop_reason).toBe('end_turn');
  });
});
