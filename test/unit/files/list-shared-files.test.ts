/**
 * Paging through the files a predicate shares: full pages, both paging
 * styles, no file twice or lost, and a bound on the store pages read.
 */
import { describe, expect, it } from 'vitest';
import type { FilePage } from '../../../src/files/file-store.js';
import { listSharedFiles, MAX_STORE_PAGES } from '../../../src/files/list-shared-files.js';
import { accountStore, numberedSeeds } from './support.js';

const CALL = { principal: { id: 'alice' } };
const ids = (page: FilePage) => page.data.map((file) => file.id);
/** Newest first: `file_<count-1>` down to `file_000`. */
const newestFirst = (count: number) => Array.from({ length: count }, (_, index) => `file_${String(count - 1 - index).padStart(3, '0')}`);

describe('listSharedFiles', () => {
  // Every third file is shared: ids 000, 003, 006, …
  const everyThird = (file: { id: string }) => Number(file.id.slice(5)) % 3 === 0;

  it('fills a page from as many store pages as it takes', async () => {
    const store = accountStore(numberedSeeds(30));
    const page = await listSharedFiles(store, { limit: 4 }, CALL, everyThird);
    expect(ids(page)).toEqual(['file_027', 'file_024', 'file_021', 'file_018']);
    expect(page).toMatchObject({ has_more: true, first_id: 'file_027', last_id: 'file_018', next_page: 'file_018' });
    expect(store.calls.length).toBeGreaterThan(1);
  });

  it('paging with after_id (0.x) and with next_page (1.x) yields every shared file once, in order', async () => {
    const expected = newestFirst(30).filter((id) => everyThird({ id }));
    for (const style of ['after_id', 'next_page'] as const) {
      const store = accountStore(numberedSeeds(30));
      const seen: string[] = [];
      let page = await listSharedFiles(store, { limit: 3 }, CALL, everyThird);
      seen.push(...ids(page));
      while (page.has_more) {
        const cursor = style === 'after_id' ? page.last_id : page.next_page;
        page = await listSharedFiles(store, { limit: 3, after_id: cursor! }, CALL, everyThird);
        seen.push(...ids(page));
      }
      expect(seen).toEqual(expected);
      expect(page.next_page).toBeNull();
    }
  });

  it('before_id pages backward: the shared files just before the cursor', async () => {
    const store = accountStore(numberedSeeds(30));
    // Newer than file_009, nearest first in the store's order: 012, 015 are the two closest shared ones.
    const page = await listSharedFiles(store, { limit: 2, before_id: 'file_009' }, CALL, everyThird);
    expect(ids(page)).toEqual(['file_015', 'file_012']);
    expect(page.has_more).toBe(true);
    expect(page.first_id).toBe('file_015');
    const rest = await listSharedFiles(store, { limit: 10, before_id: page.first_id! }, CALL, everyThird);
    expect(ids(rest)).toEqual(['file_027', 'file_024', 'file_021', 'file_018']);
    expect(rest.has_more).toBe(false);
  });

  it('the last page says has_more false when the store has nothing after it', async () => {
    const page = await listSharedFiles(accountStore(numberedSeeds(7)), { limit: 20 }, CALL, everyThird);
    expect(ids(page)).toEqual(['file_006', 'file_003', 'file_000']);
    expect(page).toMatchObject({ has_more: false, next_page: null, last_id: 'file_000' });
  });

  it(`reads at most ${MAX_STORE_PAGES} store pages per call; the cursor then goes on from the last file read`, async () => {
    const count = (MAX_STORE_PAGES + 2) * 2;
    const store = accountStore(numberedSeeds(count));
    // Only the oldest file is shared: it lies past the bound with pages of 2.
    const oldest = (file: { id: string }) => file.id === 'file_000';
    const page = await listSharedFiles(store, { limit: 2 }, CALL, oldest);
    expect(store.calls).toHaveLength(MAX_STORE_PAGES);
    expect(page.data).toEqual([]);
    expect(page.has_more).toBe(true);
    const lastRead = newestFirst(count)[MAX_STORE_PAGES * 2 - 1];
    expect(page.next_page).toBe(lastRead);
    const next = await listSharedFiles(store, { limit: 2, after_id: page.next_page! }, CALL, oldest);
    expect(ids(next)).toEqual(['file_000']);
    expect(next.has_more).toBe(false);
  });
});
