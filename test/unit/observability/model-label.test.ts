import { describe, expect, it } from 'vitest';
import { DEFAULT_CATALOG } from '../../../src/models/catalog.js';
import { createModelLabel, routeLabel } from '../../../src/observability/model-label.js';
import { createRouter, type Route } from '../../../src/routing/routes.js';
import type { Upstream } from '../../../src/upstreams/upstream.js';

const upstream: Upstream = { name: 'u', format: 'chat', send: () => Promise.reject(new Error('not used')) };

describe('routeLabel', () => {
  it('a glob or exact id as written, a regular expression as its literal, a predicate by its position', () => {
    expect(routeLabel({ match: 'gpt-*', upstream }, 0)).toBe('gpt-*');
    expect(routeLabel({ match: 'gpt-4o', upstream }, 1)).toBe('gpt-4o');
    expect(routeLabel({ match: /^gpt-/i, upstream }, 2)).toBe('/^gpt-/i');
    expect(routeLabel({ match: () => true, upstream }, 3)).toBe('route:3');
  });
});

describe('createModelLabel', () => {
  const list: Route[] = [
    { match: 'house-model', upstream },
    { match: 'vendora-*', upstream },
    // A rename that fails for some ids: labelling must not.
    { match: (model) => model.startsWith('odd-'), upstream, model: (model) => { if (model === 'odd-crash') throw new Error('rename failed'); return model; } },
    { match: 'gpt-*', upstream },
  ];
  const label = createModelLabel({ catalog: DEFAULT_CATALOG, routedIds: new Set(['house-model']), routes: { list, router: createRouter(list) } });

  it('by name, then by the first route that serves the id, then undefined', () => {
    expect(label('vendora-opus-4-8')).toBe('vendora-opus-4-8');
    expect(label('house-model')).toBe('house-model');
    expect(label('gpt-4o')).toBe('gpt-*');
    expect(label('odd-one')).toBe('route:2');
    expect(label('unrouted')).toBeUndefined();
  });

  it('uses the route the request resolved to when there is one', () => {
    expect(label('anything', list[3])).toBe('gpt-*');
  });

  it('a route not from the configuration (the embedded simulator) gives no label', () => {
    expect(label('gpt-4o', { match: '*', upstream })).toBeUndefined();
  });

  it('a route function that throws for an id leaves it unlabelled instead of failing', () => {
    expect(() => label('odd-crash')).not.toThrow();
    expect(label('odd-crash')).toBeUndefined();
  });

  it('without configured routes: catalog models by name, the rest undefined', () => {
    const simulatorOnly = createModelLabel({ catalog: DEFAULT_CATALOG, routedIds: new Set() });
    expect(simulatorOnly('vendora-haiku-4-5')).toBe('vendora-haiku-4-5');
    expect(simulatorOnly('gpt-4o')).toBeUndefined();
  });
});

describe('createModelLabel for upstream model ids', () => {
  const list: Route[] = [
    { match: 'house-*', upstream, model: 'house-deployment-7', fallbacks: [{ upstream, model: 'backup-deployment' }, upstream] },
    { match: 'pool', targets: [{ upstream, model: 'pool-east' }, { upstream, model: (id) => `${id}-west` }] },
    { match: '*', upstream },
  ];
  const label = createModelLabel({ catalog: DEFAULT_CATALOG, routedIds: new Set(['pool']), routes: { list, router: createRouter(list) } });

  it('names a fixed id a route renames to (route, targets, fallbacks) by itself', () => {
    expect(label('house-deployment-7', list[0])).toBe('house-deployment-7');
    expect(label('backup-deployment', list[0])).toBe('backup-deployment');
    expect(label('pool-east', list[1])).toBe('pool-east');
  });

  it('labels an id a function or the caller chose by its route', () => {
    expect(label('pool-west', list[1])).toBe('pool');
    expect(label('x'.repeat(100_000), list[2])).toBe('*');
  });
});
