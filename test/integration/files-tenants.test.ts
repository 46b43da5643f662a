/**
 * The file endpoints keep tenants apart, over real HTTP with two keys
 * (Alice, Bob) and a key restricted to one model: with `routes` and no
 * `files` there is no file store (404, the vendor is never called); the
 * vendor account's files are served only as `files.shared` says, deletion
 * only with `allowDelete`; the simulator's store keeps files per owner.
 * The vendor is a stub on 127.0.0.1 that records what reaches it.
 */
import Anthropic from '@anthropic-ai/sdk';
import { messagesUpstream, upstreamFileStore } from 'modelgate';
import { createMemoryFileStore, DEFAULT_SEED_FILES } from 'modelgate/testing';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicClient, failure, openAIClient } from '../helpers/e2e-fixtures.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';
import { type RecordedRequest, type StubReply, type StubUpstream, startStubUpstream } from '../helpers/stub-upstream.js';

const ALICE = 'sk-files-alice-0123456789';
const BOB = 'sk-files-bob-0123456789ab';
const LIMITED = 'sk-files-limited-01234567';
const AUTH = {
  keys: [
    { key: ALICE, id: 'alice' },
    { key: BOB, id: 'bob' },
    { key: LIMITED, id: 'limited', allowedModels: ['vendora-sonnet-4-6'] },
  ],
};
const VENDOR_KEY = 'sk-vendor-account-0123456789';

/** The vendor account's files: one made for each principal (by name), one for nobody. */
const VENDOR_FILES = ['alice/plan.txt', 'bob/notes.txt', 'ops/payroll.txt'].map((filename, index) => ({
  type: 'file',
  id: `file_vendor_${index}`,
  filename,
  mime_type: 'text/plain',
  size_bytes: `content of ${filename}`.length,
  created_at: `2026-08-0${index + 1}T09:00:00Z`,
  downloadable: true,
}));

/** The vendor's `/v1/files`, with the account's three files. */
function vendorReply(request: RecordedRequest): StubReply {
  const path = request.url.split('?')[0] ?? '';
  if (path === '/v1/files') return { kind: 'json', body: { data: VENDOR_FILES, has_more: false, first_id: VENDOR_FILES[0]!.id, last_id: VENDOR_FILES.at(-1)!.id } };
  const [, id, rest] = /^\/v1\/files\/([^/]+)(\/content)?$/.exec(path) ?? [];
  const file = VENDOR_FILES.find((candidate) => candidate.id === id);
  if (!file) return { kind: 'json', status: 404, body: { type: 'error', error: { type: 'not_found_error', message: 'File not found.' } } };
  if (request.method === 'DELETE') return { kind: 'json', body: { id: file.id, type: 'file_deleted' } };
  if (rest) return { kind: 'text', headers: { 'content-type': 'text/plain' }, body: `content of ${file.filename}` };
  return { kind: 'json', body: file };
}

const NO_FILE_STORE = /^No file store on this gateway/;
const fileIds = async (client: Anthropic) => {
  const ids: string[] = [];
  for await (const file of client.beta.files.list()) ids.push(file.id);
  return ids;
};

