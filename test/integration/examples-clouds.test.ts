/**
 * The example apps on cloud platforms, as a user runs them: only environment
 * variables change. The twelve go to Bedrock (signed with the AWS variables,
 * `AWS_ENDPOINT_URL_BEDROCK_RUNTIME` at a stub) or Vertex
 * (`GOOGLE_OAUTH_ACCESS_TOKEN`, `ANTHROPIC_VERTEX_BASE_URL` at a stub), the
 * other models to Azure OpenAI (`AZURE_OPENAI_ENDPOINT` at a stub); the
 * official clients call through the example, and no credential appears in
 * an answer, a header or the example's output.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicClient, openAIClient } from '../helpers/e2e-fixtures.js';
import { REGION, startBedrockStub, type BedrockStub } from '../helpers/bedrock-stub.js';
import { LOCATION, PROJECT, startVertexStub, type VertexStub } from '../helpers/vertex-stub.js';
import { startAzureStub, type AzureStub } from '../helpers/azure-stub.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tsx = `${root}node_modules/.bin/tsx`;

const AWS = { accessKeyId: 'AKIAEXAMPLESTUB00001', secretAccessKey: 'stub-secret-access-key-2b7e151628aed2a6', sessionToken: 'stub-session-token-abf7158809cf4f3c' };
const GOOGLE_TOKEN = 'ya29.stub-google-access-token-762e';
const AZURE_KEY = 'stub-azure-api-key-3c4fcf098815';
const SECRETS = [AWS.secretAccessKey, AWS.sessionToken, GOOGLE_TOKEN, AZURE_KEY];
const BEDROCK_PROFILE = 'us.anthropic.claude-sonnet-4-6-v1:0';

interface RunningExample {
  child: ChildProcess;
  url: string;
  key: string;
  output: () => string;
}

/** The environment without any variable the examples read, plus `extra`. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) {
    if (/^(UPSTREAM_|OPENAI_|ANTHROPIC_|AWS_|AZURE_|GOOGLE_|CLOUD_ML_|MODELGATE_)/.test(name) || ['PORT', 'HOST', 'REDIS_URL'].includes(name)) delete env[name];
  }
  return { ...env, ...extra };
}

async function startExample(app: 'express' | 'hono', env: Record<string, string>): Promise<RunningExample> {
  const child = spawn(tsx, [`examples/${app}/server.ts`], { cwd: root, env: cleanEnv({ PORT: '0', ...env }), stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  // tsx compiles the example on the fly: on a loaded machine that alone can take tens of seconds.
  const deadline = Date.now() + 60_000;
  while (!/curl -sS \S+\/v1\/responses .*\n/.test(text)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`example did not start:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const url = /listening on (http:\/\/\S+)/.exec(text)?.[1];
  const key = /API key: (sk-\S+)/.exec(text)?.[1];
  if (!url || !key) throw new Error(`no URL or key line in:\n${text}`);
  return { child, url, key, output: () => text };
}

async function stop(example: RunningExample | undefined): Promise<void> {
  if (!example || example.child.exitCode !== null) return;
  const exited = once(example.child, 'exit');
  example.child.kill('SIGTERM');
  await exited;
}

function expectNoSecret(text: string): void {
  for (const secret of SECRETS) expect(text).not.toContain(secret);
}

/** A raw call, so that headers can be checked too: status, headers and body as text. */
async function raw(example: RunningExample, path: string, init: { method?: string; body?: unknown } = {}): Promise<{ status: number; text: string }> {
  const response = await fetch(`${example.url}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { 'x-api-key': example.key, authorization: `Bearer ${example.key}`, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  return { status: response.status, text: `${[...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n')}\n\n${text}` };
}

describe('examples/express/server.ts with MODELGATE_MESSAGES_UPSTREAM=bedrock and AZURE_OPENAI_ENDPOINT', () => {
  let bedrock: BedrockStub;
  let azure: AzureStub;
  let example: RunningExample | undefined;

  beforeAll(async () => {
    bedrock = await startBedrockStub({ credentials: [AWS] });
    azure = await startAzureStub({ keys: [AZURE_KEY], deployments: ['gpt-4.1-mini'] });
    example = await startExample('express', {
      MODELGATE_MESSAGES_UPSTREAM: 'bedrock',
      AWS_REGION: REGION,
      AWS_ACCESS_KEY_ID: AWS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: AWS.secretAccessKey,
      AWS_SESSION_TOKEN: AWS.sessionToken,
      AWS_EC2_METADATA_DISABLED: 'true',
      AWS_ENDPOINT_URL_BEDROCK_RUNTIME: bedrock.url,
      MODELGATE_MODEL_MAP: JSON.stringify({ 'vendora-sonnet-4-6': BEDROCK_PROFILE }),
      AZURE_OPENAI_ENDPOINT: azure.endpoint,
      AZURE_OPENAI_API_KEY: AZURE_KEY,
    });
  }, 90_000);
  afterAll(async () => {
    await stop(example);
    await bedrock?.close();
    await azure?.close();
  });

  it('names Bedrock with its region and Azure OpenAI in the banner, never a credential', () => {
    const output = example!.output();
    expect(output).toContain(`Amazon Bedrock, region ${REGION} at ${bedrock.url}/`);
    expect(output).toContain(`Azure OpenAI at ${azure.endpoint}/`);
    expect(output).toContain(`vendora-sonnet-4-6 → ${BEDROCK_PROFILE}`);
    expectNoSecret(output);
  });

  it('the official messages client gets Bedrock answers, signed with the AWS variables, under the MODELGATE_MODEL_MAP id', async () => {
    const client = anthropicClient(example!.url, example!.key);
    const message = await client.messages.create({ model: 'vendora-sonnet-4-6', max_tokens: 64, messages: [{ role: 'user', content: 'Hi there' }] });
    expect(message.content[0]).toMatchObject({ type: 'text', text: 'Bedrock says: Hi there' });
    const request = bedrock.requests.at(-1)!;
    expect(request.authProblem).toBeUndefined();
    expect(request.accessKeyId).toBe(AWS.accessKeyId);
    expect(request.url).toBe(`/model/${encodeURIComponent(BEDROCK_PROFILE)}/invoke`);

    const streamed = await client.messages.stream({ model: 'vendora-opus-4-6', max_tokens: 64, messages: [{ role: 'user', content: 'Stream it' }] }).finalMessage();
    expect(streamed.content[0]).toMatchObject({ type: 'text', text: 'Bedrock says: Stream it' });
    expect(bedrock.requests.at(-1)!.url).toBe('/model/vendora-opus-4-6/invoke-with-response-stream');
  });

  it('the official OpenAI client reaches Bedrock for the twelve (translated) and Azure for the other models', async () => {
    const client = openAIClient(example!.url, example!.key);
    const translated = await client.chat.completions.create({ model: 'vendora-sonnet-4-6', messages: [{ role: 'user', content: 'From chat' }] });
    expect(translated.choices[0]?.message.content).toBe('Bedrock says: From chat');
    const before = azure.requests.length;
    const chat = await client.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'Hello Azure' }] });
    expect(chat.choices[0]?.message.content).toBeTruthy();
    expect(azure.requests.length).toBe(before + 1);
    expect(azure.requests.at(-1)!.headers['api-key']).toBe(AZURE_KEY);
  });

  it('/v1/files answers 404 (no file store with a platform for the twelve)', async () => {
    const listed = await raw(example!, '/v1/files');
    expect(listed.status).toBe(404);
    expect(listed.text).toContain('No file store on this gateway');
  });

  it('no credential in answers (headers and bodies, also errors) or in the output', async () => {
    const answers = [
      await raw(example!, '/v1/messages', { body: { model: 'vendora-sonnet-4-6', max_tokens: 16, messages: [{ role: 'user', content: 'x' }] } }),
      await raw(example!, '/v1/messages', { body: { model: 'vendora-sonnet-4-6', max_tokens: 16, stream: true, messages: [{ role: 'user', content: 'x' }] } }),
      await raw(example!, '/v1/chat/completions', { body: { model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'please leak' }] } }),
      await raw(example!, '/v1/files'),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 400, 404]);
    for (const answer of answers) expectNoSecret(answer.text);
    expectNoSecret(example!.output());
  });
});

