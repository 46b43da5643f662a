/**
 * The simulator's store keeps files per owner: each principal starts with
 * the seeds, an `owner` seed belongs to one principal, a deletion removes
 * the caller's copy only; `reset()` restores every owner's files.
 */
import { describe, expect, it } from 'vitest';
import type { FileCallOptions, FilePage } from '../../../src/files/file-store.js';
import { createMemoryFileStore } from '../../../src/simulator/memory-file-store.js';
import { numberedSeeds } from './support.js';

const ALICE: FileCallOptions = { principal: { id: 'alice' } };
const BOB: FileCallOptions = { principal: { id: 'bob' } };
const ids = (page: FilePage) => page.data.map((file) => file.id);
const PRIVATE = { id: 'file_alice_only', filename: 'alice.txt', mimeType: 'text/plain', content: 'for alice', owner: 'alice', createdAt: '2027-01-01T00:00:00.000Z' };

describe('createMemoryFileStore keeps files per owner', () => {
  it('says so (ownerScoped), and every principal starts with the seeds', async () => {
    const store = createMemoryFileStore(numberedSeeds(2));
    expect(store.ownerScoped).toBe(true);
    expect(ids(await store.list({}, ALICE))).toEqual(['file_001', 'file_000']);
    expect(ids(await store.list({}, BOB))).toEqual(['file_001', 'file_000']);
    expect(ids(await store.list({}))).toEqual(['file_001', 'file_000']);
  });

  it('a seed with an owner is that principal’s only: others cannot list, read or delete it', async () => {
    const store = createMemoryFileStore([...numberedSeeds(1), PRIVATE]);
    expect(ids(await store.list({}, ALICE))).toEqual(['file_alice_only', 'file_000']);
    expect(ids(await store.list({}, BOB))).toEqual(['file_000']);
    expect(await store.retrieve('file_alice_only', BOB)).toBeUndefined();
    expect(await store.content('file_alice_only', BOB)).toBeUndefined();
    expect(await store.delete('file_alice_only', BOB)).toBe(false);
    expect(await store.retrieve('file_alice_only')).toBeUndefined();
    expect(await store.retrieve('file_alice_only', ALICE)).toMatchObject({ filename: 'alice.txt', size_bytes: 9 });
  });

  it('a deletion removes the caller’s copy only; reset() brings every copy back', async () => {
    const store = createMemoryFileStore(numberedSeeds(2));
    expect(await store.delete('file_000', ALICE)).toBe(true);
    expect(await store.delete('file_000', ALICE)).toBe(false);
    expect(ids(await store.list({}, ALICE))).toEqual(['file_001']);
    expect(ids(await store.list({}, BOB))).toEqual(['file_001', 'file_000']);
    expect(await store.retrieve('file_000', ALICE)).toBeUndefined();
    store.reset();
    expect(ids(await store.list({}, ALICE))).toEqual(['file_001', 'file_000']);
  });
});