describe.each(['node', 'express5'] as const)('file endpoints and tenants on %s', (mount) => {
  let vendor: StubUpstream;
  const apps: StartedApp[] = [];
  let routesOnly: StartedApp;
  let sharedByName: StartedApp;
  let sharedAll: StartedApp;
  let simulated: StartedApp;
  let simulatorDefault: StartedApp;
  const vendorUpstream = () => messagesUpstream({ baseURL: vendor.url, apiKey: VENDOR_KEY });
  const start = async (options: Parameters<typeof startApp>[1]) => {
    const app = await startApp(mount, options);
    apps.push(app);
    return app;
  };
  /** What reached the vendor's `/v1/files` since `from`. */
  const vendorCalls = (from: number) =>
    vendor.requests
      .slice(from)
      .filter((request) => request.url.startsWith('/v1/files'))
      .map((request) => `${request.method} ${request.url.split('?')[0]}`);

  beforeAll(async () => {
    vendor = await startStubUpstream(vendorReply);
    // Each gateway closes its routes' upstreams: one set per gateway.
    const routes = () => [{ match: 'vendora-*', upstream: vendorUpstream() }];
    routesOnly = await start({ auth: AUTH, routes: routes() });
    sharedByName = await start({
      auth: AUTH,
      routes: routes(),
      files: { store: upstreamFileStore(vendorUpstream()), shared: (principal, file) => file.filename.startsWith(`${principal.id}/`) },
    });
    sharedAll = await start({ auth: AUTH, routes: routes(), files: { store: upstreamFileStore(vendorUpstream()), shared: true, allowDelete: true } });
    const aliceOnly = { id: 'file_alice_only', filename: 'alice-draft.txt', mimeType: 'text/plain', content: 'only for alice', owner: 'alice' };
    simulated = await start({ auth: AUTH, files: { store: createMemoryFileStore([...DEFAULT_SEED_FILES, aliceOnly]), allowDelete: true } });
    simulatorDefault = await start({ auth: AUTH });
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await vendor?.close();
  });

  describe('routes and no files option: no file store', () => {
    it('the messages client gets 404 "no file store on this gateway" on every file endpoint; the vendor is never called', async () => {
      const from = vendor.requests.length;
      const client = anthropicClient(routesOnly.url, ALICE);
      for (const call of [
        () => client.beta.files.list(),
        () => client.beta.files.retrieveMetadata('file_vendor_0'),
        () => client.beta.files.download('file_vendor_0'),
        () => client.beta.files.delete('file_vendor_0'),
        () => client.files.list(),
      ]) {
        const error = await failure(call);
        expect(error).toBeInstanceOf(Anthropic.NotFoundError);
        expect((error as InstanceType<typeof Anthropic.NotFoundError>).error).toMatchObject({ type: 'error', error: { type: 'not_found_error', message: expect.stringMatching(NO_FILE_STORE) } });
      }
      expect(vendorCalls(from)).toEqual([]);
    });

    it('a chat-style caller (Bearer key, the chat client) gets the same 404 with a readable message', async () => {
      const raw = await fetch(`${routesOnly.url}/v1/files`, { headers: { authorization: `Bearer ${BOB}` } });
      expect(raw.status).toBe(404);
      expect(((await raw.json()) as { error: { message: string } }).error.message).toMatch(NO_FILE_STORE);
      const error = await failure(() => openAIClient(routesOnly.url, BOB).files.list());
      expect(error).toBeInstanceOf(OpenAI.NotFoundError);
      expect((error as Error).message).toMatch(/No file store on this gateway/);
    });
  });

  describe('the vendor account’s files, shared by a predicate', () => {
    it('each key lists only the files shared with it (official messages client, both generations)', async () => {
      expect(await fileIds(anthropicClient(sharedByName.url, ALICE))).toEqual(['file_vendor_0']);
      expect(await fileIds(anthropicClient(sharedByName.url, BOB))).toEqual(['file_vendor_1']);
      const page = await anthropicClient(sharedByName.url, BOB).files.list();
      expect(page.data.map((file) => file.filename)).toEqual(['bob/notes.txt']);
    });

    it('Bob cannot read or download Alice’s file: 404, and its content is never fetched from the vendor', async () => {
      const from = vendor.requests.length;
      const bob = anthropicClient(sharedByName.url, BOB);
      expect(await failure(() => bob.beta.files.retrieveMetadata('file_vendor_0'))).toBeInstanceOf(Anthropic.NotFoundError);
      expect(await failure(() => bob.beta.files.download('file_vendor_0'))).toBeInstanceOf(Anthropic.NotFoundError);
      expect(await failure(() => bob.beta.files.download('file_vendor_2'))).toBeInstanceOf(Anthropic.NotFoundError);
      expect(vendorCalls(from)).toEqual(['GET /v1/files/file_vendor_0', 'GET /v1/files/file_vendor_0', 'GET /v1/files/file_vendor_2']);
      const own = await anthropicClient(sharedByName.url, ALICE).beta.files.download('file_vendor_0');
      expect(await own.text()).toBe('content of alice/plan.txt');
    });

    it('deletion is refused (403 naming files.allowDelete) by default, and nothing reaches the vendor', async () => {
      const from = vendor.requests.length;
      const error = await failure(() => anthropicClient(sharedByName.url, ALICE).beta.files.delete('file_vendor_0'));
      expect(error).toBeInstanceOf(Anthropic.PermissionDeniedError);
      expect((error as InstanceType<typeof Anthropic.PermissionDeniedError>).error).toMatchObject({
        type: 'error',
        error: { type: 'permission_error', message: expect.stringContaining('`files: { allowDelete: true }`') },
      });
      expect(vendorCalls(from)).toEqual([]);
    });

    it('a key restricted by allowedModels gets 403 naming files.allowPrincipal, and nothing reaches the vendor', async () => {
      const from = vendor.requests.length;
      const error = await failure(() => anthropicClient(sharedByName.url, LIMITED).beta.files.list());
      expect(error).toBeInstanceOf(Anthropic.PermissionDeniedError);
      expect((error as Error).message).toContain('`files.allowPrincipal`');
      expect(await failure(() => anthropicClient(sharedAll.url, LIMITED).beta.files.retrieveMetadata('file_vendor_0'))).toBeInstanceOf(Anthropic.PermissionDeniedError);
      expect(vendorCalls(from)).toEqual([]);
    });
  });

  describe('shared with every key, deletion allowed', () => {
    it('lists every vendor file to every unrestricted key, and deletes through the vendor', async () => {
      expect(await fileIds(anthropicClient(sharedAll.url, BOB))).toEqual(VENDOR_FILES.map((file) => file.id));
      const from = vendor.requests.length;
      expect(await anthropicClient(sharedAll.url, BOB).beta.files.delete('file_vendor_1')).toEqual({ id: 'file_vendor_1', type: 'file_deleted' });
      expect(vendorCalls(from)).toEqual(['DELETE /v1/files/file_vendor_1']);
      expect(vendor.requests.at(-1)?.headers['x-api-key']).toBe(VENDOR_KEY);
    });
  });

  describe('the simulator’s store keeps files per owner', () => {
    it('Bob cannot see, read, download or delete the file only Alice’s files hold', async () => {
      const bob = anthropicClient(simulated.url, BOB);
      expect(await fileIds(bob)).not.toContain('file_alice_only');
      expect(await failure(() => bob.beta.files.retrieveMetadata('file_alice_only'))).toBeInstanceOf(Anthropic.NotFoundError);
      expect(await failure(() => bob.beta.files.download('file_alice_only'))).toBeInstanceOf(Anthropic.NotFoundError);
      expect(await failure(() => bob.beta.files.delete('file_alice_only'))).toBeInstanceOf(Anthropic.NotFoundError);
      const alice = anthropicClient(simulated.url, ALICE);
      expect(await fileIds(alice)).toContain('file_alice_only');
      expect(await (await alice.beta.files.download('file_alice_only')).text()).toBe('only for alice');
    });

    it('with no files option and no routes, deleting a seed file removes Alice’s copy only', async () => {
      const alice = anthropicClient(simulatorDefault.url, ALICE);
      const bob = anthropicClient(simulatorDefault.url, BOB);
      const seed = DEFAULT_SEED_FILES[0]!.id!;
      expect(await fileIds(bob)).toContain(seed);
      expect(await alice.beta.files.delete(seed)).toEqual({ id: seed, type: 'file_deleted' });
      expect(await fileIds(alice)).not.toContain(seed);
      expect(await fileIds(bob)).toContain(seed);
      expect((await bob.beta.files.retrieveMetadata(seed)).id).toBe(seed);
    });
  });
});
