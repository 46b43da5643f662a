/**
 * The pinned Codex CLI (`codex exec`, 0.171) against a scripted Responses
 * provider on loopback: what it sends (the shapes a gateway must accept)
 * and what it needs back (the stream grammar, errors, WebSocket refusal).
 * The recorded bodies in test/fixtures/recorded/codex-0.171-*.json must
 * still match what this version sends.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_INSTRUCTIONS, type CodexRun, runCodex } from '../helpers/codex-cli.js';
import { PATCH_FILE, PATCH_LINE, SHELL_FILE, SHELL_TEXT, FINAL_TEXT, toolRoundTrip } from '../helpers/codex-scenarios.js';
import {
  messageItem,
  type RecordedRequest,
  type ScriptOptions,
  startScriptedResponsesServer,
  type Turn,
  turnEvents,
} from '../helpers/scripted-responses-server.js';

const MODEL = 'claude-sonnet-4-5';
const KEY = 'mg-capture-key';
const RUN_TIMEOUT_MS = 45_000;

type Json = Record<string, unknown>;

/** Every workspace a run made, removed after the file. */
const workspaces: string[] = [];
afterAll(async () => {
  await Promise.all(workspaces.map((dir) => rm(dir, { recursive: true, force: true })));
});

interface Played {
  run: CodexRun;
  requests: RecordedRequest[];
  /** The `POST /responses` bodies, in order. */
  bodies: Json[];
  cwd: string;
}

/** Runs codex once against a fresh scripted server; `config` is extra config.toml text. */
async function play(script: ScriptOptions, options: { config?: string; args?: string[]; modelCatalog?: boolean } = {}): Promise<Played> {
  const server = await startScriptedResponsesServer({ model: MODEL, ...script });
  const cwd = await mkdtemp(join(tmpdir(), 'codex-workspace-'));
  workspaces.push(cwd);
  try {
    const run = await runCodex({
      baseURL: server.baseURL,
      apiKey: KEY,
      model: MODEL,
      prompt: 'Create hello.txt with a greeting.',
      cwd,
      timeoutMs: RUN_TIMEOUT_MS,
      ...(options.config === undefined ? {} : { extraConfig: options.config }),
      ...(options.args === undefined ? {} : { extraArgs: options.args }),
      ...(options.modelCatalog === undefined ? {} : { modelCatalog: options.modelCatalog }),
    });
    return { run, requests: [...server.requests], bodies: server.responseBodies(), cwd };
  } finally {
    await server.close();
  }
}

const retries = (stream: number, request: number): string[] => [
  '-c',
  `model_providers.modelgate.stream_max_retries=${stream}`,
  '-c',
  `model_providers.modelgate.request_max_retries=${request}`,
];

const items = (body: Json | undefined): Json[] => (body?.input ?? []) as Json[];
const tools = (body: Json | undefined): Json[] => (body?.tools ?? []) as Json[];
const kinds = (body: Json | undefined): string[] => items(body).map((item) => `${String(item.type)}${typeof item.role === 'string' ? `:${item.role}` : ''}`);
const toolKinds = (body: Json | undefined): string[] => tools(body).map((tool) => `${String(tool.type)}:${typeof tool.name === 'string' ? tool.name : ''}`);
const paths = (requests: RecordedRequest[]): string[] => requests.map((r) => `${r.upgrade ? 'UPGRADE' : r.method} ${r.path}`);

function fixture(name: string): Json {
  return JSON.parse(readFileSync(new URL(`../fixtures/recorded/codex-0.171-${name}.json`, import.meta.url), 'utf8')) as Json;
}

