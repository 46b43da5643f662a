/**
 * The non-model endpoints through the official clients, on every mount:
 * count_tokens on all twelve models, model listing and retrieval with both
 * clients, files (0.x-style beta and 1.x GA), refused upload, and the
 * batches paths that do not exist.
 */
import Anthropic, { toFile } from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { DEFAULT_SEED_FILES } from 'modelgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicClient, AUTH, failure, openAIClient, VENDOR_MODELS } from '../helpers/e2e-fixtures.js';
import { MOUNTS, type StartedApp, startApp } from '../helpers/start-app.js';
import { BATCHES_NOT_FOUND, enabledOnAdaptive } from '../helpers/expected-rule-errors.js';

interface SeedFile {
  id: string;
  filename: string;
  mimeType: string;
  bytes: Buffer;
}

function seed(type: string): SeedFile {
  const file = DEFAULT_SEED_FILES.find((candidate) => candidate.mimeType === type);
  if (!file?.id) throw new Error(`no ${type} seed file`);
  return { id: file.id, filename: file.filename, mimeType: file.mimeType, bytes: Buffer.from(file.content) };
}

const pdf = seed('application/pdf');
const notes = seed('text/plain');
const png = seed('image/png');

describe.each(MOUNTS)('resources on %s', (mount) => {
  let app: StartedApp;
  let anthropic: Anthropic;
  let openai: OpenAI;

  beforeAll(async () => {
    // Each mount gets its own gateway, so its own simulator file store: deletes stay local.
    app = await startApp(mount, { auth: AUTH });
    anthropic = anthropicClient(app.url);
    openai = openAIClient(app.url);
  });
  afterAll(() => app.close());

  describe('count_tokens', () => {
    const messages = [{ role: 'user' as const, content: 'How many tokens is this sentence, roughly?' }];

    it.each(VENDOR_MODELS)('counts for %s, more with a system prompt and tools', async (model) => {
      const plain = await anthropic.messages.countTokens({ model, messages });
      expect(plain.input_tokens).toBeGreaterThan(5);
      const more = await anthropic.messages.countTokens({
        model,
        system: 'You are a careful assistant who answers in French.',
        tools: [{ name: 'lookup', description: 'Looks a word up', input_schema: { type: 'object', properties: { word: { type: 'string' } } } }],
        messages,
      });
      expect(more.input_tokens).toBeGreaterThan(plain.input_tokens);
    });

    it('applies the model rules (thinking.enabled on an adaptive model → 400)', async () => {
      const error = await failure(() =>
        anthropic.messages.countTokens({ model: 'vendora-opus-4-8', thinking: { type: 'enabled', budget_tokens: 1024 }, messages }),
      );
      expect(error).toBeInstanceOf(Anthropic.BadRequestError);
      expect((error as { error: { error: { type: string; message: string } } }).error.error.message).toBe(enabledOnAdaptive('vendora-opus-4-8'));
    });

    it('an unknown model → NotFoundError', async () => {
      const error = await failure(() => anthropic.messages.countTokens({ model: 'gpt-4o', messages }));
      expect(error).toBeInstanceOf(Anthropic.NotFoundError);
    });
  });

  describe('models', () => {
    it('openai: models.list() holds the twelve models and the simulator\'s embedding models in the chat shape', async () => {
      const ids: string[] = [];
      for await (const model of openai.models.list()) {
        expect(model.object).toBe('model');
        expect(typeof model.created).toBe('number');
        ids.push(model.id);
      }
      expect(ids.sort()).toEqual([...VENDOR_MODELS, 'text-embedding-3-large', 'text-embedding-3-small', 'text-embedding-ada-002'].sort());
      const one = await openai.models.retrieve('vendora-opus-4-8');
      expect(one.id).toBe('vendora-opus-4-8');
      expect(one.owned_by).toEqual(expect.any(String));
    });

    it('anthropic: models.list({ limit: 5 }) auto-paginates through all twelve, newest first', async () => {
      const first = await anthropic.models.list({ limit: 5 });
      expect(first.data).toHaveLength(5);
      expect(first.has_more).toBe(true);
      const all: Anthropic.ModelInfo[] = [];
      for await (const model of anthropic.models.list({ limit: 5 })) all.push(model);
      expect(all.map((model) => model.id).sort()).toEqual([...VENDOR_MODELS].sort());
      expect(new Set(all.map((model) => model.id)).size).toBe(12);
      const created = all.map((model) => Date.parse(model.created_at));
      expect(created).toEqual([...created].sort((a, b) => b - a));
      for (const model of all) expect(model.type).toBe('model');
    });

    it('anthropic: models.retrieve, and NotFoundError for an unknown id', async () => {
      const model = await anthropic.models.retrieve('vendora-sonnet-4-6');
      expect(model.id).toBe('vendora-sonnet-4-6');
      expect(model.display_name).toEqual(expect.any(String));
      expect(await failure(() => anthropic.models.retrieve('vendora-unknown'))).toBeInstanceOf(Anthropic.NotFoundError);
      expect(await failure(() => openai.models.retrieve('vendora-unknown'))).toBeInstanceOf(OpenAI.NotFoundError);
    });
  });

  describe('files', () => {
    it('beta.files (?beta=true): list, metadata, download (bytes and content type)', async () => {
      const listed = [];
      for await (const file of anthropic.beta.files.list()) listed.push(file.id);
      expect(listed).toEqual(expect.arrayContaining([pdf.id, notes.id, png.id]));
      const metadata = await anthropic.beta.files.retrieveMetadata(pdf.id);
      expect(metadata).toMatchObject({ id: pdf.id, filename: pdf.filename, mime_type: 'application/pdf', size_bytes: pdf.bytes.length });
      const download = await anthropic.beta.files.download(pdf.id);
      expect(download.headers.get('content-type')).toBe('application/pdf');
      expect(Buffer.from(await download.arrayBuffer()).equals(pdf.bytes)).toBe(true);
    });

    it('files (1.x GA): list with a page size, metadata, download', async () => {
      const page = await anthropic.files.list({ limit: 1 });
      expect(page.data).toHaveLength(1);
      const all = [];
      for await (const file of anthropic.files.list({ limit: 1 })) all.push(file.id);
      expect(new Set(all).size).toBe(all.length);
      expect(all).toEqual(expect.arrayContaining([pdf.id, notes.id, png.id]));
      const metadata = await anthropic.files.retrieveMetadata(png.id);
      expect(metadata.mime_type).toBe('image/png');
      const download = await anthropic.files.download(notes.id);
      expect(download.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await download.text()).toBe(notes.bytes.toString('utf8'));
    });

    it('delete (both forms), then the id is NotFoundError everywhere', async () => {
      const deleted = await anthropic.beta.files.delete(png.id);
      expect(deleted).toMatchObject({ id: png.id, type: 'file_deleted' });
      expect(await failure(() => anthropic.beta.files.retrieveMetadata(png.id))).toBeInstanceOf(Anthropic.NotFoundError);
      expect(await failure(() => anthropic.files.download(png.id))).toBeInstanceOf(Anthropic.NotFoundError);
      expect(await failure(() => anthropic.files.delete(png.id))).toBeInstanceOf(Anthropic.NotFoundError);
      const gaDeleted = await anthropic.files.delete(notes.id);
      expect(gaDeleted.id).toBe(notes.id);
      const left = [];
      for await (const file of anthropic.files.list()) left.push(file.id);
      expect(left).toEqual([pdf.id]);
    });

    it('an unknown id → NotFoundError', async () => {
      const error = await failure(() => anthropic.beta.files.retrieveMetadata('file_nope'));
      expect(error).toBeInstanceOf(Anthropic.NotFoundError);
      expect((error as { error: { error: { type: string } } }).error.error.type).toBe('not_found_error');
    });

    it.each(['beta', 'ga'] as const)('upload (%s) is refused with 501 pointing at base64 document blocks', async (form) => {
      const file = await toFile(Buffer.from('%PDF-1.4 tiny'), 'doc.pdf', { type: 'application/pdf' });
      const error = await failure(() => (form === 'beta' ? anthropic.beta.files.upload({ file }) : anthropic.files.upload({ file })));
      expect(error).toBeInstanceOf(Anthropic.APIError);
      expect((error as { status: number }).status).toBe(501);
      expect((error as { headers: Headers }).headers.get('x-should-retry')).toBe('false');
      expect((error as Error).message).toMatch(/base64 `document` blocks/);
    });
  });

  describe('batches do not exist', () => {
    const params = {
      requests: [{ custom_id: 'a', params: { model: 'vendora-sonnet-4-6', max_tokens: 8, messages: [{ role: 'user' as const, content: 'hi' }] } }],
    };
    it.each([
      ['create', (client: Anthropic) => client.messages.batches.create(params)],
      ['list', (client: Anthropic) => client.messages.batches.list()],
      ['retrieve', (client: Anthropic) => client.messages.batches.retrieve('msgbatch_01')],
      ['cancel', (client: Anthropic) => client.messages.batches.cancel('msgbatch_01')],
      ['delete', (client: Anthropic) => client.messages.batches.delete('msgbatch_01')],
      ['results', (client: Anthropic) => client.messages.batches.results('msgbatch_01')],
      ['beta create', (client: Anthropic) => client.beta.messages.batches.create(params)],
    ])('messages.batches.%s → NotFoundError', async (_name, call) => {
      const error = await failure(() => call(anthropic));
      expect(error).toBeInstanceOf(Anthropic.NotFoundError);
      expect((error as { error: { error: { message: string } } }).error.error.message).toBe(BATCHES_NOT_FOUND);
    });
  });
});
