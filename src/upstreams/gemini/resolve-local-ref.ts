/**
 * A local JSON Schema `$ref` (`#`, `#/$defs/Name`, `#/definitions/Name`, any
 * `#/…` JSON Pointer) → the subschema of `root` it points at. Remote
 * references (`https://…`, `other.json#…`) and anchors (`#name`) are not
 * followed: a gateway fetches nothing a schema names.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6901
 * @internal
 */

/** Pointer segments followed at most: a pointer is a short path, never a walk. */
const MAX_SEGMENTS = 64;

function decodeSegment(segment: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return undefined;
  }
  return decoded.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The value `ref` points at inside `root`; `undefined` when it is not local or leads nowhere. */
export function resolveLocalRef(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  const segments = ref.slice(2).split('/');
  if (segments.length > MAX_SEGMENTS) return undefined;
  let current = root;
  for (const raw of segments) {
    const segment = decodeSegment(raw);
    if (segment === undefined || typeof current !== 'object' || current === null) return undefined;
    if (!Object.hasOwn(current, segment)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}
