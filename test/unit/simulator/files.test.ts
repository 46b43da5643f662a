import { describe, expect, it } from 'vitest';
import { createSimulator, DEFAULT_SEED_FILES } from '../../../src/simulator/index.js';
import { fileDeletedSchema, fileListSchema, fileMetadataSchema, messagesErrorBodySchema } from '../../../src/schemas/index.js';
import { send } from './support/simulator-calls.js';

const list = async (sim: ReturnType<typeof createSimulator>, query: Record<string, string> = {}) =>
  fileListSchema.parse((await send(sim.upstreams.messages, 'files.list', undefined, { query })).json());

describe('simulator files', () => {
  it('starts with the seed files, newest first, a PDF among them', async () => {
    const page = await list(createSimulator());
    expect(page.data.map((file) => file.filename)).toEqual(['swatch.png', 'meeting-notes.txt', 'quarterly-report.pdf']);
    expect(page).toMatchObject({ has_more: false, first_id: page.data[0]?.id, last_id: page.data[2]?.id, next_page: null });
    expect(page.data.find((file) => file.mime_type === 'application/pdf')).toBeDefined();
  });

  it('pages with limit, after_id and before_id', async () => {
    const sim = createSimulator();
    const first = await list(sim, { limit: '2' });
    expect(first.data).toHaveLength(2);
    expect(first.has_more).toBe(true);
    expect(first.next_page).toBe(first.last_id);
    const second = await list(sim, { limit: '2', after_id: first.last_id ?? '' });
    expect(second.data.map((file) => file.filename)).toEqual(['quarterly-report.pdf']);
    expect(second.has_more).toBe(false);
    const back = await list(sim, { limit: '1', before_id: second.first_id ?? '' });
    expect(back.data.map((file) => file.filename)).toEqual(['meeting-notes.txt']);
    expect(back.has_more).toBe(true);
    const cursor = await list(sim, { limit: '2', page: first.next_page ?? '' });
    expect(cursor.data.map((file) => file.id)).toEqual(second.data.map((file) => file.id));
  });

  it('rejects a limit outside 1..1000', async () => {
    const answer = await send(createSimulator().upstreams.messages, 'files.list', undefined, { query: { limit: '0' } });
    expect(answer.status).toBe(400);
    expect(messagesErrorBodySchema.parse(answer.json()).error.message).toContain('limit');
  });

  it('serves metadata and content bytes with the file’s content type', async () => {
    const sim = createSimulator();
    const pdf = DEFAULT_SEED_FILES[0];
    const id = pdf?.id ?? '';
    const metadata = fileMetadataSchema.parse((await send(sim.upstreams.messages, 'files.retrieve', undefined, { id })).json());
    expect(metadata).toMatchObject({ type: 'file', id, filename: 'quarterly-report.pdf', mime_type: 'application/pdf', downloadable: true });
    const content = await send(sim.upstreams.messages, 'files.content', undefined, { id });
    expect(content.status).toBe(200);
    expect(content.headers['content-type']).toBe('application/pdf');
    expect(content.text.startsWith('%PDF-1.4')).toBe(true);
    expect(content.text.trimEnd().endsWith('%%EOF')).toBe(true);
    expect(Number(content.headers['content-length'])).toBe(metadata.size_bytes);
  });

  it('deletes a file, then answers 404 for it; reset() brings it back', async () => {
    const sim = createSimulator();
    const id = DEFAULT_SEED_FILES[1]?.id ?? '';
    const deleted = fileDeletedSchema.parse((await send(sim.upstreams.messages, 'files.delete', undefined, { id })).json());
    expect(deleted).toEqual({ id, type: 'file_deleted' });
    for (const operation of ['files.retrieve', 'files.content', 'files.delete'] as const) {
      const answer = await send(sim.upstreams.messages, operation, undefined, { id });
      expect(answer.status).toBe(404);
      expect(messagesErrorBodySchema.parse(answer.json()).error.type).toBe('not_found_error');
    }
    expect((await list(sim)).data).toHaveLength(2);
    sim.reset();
    expect((await list(sim)).data).toHaveLength(3);
  });

  it('takes custom seeds or none, and exposes the same store as `files`', async () => {
    const empty = createSimulator({ files: false });
    expect((await list(empty)).data).toEqual([]);
    const custom = createSimulator({ files: [{ filename: 'a.txt', mimeType: 'text/plain', content: 'hello' }] });
    const [file] = (await custom.files.list({})).data;
    expect(file).toMatchObject({ filename: 'a.txt', size_bytes: 5, mime_type: 'text/plain' });
    const content = await send(custom.upstreams.messages, 'files.content', undefined, { id: file?.id ?? '' });
    expect(content.text).toBe('hello');
    expect(content.headers['content-type']).toBe('text/plain');
  });

  it('refuses content of a file that is not downloadable', async () => {
    const sim = createSimulator({ files: [{ id: 'file_locked', filename: 'x.pdf', mimeType: 'application/pdf', content: 'x', downloadable: false }] });
    expect((await send(sim.upstreams.messages, 'files.content', undefined, { id: 'file_locked' })).status).toBe(400);
  });
});
