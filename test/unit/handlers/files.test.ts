import { validateHeaderValue } from 'node:http';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/errors.js';
import type { FileContent, FileMetadata, FilePage, FileStore, ListParams } from '../../../src/files/file-store.js';
import { deleteFile, fileContent, listFiles, refuseUpload, retrieveFile } from '../../../src/handlers/files.js';
import { renderError } from '../../../src/render-error.js';
import { fileDeletedSchema, fileListSchema, fileMetadataSchema } from '../../../src/schemas/messages.js';

function metadata(id: string, filename: string, mime: string, size: number): FileMetadata {
  return { type: 'file', id, filename, mime_type: mime, size_bytes: size, created_at: '2026-08-15T10:00:00.000Z', downloadable: true };
}

/** A tiny in-memory FileStore that records the list params it receives. */
class FakeFileStore implements FileStore {
  readonly listCalls: ListParams[] = [];
  readonly files = new Map<string, { meta: FileMetadata; bytes: Uint8Array }>();

  add(meta: FileMetadata, bytes: Uint8Array): void {
    this.files.set(meta.id, { meta, bytes });
  }

  async list(params: ListParams): Promise<FilePage> {
    this.listCalls.push(params);
    const ids = [...this.files.keys()];
    const start = params.after_id === undefined ? 0 : ids.indexOf(params.after_id) + 1;
    const rest = ids.slice(start);
    const page = rest.slice(0, params.limit ?? 20);
    const data = page.map((id) => (this.files.get(id) as { meta: FileMetadata }).meta);
    const hasMore = rest.length > page.length;
    return {
      data,
      has_more: hasMore,
      first_id: data[0]?.id ?? null,
      last_id: data.at(-1)?.id ?? null,
      next_page: hasMore ? (data.at(-1)?.id ?? null) : null,
    };
  }

  async retrieve(id: string): Promise<FileMetadata | undefined> {
    return this.files.get(id)?.meta;
  }

  async content(id: string): Promise<FileContent | undefined> {
    const file = this.files.get(id);
    if (!file) return undefined;
    const { bytes } = file;
    async function* chunks(): AsyncIterable<Uint8Array> {
      // Two chunks, so the handler must not assume one buffer.
      yield bytes.subarray(0, 3);
      yield bytes.subarray(3);
    }
    return { metadata: file.meta, body: chunks() };
  }

  async delete(id: string): Promise<boolean> {
    return this.files.delete(id);
  }
}

/** The caller every handler call names. */
const CALL = { principal: { id: 'alice' } };

const PDF = new TextEncoder().encode('%PDF-1.4 fake body');
const TXT = new TextEncoder().encode('hello, world');

function storeWithFiles(): FakeFileStore {
  const store = new FakeFileStore();
  store.add(metadata('file_a', 'report.pdf', 'application/pdf', PDF.byteLength), PDF);
  store.add(metadata('file_b', 'notes.txt', 'text/plain', TXT.byteLength), TXT);
  store.add(metadata('file_c', 'we"ird\r\nname\\.txt', 'text/plain', TXT.byteLength), TXT);
  store.add(metadata('file_d', "日本 résumé's (1).pdf", 'application/pdf', PDF.byteLength), PDF);
  store.add(metadata('file_e', 'bad\ud800.txt', 'text/plain', TXT.byteLength), TXT);
  return store;
}

async function rejection(promise: Promise<unknown>): Promise<GatewayError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    return error as GatewayError;
  }
  throw new Error('expected a rejection');
}

async function collect(body: Uint8Array | AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  if (body instanceof Uint8Array) return body;
  const parts: Uint8Array[] = [];
  for await (const part of body) parts.push(part);
  return Buffer.concat(parts);
}

function expectNotFound(error: GatewayError, id: string): void {
  expect(error.status).toBe(404);
  expect(error.code).toBe('NOT_FOUND');
  expect(error.message).toContain(id);
  expect(renderError(error, 'messages').body).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
}

describe('GET /v1/files', () => {
  it("returns the store's page, valid for both client generations", async () => {
    const store = storeWithFiles();
    const response = await listFiles(store, {}, CALL);
    expect(response).toMatchObject({ type: 'json', status: 200 });
    const body = response.body as FilePage;
    expect(body.data.map((file) => file.id)).toEqual(['file_a', 'file_b', 'file_c', 'file_d', 'file_e']);
    expect(body.has_more).toBe(false);
    expect(fileListSchema.safeParse(body).success).toBe(true);
    expect(store.listCalls).toEqual([{}]);
  });

  it('passes limit, after_id and before_id', async () => {
    const store = storeWithFiles();
    await listFiles(store, { limit: '2', after_id: 'file_a', before_id: 'file_c' }, CALL);
    expect(store.listCalls).toEqual([{ limit: 2, after_id: 'file_a', before_id: 'file_c' }]);
  });

  it('treats `page` (1.x next_page cursor) like after_id', async () => {
    const store = storeWithFiles();
    const first = (await listFiles(store, { limit: '2' }, CALL)).body as FilePage;
    expect(first.next_page).toBe('file_b');
    const second = (await listFiles(store, { limit: '2', page: first.next_page as string }, CALL)).body as FilePage;
    expect(store.listCalls[1]).toEqual({ limit: 2, after_id: 'file_b' });
    expect(second.data.map((file) => file.id)).toEqual(['file_c', 'file_d']);
    expect(second.next_page).toBe('file_d');
  });

  it('after_id wins over page when both are sent', async () => {
    const store = storeWithFiles();
    await listFiles(store, { after_id: 'file_a', page: 'file_b' }, CALL);
    expect(store.listCalls).toEqual([{ after_id: 'file_a' }]);
  });

  it('ignores unrelated query keys (?beta=true)', async () => {
    const store = storeWithFiles();
    await listFiles(store, { beta: 'true' }, CALL);
    expect(store.listCalls).toEqual([{}]);
  });

  it.each(['0', '1001', 'x', '1.5', ''])('limit %j → 400 before the store is asked', async (limit) => {
    const store = storeWithFiles();
    const error = await rejection(listFiles(store, { limit }, CALL));
    expect(error.status).toBe(400);
    expect(error.code).toBe('INVALID_REQUEST');
    expect(error.param).toBe('limit');
    expect(store.listCalls).toEqual([]);
  });
});

