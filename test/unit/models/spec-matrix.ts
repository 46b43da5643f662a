/**
 * The spec's model matrix typed in by hand, independently of
 * `src/models/catalog.ts`, so the tests can catch a wrong matrix.
 *
 * temperature: 'accepted' (blank cell), 'rejected', or 'deprecated'
 * ("deprecated (rejected)"); both of the latter are hard 400 errors.
 */
export interface SpecRow {
  id: string;
  temperature: 'accepted' | 'rejected' | 'deprecated';
  thinking: 'enabled' | 'adaptive' | 'none';
  caching: 'reliable' | 'intermittent' | 'never';
  /** 2048 for the small (haiku) models, 1024 otherwise (the spec's limits). */
  minCacheableTokens: 1024 | 2048;
}

export const SPEC_MATRIX: readonly SpecRow[] = [
  { id: 'vendora-fable-5', temperature: 'deprecated', thinking: 'none', caching: 'intermittent', minCacheableTokens: 1024 },
  { id: 'vendora-haiku-4-5', temperature: 'accepted', thinking: 'enabled', caching: 'never', minCacheableTokens: 2048 },
  { id: 'vendora-haiku-4-5-20251001', temperature: 'accepted', thinking: 'enabled', caching: 'never', minCacheableTokens: 2048 },
  { id: 'vendora-opus-4-5-20251101', temperature: 'accepted', thinking: 'enabled', caching: 'never', minCacheableTokens: 1024 },
  { id: 'vendora-opus-4-6', temperature: 'accepted', thinking: 'enabled', caching: 'never', minCacheableTokens: 1024 },
  { id: 'vendora-opus-4-7', temperature: 'rejected', thinking: 'none', caching: 'never', minCacheableTokens: 1024 },
  { id: 'vendora-opus-4-8', temperature: 'rejected', thinking: 'adaptive', caching: 'reliable', minCacheableTokens: 1024 },
  { id: 'vendora-opus-5', temperature: 'deprecated', thinking: 'adaptive', caching: 'intermittent', minCacheableTokens: 1024 },
  { id: 'vendora-sonnet-4-5', temperature: 'accepted', thinking: 'enabled', caching: 'intermittent', minCacheableTokens: 1024 },
  { id: 'vendora-sonnet-4-5-20250929', temperature: 'accepted', thinking: 'enabled', caching: 'reliable', minCacheableTokens: 1024 },
  { id: 'vendora-sonnet-4-6', temperature: 'accepted', thinking: 'enabled', caching: 'reliable', minCacheableTokens: 1024 },
  { id: 'vendora-sonnet-5', temperature: 'deprecated', thinking: 'adaptive', caching: 'reliable', minCacheableTokens: 1024 },
];

export const SPEC_MODEL_IDS: readonly string[] = SPEC_MATRIX.map((row) => row.id);