describe('codex exec against a custom Responses provider: a tool round trip', { timeout: RUN_TIMEOUT_MS + 5_000 }, () => {
  const script = toolRoundTrip();
  let played: Played;

  beforeAll(async () => {
    played = await play({ turns: script.turns });
  }, RUN_TIMEOUT_MS + 5_000);

  it('completes the turn: exit 0, the final answer as last message', () => {
    expect(played.run.timedOut).toBe(false);
    expect(played.run.code, played.run.stderr).toBe(0);
    expect(played.run.lastMessage).toBe(FINAL_TEXT);
  });

  it('runs the exec_command call and applies the apply_patch custom call in its workspace', async () => {
    expect(await readFile(join(played.cwd, SHELL_FILE), 'utf8')).toBe(SHELL_TEXT);
    expect(await readFile(join(played.cwd, PATCH_FILE), 'utf8')).toBe(`${PATCH_LINE}\n`);
  });

  it('posts one request per model turn to {base_url}/responses, and nothing else (no /models, no WebSocket)', () => {
    expect(paths(played.requests)).toEqual(['POST /v1/responses', 'POST /v1/responses', 'POST /v1/responses']);
  });

  it('sends the key as a Bearer token, a session id equal to prompt_cache_key, and asks for SSE, uncompressed', () => {
    const [first] = played.requests;
    const headers = first?.headers ?? {};
    expect(headers.authorization).toBe(`Bearer ${KEY}`);
    expect(headers.accept).toBe('text/event-stream');
    expect(headers['content-type']).toBe('application/json');
    expect(headers['content-encoding']).toBeUndefined();
    expect(headers.originator).toBe('codex_exec');
    expect(headers['user-agent']).toMatch(/^codex_exec\/0\.171\.0 /);
    expect(headers['session-id']).toBe(played.bodies[0]?.prompt_cache_key);
    expect(headers['thread-id']).toBe(played.bodies[0]?.prompt_cache_key);
    // Every turn of one session carries the same session id.
    expect(new Set(played.requests.map((r) => r.headers['session-id'])).size).toBe(1);
  });

  it('turn 1: stateless streaming request with the instructions as a developer message, not `instructions`', () => {
    const body = played.bodies[0];
    expect(Object.keys(body ?? {}).sort()).toEqual(
      ['client_metadata', 'include', 'input', 'model', 'parallel_tool_calls', 'prompt_cache_key', 'reasoning', 'store', 'stream', 'tool_choice', 'tools'].sort(),
    );
    expect(body).toMatchObject({
      model: MODEL,
      stream: true,
      store: false,
      tool_choice: 'auto',
      parallel_tool_calls: true,
      reasoning: { summary: 'auto' },
      include: ['reasoning.encrypted_content'],
    });
    expect(kinds(body)).toEqual(['message:developer', 'message:developer', 'message:user', 'message:user']);
    const [instructions, , , prompt] = items(body);
    expect(instructions?.content).toEqual([{ type: 'input_text', text: CATALOG_INSTRUCTIONS }]);
    expect(prompt?.content).toEqual([{ type: 'input_text', text: 'Create hello.txt with a greeting.' }]);
    // Codex gives its own input messages ids (`msg_` + a UUID); they are not ids of stored items.
    for (const item of items(body)) expect(item.id).toMatch(/^msg_[0-9a-f-]{36}$/);
  });

  it('offers flat function tools, apply_patch as a custom tool with a Lark grammar, a namespace and the built-in web_search', () => {
    const body = played.bodies[0];
    const byName = new Map(tools(body).map((tool) => [tool.name ?? tool.type, tool]));
    expect(byName.get('exec_command')).toMatchObject({ type: 'function', strict: false, parameters: { type: 'object', required: ['cmd'] } });
    const applyPatch = byName.get('apply_patch');
    expect(applyPatch).toMatchObject({ type: 'custom', format: { type: 'grammar', syntax: 'lark' } });
    expect(String((applyPatch?.format as Json | undefined)?.definition)).toContain('begin_patch');
    const namespace = tools(body).find((tool) => tool.type === 'namespace');
    expect(namespace).toMatchObject({ name: expect.any(String), tools: expect.arrayContaining([expect.objectContaining({ type: 'function' })]) });
    expect(tools(body)).toContainEqual({ type: 'web_search', external_web_access: true });
  });

  it('turn 2: replays the streamed reasoning, message and function call with their ids, then the function_call_output', () => {
    const [reasoning, message, call] = script.items[0] ?? [];
    const added = items(played.bodies[1]).slice(items(played.bodies[0]).length);
    expect(added).toEqual([
      { type: 'reasoning', id: reasoning?.id, summary: [{ type: 'summary_text', text: 'I should run a command first.' }], content: null, encrypted_content: 'opaque-reasoning-1' },
      { type: 'message', id: message?.id, status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'Running a command first.', annotations: [] }] },
      { type: 'function_call', id: call?.id, status: 'completed', name: 'exec_command', arguments: JSON.stringify({ cmd: `printf ${SHELL_TEXT} > ${SHELL_FILE}` }), call_id: 'call_shell_1' },
      { type: 'function_call_output', id: expect.stringMatching(/^fco_/), call_id: 'call_shell_1', output: expect.stringContaining('Process exited with code 0') },
    ]);
  });

  it('turn 3: adds the reasoning (encrypted_content null), the custom_tool_call and its custom_tool_call_output', () => {
    const [reasoning, call] = script.items[1] ?? [];
    const added = items(played.bodies[2]).slice(items(played.bodies[1]).length);
    expect(added).toEqual([
      { type: 'reasoning', id: reasoning?.id, summary: [{ type: 'summary_text', text: 'Now the patch.' }], content: null, encrypted_content: null },
      { type: 'custom_tool_call', id: call?.id, status: 'completed', call_id: 'call_patch_1', name: 'apply_patch', input: expect.stringContaining(`*** Add File: ${PATCH_FILE}`) },
      { type: 'custom_tool_call_output', id: expect.stringMatching(/^ctco_/), call_id: 'call_patch_1', output: expect.stringContaining(`A ${PATCH_FILE}`) },
    ]);
  });

  it('still sends what the recorded fixtures hold (fields, tools, item kinds)', () => {
    const recorded = [fixture('turn1'), fixture('turn2-after-function-call'), fixture('turn3-after-custom-tool-call')];
    recorded.forEach((expected, turn) => {
      const live = played.bodies[turn];
      expect(Object.keys(live ?? {})).toEqual(Object.keys(expected));
      expect(toolKinds(live)).toEqual(toolKinds(expected));
      expect(kinds(live)).toEqual(kinds(expected));
    });
    expect(Object.keys(played.requests[0]?.headers ?? {}).filter((name) => !['host', 'content-length'].includes(name))).toEqual(Object.keys(fixture('headers')));
  });
});

