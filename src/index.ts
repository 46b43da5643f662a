/**
 * modelgate: the framework-free core.
 */
export * from './types.js';
export * from './errors.js';
export * from './render-error.js';
export * from './models/catalog.js';
export type * from './upstreams/upstream.js';
export type * from './files/file-store.js';
