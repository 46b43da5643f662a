/**
 * The simulator's embeddings: the vector sizes OpenAI publishes for its
 * models (1536 for text-embedding-3-small and ada-002, 3072 for
 * text-embedding-3-large), unit length, determinism, `dimensions` as OpenAI
 * documents it (the shortened vector is the full one cut and normalised
 * again), base64 as little-endian float32, and usage in input tokens.
 */
import { describe, expect, it } from 'vitest';
import { createSimulator } from '../../../src/simulator/index.js';
import { chatErrorBodySchema, embeddingsResponseSchema, type EmbeddingsResponse } from '../../../src/schemas/index.js';
import { send } from './support/simulator-calls.js';

async function embed(body: Record<string, unknown>, simulator = createSimulator()): Promise<EmbeddingsResponse> {
  const answer = await send(simulator.upstreams.chat, 'embeddings', body);
  expect(answer.status).toBe(200);
  return embeddingsResponseSchema.parse(answer.json());
}

function floats(response: EmbeddingsResponse, index = 0): number[] {
  const embedding = response.data[index]?.embedding;
  if (!Array.isArray(embedding)) throw new Error('expected floats');
  return embedding;
}

const norm = (vector: readonly number[]): number => Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));

/** Decodes OpenAI's base64 embedding independently of the simulator: little-endian float32. */
function decodeBase64(text: string): number[] {
  const bytes = Buffer.from(text, 'base64');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Array.from({ length: bytes.byteLength / 4 }, (_, i) => view.getFloat32(i * 4, true));
}

describe('simulator embeddings', () => {
  it.each([
    ['text-embedding-3-small', 1536],
    ['text-embedding-3-large', 3072],
    ['text-embedding-ada-002', 1536],
  ])('%s returns unit vectors of %i components', async (model, size) => {
    const response = await embed({ model, input: 'The food was delicious and the waiter was friendly.' });
    expect(response.object).toBe('list');
    expect(response.model).toBe(model);
    expect(response.data).toHaveLength(1);
    expect(response.data[0]).toMatchObject({ object: 'embedding', index: 0 });
    expect(floats(response)).toHaveLength(size);
    expect(norm(floats(response))).toBeCloseTo(1, 5);
  });

  it('is deterministic across simulators, and different texts get different vectors', async () => {
    const body = { model: 'text-embedding-3-small', input: ['alpha', 'beta', 'alpha'] };
    const first = await embed(body);
    const again = await embed(body, createSimulator());
    expect(again.data).toEqual(first.data);
    expect(first.data.map((item) => item.index)).toEqual([0, 1, 2]);
    expect(floats(first, 2)).toEqual(floats(first, 0));
    expect(floats(first, 1)).not.toEqual(floats(first, 0));
    const other = await embed({ model: 'text-embedding-3-large', input: 'alpha' });
    expect(floats(other).slice(0, 1536)).not.toEqual(floats(first, 0));
  });

  it('embeds token ids, one list or several', async () => {
    const one = await embed({ model: 'text-embedding-3-small', input: [9906, 1917] });
    expect(one.data).toHaveLength(1);
    const many = await embed({ model: 'text-embedding-3-small', input: [[9906, 1917], [9906]] });
    expect(many.data).toHaveLength(2);
    expect(floats(many, 0)).toEqual(floats(one, 0));
    expect(one.usage).toEqual({ prompt_tokens: 2, total_tokens: 2 });
    expect(many.usage).toEqual({ prompt_tokens: 3, total_tokens: 3 });
  });

  it('shortens to `dimensions`: the full vector cut to that length and normalised again', async () => {
    const full = floats(await embed({ model: 'text-embedding-3-large', input: 'shorten me' }));
    const short = floats(await embed({ model: 'text-embedding-3-large', input: 'shorten me', dimensions: 256 }));
    expect(short).toHaveLength(256);
    expect(norm(short)).toBeCloseTo(1, 5);
    const cut = full.slice(0, 256);
    const cutNorm = norm(cut);
    short.forEach((value, i) => expect(value).toBeCloseTo(cut[i]! / cutNorm, 6));
  });

  it('base64 carries the same float32 numbers as float', async () => {
    const body = { model: 'text-embedding-3-small', input: ['one', 'two'] };
    const asFloats = await embed({ ...body, encoding_format: 'float' });
    const asBase64 = await embed({ ...body, encoding_format: 'base64' });
    for (const index of [0, 1]) {
      const text = asBase64.data[index]?.embedding;
      expect(typeof text).toBe('string');
      expect(decodeBase64(text as string)).toEqual(floats(asFloats, index));
    }
  });

  it('counts the inputs\' tokens as usage (cl100k: "Hello world" is 2 tokens)', async () => {
    expect((await embed({ model: 'text-embedding-3-small', input: 'Hello world' })).usage).toEqual({ prompt_tokens: 2, total_tokens: 2 });
    expect((await embed({ model: 'text-embedding-3-small', input: ['Hello world', 'Hello world'] })).usage).toEqual({ prompt_tokens: 4, total_tokens: 4 });
  });

  it.each([
    ['an unknown model', { model: 'gpt-4o', input: 'x' }, 404, 'model_not_found'],
    ['dimensions on ada-002', { model: 'text-embedding-ada-002', input: 'x', dimensions: 256 }, 400, 'invalid_value'],
    ['more dimensions than the model has', { model: 'text-embedding-3-small', input: 'x', dimensions: 2000 }, 400, 'invalid_value'],
    ['an empty input', { model: 'text-embedding-3-small', input: '' }, 400, null],
  ])('refuses %s in the chat error shape', async (_, body, status, code) => {
    const answer = await send(createSimulator().upstreams.chat, 'embeddings', body);
    expect(answer.status).toBe(status);
    const error = chatErrorBodySchema.parse(answer.json()).error;
    expect(error.code).toBe(code);
  });
});

describe('the simulator bounds what one embeddings request costs the host', () => {
  it('answers 2,048 inputs at 512 dimensions (1,048,576 numbers) and refuses 2,048 at 3,072 with the fix', async () => {
    const { renderEmbeddings, MAX_SIMULATED_NUMBERS } = await import('../../../src/simulator/embeddings-reply.js');
    expect(MAX_SIMULATED_NUMBERS).toBe(2048 * 512);
    const inputs = Array.from({ length: 2048 }, (_, i) => `text ${i}`);
    expect(renderEmbeddings({ model: 'text-embedding-3-large', input: inputs, dimensions: 512 }).data).toHaveLength(2048);
    expect(() => renderEmbeddings({ model: 'text-embedding-3-large', input: inputs })).toThrow(/at most 1048576 numbers per request .* 2048 × 3072/);
  });
});
