/**
 * Records what the pinned Codex CLI sends to a custom Responses provider and
 * writes it, with temporary paths scrubbed, to
 * test/fixtures/recorded/codex-<version>-*.json. Run it after changing the
 * pinned version: `npx tsx test/helpers/record-codex-fixtures.ts`.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CodexRun, runCodex } from './codex-cli.js';
import { sanitize, toolRoundTrip } from './codex-scenarios.js';
import { messageItem, type RecordedRequest, startScriptedResponsesServer, type Turn } from './scripted-responses-server.js';

const VERSION = '0.171';
const OUT = fileURLToPath(new URL('../fixtures/recorded/', import.meta.url));
const MODEL = 'claude-sonnet-4-5';
const KEY = 'mg-test-key';

/** Headers that change with every run or carry nothing about Codex. */
const DROPPED_HEADERS = new Set(['host', 'content-length', 'sec-websocket-key']);

function scrubHeaders(request: RecordedRequest): Record<string, unknown> {
  return Object.fromEntries(Object.entries(request.headers).filter(([name]) => !DROPPED_HEADERS.has(name)));
}

async function record(
  turns: Turn[],
  options: { modelCatalog?: boolean; extraArgs?: string[]; upgradeStatus?: number } = {},
): Promise<{ run: CodexRun; requests: RecordedRequest[]; scrub: <T>(value: T) => T }> {
  const server = await startScriptedResponsesServer({ turns, model: MODEL, ...(options.upgradeStatus ? { upgradeStatus: options.upgradeStatus } : {}) });
  const cwd = await mkdtemp(join(tmpdir(), 'codex-workspace-'));
  try {
    const run = await runCodex({
      baseURL: server.baseURL,
      apiKey: KEY,
      model: MODEL,
      prompt: 'Create hello.txt with a greeting.',
      cwd,
      ...(options.modelCatalog === undefined ? {} : { modelCatalog: options.modelCatalog }),
      ...(options.extraArgs ? { extraArgs: options.extraArgs } : {}),
    });
    if (run.code !== 0) throw new Error(`codex exited with ${String(run.code)}: ${run.stderr}`);
    const scrub = <T>(value: T): T =>
      sanitize(value, [
        [cwd, '/workspace'],
        [run.codexHome, '/home/user/.codex'],
      ]);
    return { run, requests: server.requests, scrub };
  } finally {
    await server.close();
    await rm(cwd, { recursive: true, force: true });
  }
}

async function save(name: string, value: unknown): Promise<void> {
  const file = join(OUT, `codex-${VERSION}-${name}.json`);
  await writeFile(file, `${JSON.stringify(value, null, 2)}\n`);
  console.log(`wrote ${file}`);
}

const posts = (requests: RecordedRequest[]) => requests.filter((r) => r.method === 'POST' && r.path.endsWith('/responses'));

const roundTrip = await record(toolRoundTrip().turns);
const [first, second, third] = posts(roundTrip.requests);
if (!first || !second || !third) throw new Error(`expected three POST /responses, got ${String(posts(roundTrip.requests).length)}`);
await save('turn1', roundTrip.scrub(first.body));
await save('turn2-after-function-call', roundTrip.scrub(second.body));
await save('turn3-after-custom-tool-call', roundTrip.scrub(third.body));
await save('headers', roundTrip.scrub(scrubHeaders(first)));

const fallback = await record([{ kind: 'stream', items: [messageItem('Hello.')] }], { modelCatalog: false });
const [fallbackFirst] = posts(fallback.requests);
await save('turn1-fallback-metadata', fallback.scrub(fallbackFirst?.body));

const websocket = await record([{ kind: 'stream', items: [messageItem('Hello.')] }], {
  extraArgs: ['-c', 'model_providers.modelgate.supports_websockets=true'],
});
const upgrade = websocket.requests.find((r) => r.upgrade);
if (!upgrade) throw new Error('codex made no WebSocket upgrade request');
await save('websocket-upgrade-headers', websocket.scrub({ method: upgrade.method, path: upgrade.path, headers: scrubHeaders(upgrade) }));
