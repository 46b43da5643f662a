/**
 * The state both faces share: catalog, prompt cache, file store, fault
 * rules, pacing, clock and the id sequence.
 */
import { DEFAULT_CATALOG, type Catalog } from '../models/catalog.js';
import { createFaultPicker, type FaultPicker } from './faults.js';
import { createMemoryFileStore, type MemoryFileStore } from './memory-file-store.js';
import { createPromptCache, type PromptCache } from './prompt-cache.js';
import { createRandom, randomToken, type Random } from './random.js';
import type { Pace } from './response-body.js';
import { DEFAULT_SEED_FILES } from './seed-files.js';
import type { SimulatorOptions } from './simulator-options.js';

/** @internal The shared engine state. */
export interface Engine {
  catalog: Catalog;
  cache: PromptCache;
  files: MemoryFileStore;
  faults: FaultPicker;
  pace: Pace | undefined;
  now: () => number;
  /** A fresh id: `prefix` + 24 base62 characters (a fixed sequence after each reset). */
  newId(prefix: string): string;
  reset(): void;
}

const ID_SEED = 0x51d0;

/** @internal */
export function createEngine(options: SimulatorOptions = {}): Engine {
  const now = options.now ?? Date.now;
  let ids: Random = createRandom(ID_SEED);
  const engine: Engine = {
    catalog: options.catalog ?? DEFAULT_CATALOG,
    cache: createPromptCache(now),
    files: createMemoryFileStore(options.files === false ? [] : (options.files ?? DEFAULT_SEED_FILES)),
    faults: createFaultPicker(options.faults ?? []),
    pace: options.pace,
    now,
    newId: (prefix) => `${prefix}${randomToken(ids, 24)}`,
    reset() {
      engine.cache.clear();
      engine.faults.reset();
      engine.files.reset();
      ids = createRandom(ID_SEED);
    },
  };
  return engine;
}
