import { describe, expect, it } from 'vitest';
import { createCatalog, DEFAULT_CATALOG } from '../../../src/models/catalog.js';
import { editDistance } from '../../../src/edit-distance.js';
import { suggestModels } from '../../../src/models/suggest-models.js';

describe('editDistance', () => {
  it.each([
    ['kitten', 'sitting', 3],
    ['sonnet', 'sonet', 1],
    ['sonnet', 'snonet', 1],
    ['ca', 'abc', 3],
    ['', 'abc', 3],
    ['same', 'same', 0],
  ])('%s → %s: %i (capped at the limit + 1)', (a, b, distance) => {
    expect(editDistance(a, b, 10)).toBe(distance);
    expect(editDistance(a, b, 1)).toBe(Math.min(distance, 2));
  });
});

describe('suggestModels', () => {
  it('suggests the catalog id one or two edits away', () => {
    expect(suggestModels('vendora-sonet-4-6', DEFAULT_CATALOG)).toEqual(['vendora-sonnet-4-6']);
    expect(suggestModels('vendora-sonnett-4-6', DEFAULT_CATALOG)).toEqual(['vendora-sonnet-4-6']);
    expect(suggestModels('vendora-haiku-45', DEFAULT_CATALOG)).toEqual(['vendora-haiku-4-5']);
    expect(suggestModels('vendor-fable5', DEFAULT_CATALOG)).toEqual(['vendora-fable-5']);
  });

  it('ignores letter case', () => {
    expect(suggestModels('VENDORA-OPUS-4-8', DEFAULT_CATALOG)).toEqual(['vendora-opus-4-8']);
  });

  it('lists every equally close id, in catalog order, and only the closest', () => {
    expect(suggestModels('vendora-opus-4-9', DEFAULT_CATALOG)).toEqual(['vendora-opus-4-6', 'vendora-opus-4-7', 'vendora-opus-4-8']);
    // One edit from sonnet-4-6, two from sonnet-4-5: the closer one alone.
    expect(suggestModels('vendora-sonnet-4-66', DEFAULT_CATALOG)).toEqual(['vendora-sonnet-4-6']);
  });

  it('none for an exact id, a far id, or three edits away', () => {
    for (const id of DEFAULT_CATALOG.models.map((model) => model.id)) expect(suggestModels(id, DEFAULT_CATALOG)).toEqual([]);
    expect(suggestModels('gpt-4o', DEFAULT_CATALOG)).toEqual([]);
    expect(suggestModels('sonnet-4-6', DEFAULT_CATALOG)).toEqual([]);
    expect(suggestModels('vendora-snt-4-6', DEFAULT_CATALOG)).toEqual([]);
  });

  it('reads the catalog it is given', () => {
    const catalog = createCatalog({ models: [{ ...DEFAULT_CATALOG.models[0]!, id: 'acme-large' }], replace: true });
    expect(suggestModels('acme-lrage', catalog)).toEqual(['acme-large']);
    expect(suggestModels('vendora-sonet-4-6', catalog)).toEqual([]);
  });
});
