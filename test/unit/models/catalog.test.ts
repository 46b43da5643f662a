import { describe, expect, it } from 'vitest';
import { createCatalog, DEFAULT_CATALOG, DEFAULT_MODELS, type ModelEntry } from '../../../src/models/catalog.js';
import { SPEC_MATRIX, SPEC_MODEL_IDS } from './spec-matrix.js';

describe("DEFAULT_CATALOG against the spec's model matrix", () => {
  it('holds exactly the twelve models of the matrix', () => {
    expect(DEFAULT_CATALOG.models).toHaveLength(12);
    expect(DEFAULT_MODELS).toHaveLength(12);
    expect([...DEFAULT_CATALOG.models.map((model) => model.id)].sort()).toEqual([...SPEC_MODEL_IDS].sort());
  });

  it('has no duplicate ids', () => {
    expect(new Set(DEFAULT_MODELS.map((model) => model.id)).size).toBe(12);
  });

  it.each(SPEC_MATRIX)('$id: temperature $temperature, thinking $thinking, caching $caching, min $minCacheableTokens', (row) => {
    const entry = DEFAULT_CATALOG.get(row.id);
    expect(entry).toBeDefined();
    expect(DEFAULT_CATALOG.has(row.id)).toBe(true);
    expect(entry?.temperature).toBe(row.temperature);
    expect(entry?.thinking).toBe(row.thinking);
    expect(entry?.caching).toBe(row.caching);
    expect(entry?.minCacheableTokens).toBe(row.minCacheableTokens);
  });

  it.each(SPEC_MATRIX)('$id has a display name and an ISO creation date', (row) => {
    const entry = DEFAULT_CATALOG.get(row.id);
    expect(entry?.displayName).toMatch(/^Vendora /);
    expect(entry?.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    expect(Number.isNaN(Date.parse(entry?.createdAt ?? ''))).toBe(false);
  });

  it('min cacheable tokens: 2048 for both haiku models, 1024 for the ten others', () => {
    const haiku = DEFAULT_MODELS.filter((model) => model.minCacheableTokens === 2048).map((model) => model.id);
    expect(haiku.sort()).toEqual(['vendora-haiku-4-5', 'vendora-haiku-4-5-20251001']);
    expect(DEFAULT_MODELS.filter((model) => model.minCacheableTokens === 1024)).toHaveLength(10);
  });

  it('does not know other ids (case-sensitive, no prefix matching)', () => {
    expect(DEFAULT_CATALOG.get('vendora-opus')).toBeUndefined();
    expect(DEFAULT_CATALOG.has('VENDORA-OPUS-5')).toBe(false);
    expect(DEFAULT_CATALOG.has('gpt-4o')).toBe(false);
    expect(DEFAULT_CATALOG.has('')).toBe(false);
  });
});

const custom: ModelEntry = {
  id: 'my-model',
  displayName: 'My Model',
  createdAt: '2026-09-01T00:00:00Z',
  temperature: 'accepted',
  thinking: 'none',
  caching: 'never',
  minCacheableTokens: 4096,
};

describe('createCatalog', () => {
  it('without options equals the defaults', () => {
    const catalog = createCatalog();
    expect(catalog.models.map((model) => model.id)).toEqual(DEFAULT_MODELS.map((model) => model.id));
  });

  it('extends the defaults with new ids', () => {
    const catalog = createCatalog({ models: [custom] });
    expect(catalog.models).toHaveLength(13);
    expect(catalog.get('my-model')).toEqual(custom);
    expect(catalog.has('vendora-opus-5')).toBe(true);
  });

  it('replaces a default entry with the same id, keeping the count', () => {
    const override: ModelEntry = { ...custom, id: 'vendora-opus-4-7', temperature: 'accepted', thinking: 'enabled' };
    const catalog = createCatalog({ models: [override] });
    expect(catalog.models).toHaveLength(12);
    expect(catalog.get('vendora-opus-4-7')).toEqual(override);
    expect(catalog.models.filter((model) => model.id === 'vendora-opus-4-7')).toHaveLength(1);
    // The shared default catalog is not affected.
    expect(DEFAULT_CATALOG.get('vendora-opus-4-7')?.temperature).toBe('rejected');
  });

  it('replace: true drops the defaults', () => {
    const catalog = createCatalog({ models: [custom], replace: true });
    expect(catalog.models).toEqual([custom]);
    expect(catalog.has('vendora-opus-5')).toBe(false);
    expect(catalog.get('vendora-sonnet-4-6')).toBeUndefined();
  });

  it('replace: true without models is empty', () => {
    const catalog = createCatalog({ replace: true });
    expect(catalog.models).toEqual([]);
    expect(catalog.has('vendora-fable-5')).toBe(false);
  });
});
