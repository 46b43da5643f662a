/**
 * The pinned Codex CLI (`codex exec`, 0.171) through the gateway's
 * Responses API, on Express 5 and Hono, over both upstream formats (the
 * embedded simulator's chat face for a chat model, its messages face for
 * one of the twelve): a plain answer, the `apply_patch` custom tool, the
 * `exec_command` function tool, thinking round-tripped statelessly as
 * encrypted reasoning, and a gateway refusal that reaches Codex once.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGateway, memoryResponseStore, type Upstream, type UpstreamCall } from 'modelgate';
import { createSimulator } from 'modelgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CodexRun, runCodex } from '../helpers/codex-cli.js';
import { AUTH, KEY, LIMITED_KEY, LIMITED_MODEL } from '../helpers/e2e-fixtures.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';

const MOUNTS = ['express5', 'hono'] as const;
/** Served by the simulator's chat face (not one of the twelve). */
const CHAT_MODEL = 'gpt-4o-mini';
/** One of the twelve (thinking `enabled` in the SPEC matrix): served by the messages face. */
const VENDOR_MODEL = 'vendora-sonnet-4-6';
const MODELS = [CHAT_MODEL, VENDOR_MODEL] as const;
/** One of the twelve without thinking (SPEC matrix). */
const NO_THINKING_MODEL = 'vendora-fable-5';
const RUN_TIMEOUT_MS = 45_000;

const PATCH_FILE = 'hello.txt';
const PATCH_LINE = 'Hello from modelgate';
const PATCH_PROMPT = `Use apply_patch to apply this patch:\n\`\`\`\n*** Begin Patch\n*** Add File: ${PATCH_FILE}\n+${PATCH_LINE}\n*** End Patch\n\`\`\``;
const SHELL_FILE = 'shell.txt';
const SHELL_PROMPT = `Run exec_command with this command:\n\`\`\`\necho hi > ${SHELL_FILE}\n\`\`\``;

type Json = Record<string, unknown>;

/** Every request body an upstream was sent, and every request Codex made to the gateway (path, status and body). */
interface Seen {
  upstream: { operation: string; body: Json }[];
  client: { path: string; status: number; body: Json }[];
}

