/**
 * Vertex AI's URLs for the vendor's models: the base by location (the
 * `global` endpoint, the `us` / `eu` multi-regions, or a region), and the
 * `publishers/anthropic/models/{model}:{method}` paths under a project.
 *
 * @internal
 */

/** `https://aiplatform.googleapis.com/v1` (global), `https://aiplatform.{us|eu}.rep.googleapis.com/v1`, or `https://{region}-aiplatform.googleapis.com/v1`. */
export function vertexBaseURL(region: string): string {
  if (region === 'global') return 'https://aiplatform.googleapis.com/v1';
  if (region === 'us' || region === 'eu') return `https://aiplatform.${region}.rep.googleapis.com/v1`;
  return `https://${region}-aiplatform.googleapis.com/v1`;
}

/**
 * One path segment: percent-encoded, except `@` (a legal path character,
 * in every dated model id: `claude-sonnet-4-5@20250929`). `:` stays
 * encoded, so it cannot be read as the method suffix.
 */
export function pathSegment(value: string): string {
  return encodeURIComponent(value).replace(/%40/g, '@');
}

/** The path (after the base) of `method` on `model`: `/projects/p/locations/l/publishers/anthropic/models/m:rawPredict`. */
export function vertexModelPath(projectId: string, region: string, model: string, method: 'rawPredict' | 'streamRawPredict'): string {
  return `/projects/${pathSegment(projectId)}/locations/${pathSegment(region)}/publishers/anthropic/models/${pathSegment(model)}:${method}`;
}
