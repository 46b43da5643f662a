/**
 * The model matrix (features of the twelve messages-interface models) as
 * data: the one source of truth read by the model rules, the model listing
 * and the simulator.
 *
 * Users can replace or extend it with `createCatalog` / the gateway's
 * `catalog` option.
 */

/** How a model treats `temperature` on the messages interface. */
export type TemperatureSupport = 'accepted' | 'rejected' | 'deprecated';
/** Which `thinking` form a model takes. */
export type ThinkingMode = 'enabled' | 'adaptive' | 'none';
/** How prompt caching behaved when measured. */
export type CachingClass = 'reliable' | 'intermittent' | 'never';

export interface ModelEntry {
  /** Model id as callers send it. */
  id: string;
  /** Human-readable name for listings. */
  displayName: string;
  /** Creation date for listings (ISO 8601). */
  createdAt: string;
  temperature: TemperatureSupport;
  thinking: ThinkingMode;
  caching: CachingClass;
  /** Minimum cacheable prefix in tokens. */
  minCacheableTokens: number;
}

/** A lookup over model entries. */
export interface Catalog {
  readonly models: readonly ModelEntry[];
  get(id: string): ModelEntry | undefined;
  has(id: string): boolean;
}

const FAMILY = 'vendora';

interface Row {
  name: string;
  temperature: TemperatureSupport;
  thinking: ThinkingMode;
  caching: CachingClass;
  createdAt: string;
}

/** The model matrix, measured on 15 August 2026, in its published order. */
const MATRIX: readonly Row[] = [
  { name: 'fable-5', temperature: 'deprecated', thinking: 'none', caching: 'intermittent', createdAt: '2026-06-01T00:00:00Z' },
  { name: 'haiku-4-5', temperature: 'accepted', thinking: 'enabled', caching: 'never', createdAt: '2025-10-01T00:00:00Z' },
  { name: 'haiku-4-5-20251001', temperature: 'accepted', thinking: 'enabled', caching: 'never', createdAt: '2025-10-01T00:00:00Z' },
  { name: 'opus-4-5-20251101', temperature: 'accepted', thinking: 'enabled', caching: 'never', createdAt: '2025-11-01T00:00:00Z' },
  { name: 'opus-4-6', temperature: 'accepted', thinking: 'enabled', caching: 'never', createdAt: '2026-02-05T00:00:00Z' },
  { name: 'opus-4-7', temperature: 'rejected', thinking: 'none', caching: 'never', createdAt: '2026-04-16T00:00:00Z' },
  { name: 'opus-4-8', temperature: 'rejected', thinking: 'adaptive', caching: 'reliable', createdAt: '2026-06-10T00:00:00Z' },
  { name: 'opus-5', temperature: 'deprecated', thinking: 'adaptive', caching: 'intermittent', createdAt: '2026-08-01T00:00:00Z' },
  { name: 'sonnet-4-5', temperature: 'accepted', thinking: 'enabled', caching: 'intermittent', createdAt: '2025-09-29T00:00:00Z' },
  { name: 'sonnet-4-5-20250929', temperature: 'accepted', thinking: 'enabled', caching: 'reliable', createdAt: '2025-09-29T00:00:00Z' },
  { name: 'sonnet-4-6', temperature: 'accepted', thinking: 'enabled', caching: 'reliable', createdAt: '2026-02-17T00:00:00Z' },
  { name: 'sonnet-5', temperature: 'deprecated', thinking: 'adaptive', caching: 'reliable', createdAt: '2026-08-01T00:00:00Z' },
];

function displayNameOf(name: string): string {
  const [family = '', ...rest] = name.split('-');
  const version = rest.filter((part) => part.length < 8).join('.');
  return `Vendora ${family.charAt(0).toUpperCase()}${family.slice(1)} ${version}`.trim();
}

/** The twelve messages-interface models of the model matrix. */
export const DEFAULT_MODELS: readonly ModelEntry[] = MATRIX.map((row) => ({
  id: `${FAMILY}-${row.name}`,
  displayName: displayNameOf(row.name),
  createdAt: row.createdAt,
  temperature: row.temperature,
  thinking: row.thinking,
  caching: row.caching,
  // 2048 tokens for the small (haiku) models, 1024 otherwise.
  minCacheableTokens: row.name.startsWith('haiku') ? 2048 : 1024,
}));

/**
 * Builds a catalog. Entries in `models` replace default entries with the
 * same id and add the others; pass `replace: true` to drop the defaults.
 *
 * @example
 * const catalog = createCatalog({ models: [{ ...DEFAULT_MODELS[0], id: 'my-model' }] });
 */
export function createCatalog(options: { models?: readonly ModelEntry[]; replace?: boolean } = {}): Catalog {
  const byId = new Map<string, ModelEntry>();
  if (!options.replace) for (const entry of DEFAULT_MODELS) byId.set(entry.id, entry);
  for (const entry of options.models ?? []) byId.set(entry.id, entry);
  const models = [...byId.values()];
  return {
    models,
    get: (id) => byId.get(id),
    has: (id) => byId.has(id),
  };
}

/** The default catalog: the twelve models of the model matrix. */
export const DEFAULT_CATALOG: Catalog = createCatalog();