describe('codex exec for a model id it does not know, without a model catalog', { timeout: RUN_TIMEOUT_MS + 5_000 }, () => {
  it('uses fallback metadata: no apply_patch tool, its full default instructions as the first developer message', async () => {
    const played = await play({ turns: [{ kind: 'stream', items: [messageItem('Hello.')] }] }, { modelCatalog: false });
    expect(played.run.code, played.run.stderr).toBe(0);
    expect(played.run.stderr).toContain(`Model metadata for \`${MODEL}\` not found`);
    const body = played.bodies[0];
    expect(toolKinds(body)).not.toContain('custom:apply_patch');
    expect(tools(body).some((tool) => tool.name === 'apply_patch')).toBe(false);
    expect(String(((items(body)[0]?.content as Json[] | undefined)?.[0] as Json | undefined)?.text)).toMatch(/^You are a coding agent running in the Codex CLI/);
    expect(toolKinds(body)).toEqual(toolKinds(fixture('turn1-fallback-metadata')));
  });
});

describe('codex exec when the provider fails', { timeout: RUN_TIMEOUT_MS + 5_000 }, () => {
  const recovered: Turn = { kind: 'stream', items: [messageItem('Recovered.')] };

  it('response.failed with no stream retries: exit 1, the error message printed, one request', async () => {
    const played = await play({ turns: [{ kind: 'stream', items: [], fail: { code: 'server_error', message: 'the upstream failed' } }, recovered] });
    expect(played.run.code).toBe(1);
    expect(played.run.stderr).toContain('stream disconnected before completion: the upstream failed');
    expect(played.bodies).toHaveLength(1);
  });

  it('response.failed is retried (stream_max_retries = 1): the same request again, then the answer', async () => {
    const played = await play({ turns: [{ kind: 'stream', items: [], fail: { code: 'server_error', message: 'the upstream failed' } }, recovered] }, { args: retries(1, 0) });
    expect(played.run.code, played.run.stderr).toBe(0);
    expect(played.run.lastMessage).toBe('Recovered.');
    expect(played.bodies).toHaveLength(2);
    expect(played.bodies[1]?.input).toEqual(played.bodies[0]?.input);
  });

  it('response.failed with code context_length_exceeded is not retried', async () => {
    const played = await play({ turns: [{ kind: 'stream', items: [], fail: { code: 'context_length_exceeded', message: 'too long' } }, recovered] }, { args: retries(1, 1) });
    expect(played.run.code).toBe(1);
    expect(played.run.stderr).toContain("ran out of room in the model's context window");
    expect(played.bodies).toHaveLength(1);
  });

  it('a 400 JSON error before the stream is not retried, and its body is printed as it came', async () => {
    const message = 'temperature is not supported by this model';
    const played = await play({ turns: [{ kind: 'error', status: 400, code: 'unsupported_parameter', message }, recovered] }, { args: retries(1, 1) });
    expect(played.run.code).toBe(1);
    expect(played.run.stderr).toContain(`ERROR: {"error":{"message":"${message}","type":"invalid_request_error","param":null,"code":"unsupported_parameter"}}`);
    expect(played.bodies).toHaveLength(1);
  });

  it('a 500 before the stream is retried (request_max_retries = 1)', async () => {
    const played = await play({ turns: [{ kind: 'error', status: 500, code: 'server_error', message: 'boom' }, recovered] }, { args: retries(0, 1) });
    expect(played.run.code, played.run.stderr).toBe(0);
    expect(played.bodies).toHaveLength(2);
  });

  it('response.incomplete is not retried: exit 1 with the reason', async () => {
    const events = turnEvents([messageItem('A truncated answ')], MODEL);
    const terminal = events.at(-1) as { type: string; response: Json };
    terminal.type = 'response.incomplete';
    terminal.response.status = 'incomplete';
    terminal.response.incomplete_details = { reason: 'max_output_tokens' };
    const played = await play({ turns: [{ kind: 'events', events }, recovered] }, { args: retries(1, 1) });
    expect(played.run.code).toBe(1);
    expect(played.run.stderr).toContain('Incomplete response returned, reason: max_output_tokens');
    expect(played.bodies).toHaveLength(1);
  });

  it('a stream cut before response.completed fails the turn', async () => {
    const played = await play({ turns: [{ kind: 'cut', items: [messageItem('partial answer')], cutAfter: 5 }, recovered] });
    expect(played.run.code).toBe(1);
    expect(played.run.stderr).toContain('stream closed before response.completed');
  });
});