/** A loopback proxy in front of `target` that keeps every request Codex makes and the status it got. */
async function recordingProxy(target: string, seen: Seen): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const entry = { path: req.url ?? '', status: 0, body: raw.length > 0 ? (JSON.parse(raw.toString('utf8')) as Json) : {} };
      seen.client.push(entry);
      const forwarded = httpRequest(`${target}${req.url ?? ''}`, { method: req.method, headers: req.headers }, (answer) => {
        entry.status = answer.statusCode ?? 0;
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      forwarded.on('error', () => res.destroy());
      forwarded.end(raw);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

/** Keeps what the gateway sends each upstream, untouched otherwise. */
function recording(inner: Upstream, seen: Seen): Upstream {
  return {
    name: inner.name,
    format: inner.format,
    async send(call: UpstreamCall) {
      if (call.body !== undefined) seen.upstream.push({ operation: call.operation, body: structuredClone(call.body) as Json });
      return inner.send(call);
    },
  };
}

const workspaces: string[] = [];
afterAll(async () => {
  await Promise.all(workspaces.map((dir) => rm(dir, { recursive: true, force: true })));
});

interface Played {
  run: CodexRun;
  cwd: string;
  /** What the upstreams were sent during this run. */
  upstream: { operation: string; body: Json }[];
  /** What Codex sent the gateway during this run. */
  client: { path: string; status: number; body: Json }[];
}

/** The tool call the assistant made, as the upstream was sent it back (chat `tool_calls` or a messages `tool_use` block). */
function upstreamToolCall(body: Json): { name: string; input: Json } | undefined {
  for (const message of (body.messages ?? []) as Json[]) {
    if (message.role !== 'assistant') continue;
    const call = ((message.tool_calls ?? []) as { function: { name: string; arguments: string } }[])[0];
    if (call) return { name: call.function.name, input: JSON.parse(call.function.arguments) as Json };
    const use = (Array.isArray(message.content) ? (message.content as Json[]) : []).find((block) => block.type === 'tool_use');
    if (use) return { name: String(use.name), input: use.input as Json };
  }
  return undefined;
}

/** The text of the tool result the upstream was sent (a chat `tool` message or a messages `tool_result` block). */
function upstreamToolResult(body: Json): string | undefined {
  for (const message of (body.messages ?? []) as Json[]) {
    if (message.role === 'tool') return JSON.stringify(message.content);
    const result = (Array.isArray(message.content) ? (message.content as Json[]) : []).find((block) => block.type === 'tool_result');
    if (result) return JSON.stringify(result.content);
  }
  return undefined;
}

/** `codex exec` arguments that set the provider's retry budgets. */
const retries = (stream: number, request: number): string[] => [
  '-c',
  `model_providers.modelgate.stream_max_retries=${stream}`,
  '-c',
  `model_providers.modelgate.request_max_retries=${request}`,
];

const itemTypes = (body: Json | undefined): string[] => ((body?.input ?? []) as Json[]).map((item) => String(item.type));

describe.each(MOUNTS)('codex exec through the gateway on %s', (mount) => {
  let app: StartedApp;
  const seen: Seen = { upstream: [], client: [] };
  let proxy: Awaited<ReturnType<typeof recordingProxy>>;

  beforeAll(async () => {
    const sim = createSimulator();
    const gateway = createGateway({
      auth: AUTH,
      responseStore: memoryResponseStore(),
      routes: [
        { match: 'vendora-*', upstream: recording(sim.upstreams.messages, seen) },
        { match: '*', upstream: recording(sim.upstreams.chat, seen) },
      ],
    });
    app = await startApp(mount, gateway);
    proxy = await recordingProxy(app.url, seen);
  });
  afterAll(async () => {
    await proxy.close();
    await app.close();
  });

  async function play(model: string, prompt: string, options: { apiKey?: string; config?: string; args?: string[] } = {}): Promise<Played> {
    const cwd = await mkdtemp(join(tmpdir(), 'codex-gateway-'));
    workspaces.push(cwd);
    const before = seen.upstream.length;
    const beforeClient = seen.client.length;
    const run = await runCodex({
      baseURL: `${proxy.url}/v1`,
      apiKey: options.apiKey ?? KEY,
      model,
      prompt,
      cwd,
      timeoutMs: RUN_TIMEOUT_MS,
      ...(options.config === undefined ? {} : { extraConfig: options.config }),
      ...(options.args === undefined ? {} : { extraArgs: options.args }),
    });
    return { run, cwd, upstream: seen.upstream.slice(before), client: seen.client.slice(beforeClient) };
  }

  describe.each(MODELS)('%s', { timeout: 2 * RUN_TIMEOUT_MS }, (model) => {
    it('prints a plain answer and exits 0', async () => {
      const played = await play(model, 'Describe a lighthouse.');
      expect(played.run.timedOut).toBe(false);
      expect(played.run.code, played.run.stderr).toBe(0);
      expect(played.run.lastMessage).toContain('Describe a lighthouse');
      expect(played.run.stdout).toContain('Describe a lighthouse');
      expect(played.upstream).toHaveLength(1);
    });

    it('applies an apply_patch custom tool call in its workspace and finishes the turn', async () => {
      const played = await play(model, PATCH_PROMPT);
      expect(played.run.code, played.run.stderr).toBe(0);
      expect(await readFile(join(played.cwd, PATCH_FILE), 'utf8')).toBe(`${PATCH_LINE}\n`);
      // Turn 1 gets the call, turn 2 sends the call and its output back and gets the final answer.
      expect(played.client.map((request) => `${request.path} ${request.status}`)).toEqual(['/v1/responses 200', '/v1/responses 200']);
      const [first, second] = played.client;
      expect(first?.body.tools).toContainEqual(expect.objectContaining({ type: 'custom', name: 'apply_patch' }));
      expect(itemTypes(second?.body).slice(-2)).toEqual(['custom_tool_call', 'custom_tool_call_output']);
      expect(played.upstream).toHaveLength(2);
      expect(upstreamToolCall(played.upstream[1]!.body)).toEqual({ name: 'apply_patch', input: { input: expect.stringContaining(`*** Add File: ${PATCH_FILE}\n+${PATCH_LINE}`) } });
      expect(upstreamToolResult(played.upstream[1]!.body)).toContain(`A ${PATCH_FILE}`);
      expect(played.run.lastMessage).toContain('apply_patch');
    });

    it('runs an exec_command function tool call and finishes the turn', async () => {
      const played = await play(model, SHELL_PROMPT);
      expect(played.run.code, played.run.stderr).toBe(0);
      expect(await readFile(join(played.cwd, SHELL_FILE), 'utf8')).toBe('hi\n');
      expect(played.client).toHaveLength(2);
      expect(itemTypes(played.client[1]?.body).slice(-2)).toEqual(['function_call', 'function_call_output']);
      expect(played.upstream).toHaveLength(2);
      expect(upstreamToolCall(played.upstream[1]!.body)).toEqual({ name: 'exec_command', input: expect.objectContaining({ cmd: `echo hi > ${SHELL_FILE}` }) });
      expect(upstreamToolResult(played.upstream[1]!.body)).toContain('Process exited with code 0');
      expect(played.run.lastMessage).toContain('exec_command');
    });
  });

  it('round-trips thinking statelessly on one of the twelve: reasoning with encrypted_content comes back on turn 2', { timeout: RUN_TIMEOUT_MS + 5_000 }, async () => {
    const played = await play(VENDOR_MODEL, PATCH_PROMPT, { config: 'model_reasoning_effort = "low"' });
    expect(played.run.code, played.run.stderr).toBe(0);
    expect(await readFile(join(played.cwd, PATCH_FILE), 'utf8')).toBe(`${PATCH_LINE}\n`);
    const [first, second] = played.client;
    expect(first?.body).toMatchObject({ store: false, include: ['reasoning.encrypted_content'], reasoning: { effort: 'low' } });
    const reasoning = ((second?.body.input ?? []) as Json[]).find((item) => item.type === 'reasoning');
    expect(reasoning).toMatchObject({ encrypted_content: expect.stringMatching(/.{16}/), summary: [{ type: 'summary_text', text: expect.any(String) }] });
    // What turn 2 adds: the reasoning first (the vendor may write a sentence before its call), then the call and its output.
    const added = itemTypes(second?.body).slice(itemTypes(first?.body).length);
    expect(added[0]).toBe('reasoning');
    expect(added.slice(-2)).toEqual(['custom_tool_call', 'custom_tool_call_output']);
    // Thinking was on for both calls, and the signed block of turn 1 reached the vendor again with the tool use it came with.
    const [call1, call2] = played.upstream.map((entry) => entry.body);
    expect(call1?.thinking).toMatchObject({ type: 'enabled' });
    expect(call2?.thinking).toMatchObject({ type: 'enabled' });
    const assistant = ((call2?.messages ?? []) as Json[]).find((message) => message.role === 'assistant');
    const blocks = ((assistant?.content ?? []) as Json[]).map((block) => block.type);
    expect([blocks[0], blocks.at(-1)]).toEqual(['thinking', 'tool_use']);
    expect((assistant?.content as Json[])[0]).toMatchObject({ thinking: (reasoning?.summary as Json[])[0]?.text, signature: expect.any(String) });
  });

  it('prints a 403 (a model this key may not use) with its message; Codex retries a 403 only by stream_max_retries, and gets the same refusal', { timeout: RUN_TIMEOUT_MS + 5_000 }, async () => {
    expect(LIMITED_MODEL).not.toBe(CHAT_MODEL);
    const played = await play(CHAT_MODEL, 'Describe a lighthouse.', { apiKey: LIMITED_KEY, args: retries(1, 2) });
    expect(played.run.code).toBe(1);
    expect(played.run.stderr).toContain(`unexpected status 403 Forbidden: This API key may not use the model ${CHAT_MODEL}.`);
    expect(played.client.map((request) => request.status)).toEqual([403, 403]);
    expect(played.upstream).toHaveLength(0);
  });

  it('prints a 400 for a rule of the model (reasoning on a model without thinking) naming the Responses field, and never retries it', { timeout: RUN_TIMEOUT_MS + 5_000 }, async () => {
    const played = await play(NO_THINKING_MODEL, 'Describe a lighthouse.', { config: 'model_reasoning_effort = "low"', args: retries(2, 2) });
    expect(played.run.code).toBe(1);
    expect(played.client.map((request) => request.status)).toEqual([400]);
    expect(played.run.stderr).toContain(`ERROR: {"error":{"message":"\`reasoning.effort\` is not supported for model \\"${NO_THINKING_MODEL}\\": it has no extended thinking. Remove it, or enable dropUnsupportedParams to have it dropped.","type":"invalid_request_error","param":"reasoning.effort","code":"unsupported_parameter"}}`);
    expect(played.upstream).toHaveLength(0);
  });
});