describe('GET /v1/files/{id}', () => {
  it('returns the metadata', async () => {
    const response = await retrieveFile(storeWithFiles(), 'file_a', CALL);
    expect(response).toMatchObject({ type: 'json', status: 200 });
    expect(response.body).toEqual(metadata('file_a', 'report.pdf', 'application/pdf', PDF.byteLength));
    expect(fileMetadataSchema.safeParse(response.body).success).toBe(true);
  });

  it('unknown id → 404 NOT_FOUND', async () => {
    expectNotFound(await rejection(retrieveFile(storeWithFiles(), 'file_zzz', CALL)), 'file_zzz');
  });
});

describe('GET /v1/files/{id}/content', () => {
  it("streams the bytes with the file's content type and length", async () => {
    const response = await fileContent(storeWithFiles(), 'file_a', CALL);
    expect(response.type).toBe('bytes');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-length']).toBe(String(PDF.byteLength));
    expect(Buffer.from(await collect(response.body)).equals(Buffer.from(PDF))).toBe(true);
  });

  it('text files keep their own type', async () => {
    const response = await fileContent(storeWithFiles(), 'file_b', CALL);
    expect(response.headers['content-type']).toBe('text/plain');
    expect(response.headers['content-length']).toBe('12');
    expect(new TextDecoder().decode(await collect(response.body))).toBe('hello, world');
  });

  it('content-disposition carries a header-safe filename', async () => {
    const plain = await fileContent(storeWithFiles(), 'file_a', CALL);
    expect(plain.headers['content-disposition']).toBe('attachment; filename="report.pdf"');
    const weird = await fileContent(storeWithFiles(), 'file_c', CALL);
    const disposition = weird.headers['content-disposition'] ?? '';
    expect(disposition).not.toMatch(/[\r\n]/);
    expect(disposition).toMatch(/^attachment; filename="we_ird__name_\.txt"(;|$)/);
    expect(() => validateHeaderValue('content-disposition', disposition)).not.toThrow();
  });

  it('non-ASCII filenames: an ASCII fallback plus RFC 8187 filename*, accepted by Node', async () => {
    const response = await fileContent(storeWithFiles(), 'file_d', CALL);
    const disposition = response.headers['content-disposition'] ?? '';
    expect(disposition).toMatch(/^[\x20-\x7e]*$/);
    expect(() => validateHeaderValue('content-disposition', disposition)).not.toThrow();
    expect(disposition).toBe(
      'attachment; filename="__ r_sum_\'s (1).pdf"; filename*=UTF-8\'\'%E6%97%A5%E6%9C%AC%20r%C3%A9sum%C3%A9%27s%20%281%29.pdf',
    );
    const encoded = disposition.split("filename*=UTF-8''")[1] ?? '';
    expect(decodeURIComponent(encoded)).toBe("日本 résumé's (1).pdf");
  });

  it('a filename with a lone surrogate still gives a valid header', async () => {
    const response = await fileContent(storeWithFiles(), 'file_e', CALL);
    const disposition = response.headers['content-disposition'] ?? '';
    expect(disposition).toBe('attachment; filename="bad_.txt"');
    expect(() => validateHeaderValue('content-disposition', disposition)).not.toThrow();
  });

  it('unknown id → 404 NOT_FOUND', async () => {
    expectNotFound(await rejection(fileContent(storeWithFiles(), 'file_zzz', CALL)), 'file_zzz');
  });
});

describe('DELETE /v1/files/{id}', () => {
  it('deletes and returns {id, type: file_deleted}; a second delete is 404', async () => {
    const store = storeWithFiles();
    const response = await deleteFile(store, 'file_b', CALL);
    expect(response).toMatchObject({ type: 'json', status: 200 });
    expect(response.body).toEqual({ id: 'file_b', type: 'file_deleted' });
    expect(fileDeletedSchema.safeParse(response.body).success).toBe(true);
    expect(store.files.has('file_b')).toBe(false);
    expectNotFound(await rejection(deleteFile(store, 'file_b', CALL)), 'file_b');
    expectNotFound(await rejection(retrieveFile(store, 'file_b', CALL)), 'file_b');
  });

  it('unknown id → 404 NOT_FOUND', async () => {
    expectNotFound(await rejection(deleteFile(storeWithFiles(), 'file_zzz', CALL)), 'file_zzz');
  });
});

describe('POST /v1/files', () => {
  it('is refused with 501 pointing at base64 document blocks', () => {
    let caught: unknown;
    try {
      refuseUpload();
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(GatewayError);
    const error = caught as GatewayError;
    expect(error.status).toBe(501);
    expect(error.code).toBe('NOT_IMPLEMENTED');
    expect(error.message).toContain('base64');
    expect(error.message).toContain('`document` blocks');
    expect(error.message).toContain('"type": "document"');
    const rendered = renderError(error, 'messages');
    expect(rendered.status).toBe(501);
    expect(rendered.headers['x-should-retry']).toBe('false');
    expect(rendered.body).toMatchObject({ type: 'error', error: { type: 'api_error' } });
  });
});