describe('codex exec needs the whole stream grammar', { timeout: RUN_TIMEOUT_MS + 5_000 }, () => {
  it('takes the answer from output_item.done, not from response.completed.response.output', async () => {
    const events = turnEvents([messageItem('Only in response.completed.')], MODEL);
    const played = await play({ turns: [{ kind: 'events', events: [events[0] ?? {}, events.at(-1) ?? {}] }] });
    expect(played.run.code, played.run.stderr).toBe(0);
    expect(played.run.lastMessage ?? '').toBe('');
  });

  it('rejects usage whose output_tokens_details lacks reasoning_tokens', async () => {
    const events = turnEvents([messageItem('Hello.')], MODEL);
    const completed = events.at(-1) as { response: Json };
    completed.response.usage = { input_tokens: 1, input_tokens_details: { cached_tokens: 0 }, output_tokens: 1, output_tokens_details: {}, total_tokens: 2 };
    const played = await play({ turns: [{ kind: 'events', events }] });
    expect(played.run.code).toBe(1);
    expect(played.run.stderr).toContain('failed to parse ResponseCompleted: missing field `reasoning_tokens`');
  });

  it('dispatches on the JSON type: `data:` lines without `event:` lines work', async () => {
    const played = await play({ turns: [{ kind: 'stream', items: [messageItem('Data lines only.')] }], dataOnly: true });
    expect(played.run.code, played.run.stderr).toBe(0);
    expect(played.run.lastMessage).toBe('Data lines only.');
  });

  it('accepts response.completed without usage', async () => {
    const events = turnEvents([messageItem('No usage.')], MODEL);
    delete (events.at(-1) as { response: Json }).response.usage;
    const played = await play({ turns: [{ kind: 'events', events }] });
    expect(played.run.code, played.run.stderr).toBe(0);
    expect(played.run.lastMessage).toBe('No usage.');
  });
});

describe('codex exec with supports_websockets = true', { timeout: RUN_TIMEOUT_MS + 5_000 }, () => {
  const websockets = ['-c', 'model_providers.modelgate.supports_websockets=true'];
  const hello: Turn = { kind: 'stream', items: [messageItem('Hello over HTTP.')] };

  it('a handshake refused with 426 falls back to HTTP at once, silently, whatever stream_max_retries says', async () => {
    const played = await play({ turns: [hello], upgradeStatus: 426 }, { args: [...websockets, ...retries(2, 0)] });
    expect(played.run.code, played.run.stderr).toBe(0);
    expect(played.run.lastMessage).toBe('Hello over HTTP.');
    expect(paths(played.requests)).toEqual(['UPGRADE /v1/responses', 'POST /v1/responses']);
    expect(played.requests[0]?.headers['openai-beta']).toMatch(/^responses_websockets=/);
    expect(played.run.stderr).not.toContain('Falling back from WebSockets');
  });

  it('a handshake refused with 404 is retried like a stream error (a prewarm, then 1 + stream_max_retries), then HTTP with a warning', async () => {
    const played = await play({ turns: [hello], upgradeStatus: 404 }, { args: [...websockets, ...retries(2, 0)] });
    expect(played.run.code, played.run.stderr).toBe(0);
    expect(paths(played.requests)).toEqual([...Array<string>(4).fill('UPGRADE /v1/responses'), 'POST /v1/responses']);
    expect(played.run.stderr).toContain('Falling back from WebSockets to HTTPS transport');
  });

  it('a handshake refused with 400 fails the turn', async () => {
    const played = await play({ turns: [hello], upgradeStatus: 400 }, { args: websockets });
    expect(played.run.code).toBe(1);
    expect(played.requests.every((r) => r.upgrade)).toBe(true);
  });
});
