/**
 * Whether a caller steers an upstream itself: it sent headers with one of
 * the prefixes the upstream reads (the embedded simulator's `x-simulator-`
 * fault controls). What such a call does is the caller's doing: it says
 * nothing of the upstream's health, and it is no operational failure.
 *
 * @internal
 */
export function steersTarget(headers: Readonly<Record<string, unknown>>, prefixes: readonly string[] | undefined): boolean {
  if (!prefixes || prefixes.length === 0) return false;
  for (const name of Object.keys(headers)) if (prefixes.some((prefix) => name.startsWith(prefix))) return true;
  return false;
}