describe('examples/hono/server.ts with MODELGATE_MESSAGES_UPSTREAM=vertex', () => {
  let vertex: VertexStub;
  let example: RunningExample | undefined;

  beforeAll(async () => {
    vertex = await startVertexStub({ tokens: [GOOGLE_TOKEN] });
    example = await startExample('hono', {
      MODELGATE_MESSAGES_UPSTREAM: 'vertex',
      ANTHROPIC_VERTEX_PROJECT_ID: PROJECT,
      CLOUD_ML_REGION: LOCATION,
      GOOGLE_OAUTH_ACCESS_TOKEN: GOOGLE_TOKEN,
      ANTHROPIC_VERTEX_BASE_URL: vertex.baseURL,
      MODELGATE_MODEL_MAP: JSON.stringify({ 'vendora-sonnet-4-5': 'claude-sonnet-4-5@20250929' }),
    });
  }, 90_000);
  afterAll(async () => {
    await stop(example);
    await vertex?.close();
  });

  it('names Vertex with its project and region, never the token', () => {
    expect(example!.output()).toContain(`Google Vertex AI, project ${PROJECT}, region ${LOCATION}`);
    expectNoSecret(example!.output());
  });

  it('the official clients get Vertex answers under the mapped model id, with the token, and see no credential', async () => {
    const message = await anthropicClient(example!.url, example!.key).messages.create({ model: 'vendora-sonnet-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'Hi Vertex' }] });
    expect(message.content[0]).toMatchObject({ type: 'text', text: 'Vertex says: Hi Vertex' });
    const request = vertex.requests.at(-1)!;
    expect(request.problem).toBeUndefined();
    expect(request).toMatchObject({ project: PROJECT, location: LOCATION, model: 'claude-sonnet-4-5@20250929', method: 'rawPredict' });
    expect(request.headers.authorization).toBe(`Bearer ${GOOGLE_TOKEN}`);

    const chat = await openAIClient(example!.url, example!.key).chat.completions.create({ model: 'vendora-sonnet-4-5', stream: true, messages: [{ role: 'user', content: 'Streamed' }] });
    let text = '';
    for await (const chunk of chat) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('Vertex says: Streamed');
    expect(vertex.requests.at(-1)!.method).toBe('streamRawPredict');

    const answer = await raw(example!, '/v1/messages', { body: { model: 'vendora-sonnet-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'x' }] } });
    expect(answer.status).toBe(200);
    expectNoSecret(answer.text);
    expectNoSecret(example!.output());
  });
});

describe('examples with a cloud variable mistake', () => {
  it('do not start: exit code 1 and one line naming the variable, without the secrets given', async () => {
    const child = spawn(tsx, ['examples/koa/server.ts'], {
      cwd: root,
      env: cleanEnv({ PORT: '0', MODELGATE_MESSAGES_UPSTREAM: 'bedrock', AWS_ACCESS_KEY_ID: AWS.accessKeyId, AWS_SECRET_ACCESS_KEY: AWS.secretAccessKey }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toEqual(['Not starting: MODELGATE_MESSAGES_UPSTREAM=bedrock needs AWS_REGION (e.g. us-east-1): the region of the Bedrock runtime.']);
    expectNoSecret(stderr);
  }, 90_000);
});
