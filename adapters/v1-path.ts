/** Where the gateway's own paths start in a URL the framework did not strip. */

/**
 * The path and query from the first `/v1` segment on
 * (`/api/v1/models?limit=5` → `/v1/models?limit=5`); paths without one are
 * returned unchanged (the gateway answers 404 for them).
 */
export function fromV1Segment(pathAndQuery: string): string {
  const mark = pathAndQuery.indexOf('?');
  const path = mark === -1 ? pathAndQuery : pathAndQuery.slice(0, mark);
  if (path.startsWith('/v1/') || path === '/v1') return pathAndQuery;
  const at = path.indexOf('/v1/');
  if (at !== -1) return pathAndQuery.slice(at);
  if (path.endsWith('/v1')) return pathAndQuery.slice(path.length - 3);
  return pathAndQuery;
}

/** True for `/v1` and the paths under it: what the Express and Koa gateways serve (other paths are the app's). */
export function isV1Path(path: string): boolean {
  return path.startsWith('/v1/') || path === '/v1';
}
