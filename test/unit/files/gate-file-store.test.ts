/**
 * The `files` rules around a store: restricted keys and deletion refused
 * by default, a store that keeps no owners serves only shared files, every
 * store call names its principal.
 */
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/errors.js';
import { gateFileStore } from '../../../src/files/gate-file-store.js';
import { renderError } from '../../../src/render-error.js';
import { createMemoryFileStore } from '../../../src/simulator/memory-file-store.js';
import type { Principal } from '../../../src/types.js';
import { accountStore, numberedSeeds } from './support.js';

const ALICE: Principal = { id: 'alice' };
const BOB: Principal = { id: 'bob' };
const RESTRICTED: Principal = { id: 'limited', allowedModels: ['vendora-sonnet-4-6'] };
const as = (principal: Principal) => ({ principal });

async function refusal(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(GatewayError);
  return error as GatewayError;
}

const ALL_CALLS = [
  ['list', (gated: ReturnType<typeof gateFileStore>, principal: Principal) => gated.list({}, as(principal))],
  ['retrieve', (gated: ReturnType<typeof gateFileStore>, principal: Principal) => gated.retrieve('file_000', as(principal))],
  ['content', (gated: ReturnType<typeof gateFileStore>, principal: Principal) => gated.content('file_000', as(principal))],
  ['delete', (gated: ReturnType<typeof gateFileStore>, principal: Principal) => gated.delete('file_000', as(principal))],
] as const;

describe('who may use the file endpoints', () => {
  it.each(ALL_CALLS)('%s: a key restricted by allowedModels gets 403 naming files.allowPrincipal; the store is not asked', async (_, call) => {
    const store = accountStore(numberedSeeds(3));
    const error = await refusal(call(gateFileStore({ store, shared: true, allowDelete: true }), RESTRICTED));
    expect(error.status).toBe(403);
    expect(error.code).toBe('PERMISSION_DENIED');
    expect(error.message).toContain('`allowedModels`');
    expect(error.message).toContain('`files.allowPrincipal`');
    expect(store.calls).toEqual([]);
  });

  it('the 403 renders as a permission error in both formats', async () => {
    const error = await refusal(gateFileStore({ store: accountStore([]), shared: true }).list({}, as(RESTRICTED)));
    expect(renderError(error, 'messages')).toMatchObject({ status: 403, body: { type: 'error', error: { type: 'permission_error' } } });
    expect(renderError(error, 'chat')).toMatchObject({ status: 403, body: { error: { type: 'permission_error' } } });
  });

  it('allowPrincipal lets a restricted key in, and can keep an unrestricted one out', async () => {
    const store = accountStore(numberedSeeds(3));
    const gated = gateFileStore({ store, shared: true, allowPrincipal: (principal) => principal.id !== 'bob' });
    expect((await gated.list({}, as(RESTRICTED))).data).toHaveLength(3);
    const error = await refusal(gated.list({}, as(BOB)));
    expect(error.status).toBe(403);
    expect(error.message).toContain('`files.allowPrincipal`');
    expect(error.message).not.toContain('allowedModels');
  });
});

describe('deletion', () => {
  it('is refused (403 naming files.allowDelete) by default, even of a file the caller sees; nothing is deleted', async () => {
    const store = accountStore(numberedSeeds(3));
    const gated = gateFileStore({ store, shared: true });
    const error = await refusal(gated.delete('file_001', as(ALICE)));
    expect(error.status).toBe(403);
    expect(error.message).toContain('allowDelete: true');
    expect(store.calls.filter((call) => call.method === 'delete')).toEqual([]);
    expect(await gated.retrieve('file_001', as(ALICE))).toMatchObject({ id: 'file_001' });
  });

  it('with allowDelete: deletes a file the caller sees', async () => {
    const gated = gateFileStore({ store: accountStore(numberedSeeds(3)), shared: true, allowDelete: true });
    expect(await gated.delete('file_001', as(ALICE))).toBe(true);
    expect(await gated.retrieve('file_001', as(BOB))).toBeUndefined();
  });
});

describe('a store that keeps no owners serves only shared files', () => {
  // Each principal sees the files named after it: `alice/…` are the even ones, `bob/…` the odd ones.
  const byName = (principal: Principal, file: { filename: string }) => file.filename.startsWith(`${principal.id}/`);

  it('list: only the files the predicate shares with the caller', async () => {
    const gated = gateFileStore({ store: accountStore(numberedSeeds(6)), shared: byName });
    expect((await gated.list({}, as(ALICE))).data.map((file) => file.id)).toEqual(['file_004', 'file_002', 'file_000']);
    expect((await gated.list({}, as(BOB))).data.map((file) => file.id)).toEqual(['file_005', 'file_003', 'file_001']);
  });

  it('a file not shared with the caller answers as missing: no metadata, no content read, no deletion', async () => {
    const store = accountStore(numberedSeeds(2));
    const gated = gateFileStore({ store, shared: byName, allowDelete: true });
    expect(await gated.retrieve('file_000', as(BOB))).toBeUndefined();
    expect(await gated.content('file_000', as(BOB))).toBeUndefined();
    expect(await gated.delete('file_000', as(BOB))).toBe(false);
    expect(store.calls.map((call) => call.method)).toEqual(['retrieve', 'retrieve', 'retrieve']);
    // Still there for its owner.
    const content = await gated.content('file_000', as(ALICE));
    expect(content?.metadata.filename).toBe('alice/0.txt');
  });

  it('shared: true serves every file to every allowed principal', async () => {
    const gated = gateFileStore({ store: accountStore(numberedSeeds(4)), shared: true });
    expect((await gated.list({}, as(BOB))).data).toHaveLength(4);
    expect(await gated.retrieve('file_000', as(BOB))).toMatchObject({ filename: 'alice/0.txt' });
  });

  it('without shared (a configuration the options refuse), nothing is served', async () => {
    const gated = gateFileStore({ store: accountStore(numberedSeeds(2)) });
    expect((await gated.list({}, as(ALICE))).data).toEqual([]);
    expect(await gated.retrieve('file_000', as(ALICE))).toBeUndefined();
    expect(await gated.content('file_000', as(ALICE))).toBeUndefined();
  });
});

describe('every store call names its principal', () => {
  it('the store receives the caller on each method', async () => {
    const store = accountStore(numberedSeeds(2));
    const gated = gateFileStore({ store, shared: true, allowDelete: true });
    await gated.list({}, as(ALICE));
    await gated.retrieve('file_000', as(BOB));
    await gated.content('file_000', as(ALICE));
    await gated.delete('file_001', as(BOB));
    expect(store.calls.map((call) => `${call.method}:${call.principal}`)).toEqual(['list:alice', 'retrieve:bob', 'content:alice', 'delete:bob']);
  });

  it('a store that keeps files per owner answers each principal with its own', async () => {
    const store = createMemoryFileStore([...numberedSeeds(2), { id: 'file_mine', filename: 'mine.txt', mimeType: 'text/plain', content: 'x', owner: 'alice' }]);
    const gated = gateFileStore({ store, allowDelete: true });
    expect((await gated.list({}, as(ALICE))).data.map((file) => file.id)).toContain('file_mine');
    expect((await gated.list({}, as(BOB))).data.map((file) => file.id)).not.toContain('file_mine');
    expect(await gated.delete('file_000', as(ALICE))).toBe(true);
    expect(await gated.retrieve('file_000', as(BOB))).toMatchObject({ id: 'file_000' });
  });
});
