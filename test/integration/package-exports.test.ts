/**
 * The built package as a consumer gets it: `tsup` (JS only; declarations are
 * slow and checked by `tsc`) into a temporary copy of the package, then
 * every subpath loaded by name through package.json `exports`, with
 * `import()` and with `require()`, in fresh Node processes.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));

const EXPECTED: Record<string, string[]> = {
  modelgate: ['createGateway', 'isGatewayError', 'GatewayError', 'DEFAULT_CATALOG', 'openAICompatible', 'messagesUpstream', 'bedrockUpstream', 'vertexUpstream', 'upstreamFileStore', 'createRouter'],
  'modelgate/express': ['expressGateway', 'createGateway'],
  'modelgate/koa': ['koaGateway', 'createGateway'],
  'modelgate/fastify': ['fastifyGateway', 'createFastifyHooks', 'createGateway'],
  'modelgate/fetch': ['createFetchHandler', 'createGateway'],
  'modelgate/node': ['createNodeHandler', 'createGateway'],
  'modelgate/testing': ['createSimulator', 'createPdf'],
};

/**
 * Loads every subpath and makes one model call (which loads the embedded
 * simulator through a dynamic import: the split chunk must exist), then
 * prints what it found as JSON.
 */
const probe = (load: string, other: string) => `
const load = ${load};
const loadOther = ${other};
const names = ${JSON.stringify(Object.keys(EXPECTED))};
const main = async () => {
  const exports = {};
  for (const name of names) {
    const mod = await load(name);
    exports[name] = Object.keys(mod).filter((key) => mod[key] !== undefined);
  }
  const { createGateway, GatewayError } = await load('modelgate');
  const gateway = createGateway({ auth: { keys: ['sk-probe'] } });
  const response = await gateway.handle({
    method: 'POST',
    url: '/v1/messages',
    headers: { 'x-api-key': 'sk-probe', 'content-type': 'application/json' },
    rawBody: Buffer.from(JSON.stringify({ model: 'vendora-sonnet-4-6', max_tokens: 32, messages: [{ role: 'user', content: 'Hi' }] })),
    signal: new AbortController().signal,
  });
  let text = '';
  // Small relayed JSON answers come back whole (a Uint8Array), others as an async iterable.
  const chunks = response.body instanceof Uint8Array ? [response.body] : response.body;
  for await (const chunk of chunks) text += Buffer.from(chunk).toString('utf8');
  const other = await loadOther('modelgate');
  process.stdout.write(JSON.stringify({
    exports,
    status: response.status,
    type: JSON.parse(text).type,
    // Errors made by one module format are recognised by the other (Symbol.for marker).
    crossFormatError: other.isGatewayError(new GatewayError('NOT_FOUND', 'x')),
  }));
};
main().catch((error) => { console.error(error); process.exit(1); });
`;

describe('built package exports', () => {
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'modelgate-pkg-'));
    const pkg = join(dir, 'node_modules', 'modelgate');
    mkdirSync(pkg, { recursive: true });
    cpSync(join(root, 'package.json'), join(pkg, 'package.json'));
    // Dependencies resolve from the package's own node_modules, as after an install.
    symlinkSync(join(root, 'node_modules'), join(pkg, 'node_modules'), 'dir');
    await run(join(root, 'node_modules', '.bin', 'tsup'), ['--no-dts', '--silent', '--out-dir', join(pkg, 'dist')], { cwd: root });
    writeFileSync(join(dir, 'probe.mjs'), `import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\n${probe('(name) => import(name)', 'require')}`);
    writeFileSync(join(dir, 'probe.cjs'), probe('require', '(name) => import(name)'));
  }, 60_000);
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.each(['probe.mjs', 'probe.cjs'])('%s: every subpath loads by name and the gateway answers', async (file) => {
    const { stdout } = await run(process.execPath, [join(dir, file)], { cwd: dir });
    const result = JSON.parse(stdout) as { exports: Record<string, string[]>; status: number; type: string; crossFormatError: boolean };
    for (const [name, keys] of Object.entries(EXPECTED)) expect(result.exports[name]).toEqual(expect.arrayContaining(keys));
    expect(result.status).toBe(200);
    expect(result.type).toBe('message');
    expect(result.crossFormatError).toBe(true);
  });

  it('resolves modelgate/package.json', async () => {
    const { stdout } = await run(process.execPath, ['-p', "require('modelgate/package.json').name"], { cwd: dir });
    expect(stdout.trim()).toBe('modelgate');
  });
});
