/**
 * `data:<media type>[;params];base64,<payload>` → media type and payload.
 *
 * Only the header is scanned; the payload is taken with one `slice`, which
 * V8 keeps as a view of the original string rather than copying megabytes
 * of base64.
 */

/** A parsed base64 data URL. */
export interface DataUrl {
  /** Lower-cased media type, e.g. `image/png`. */
  mediaType: string;
  /** The base64 payload, unchanged. */
  data: string;
}

/** Longest header (`data:` up to the comma) accepted. */
const MAX_HEADER = 256;

/**
 * Parses a base64 data URL; `undefined` when `url` is not one (not a data
 * URL, no `;base64` marker, or no media type).
 */
export function parseDataUrl(url: string): DataUrl | undefined {
  if (!url.startsWith('data:')) return undefined;
  // A media type never runs long; do not scan a payload that lacks a comma.
  const comma = url.slice(0, MAX_HEADER + 1).indexOf(',');
  if (comma < 0) return undefined;
  const params = url.slice(5, comma).split(';');
  if (params[params.length - 1]?.toLowerCase() !== 'base64') return undefined;
  const mediaType = (params[0] ?? '').trim().toLowerCase();
  if (!mediaType.includes('/')) return undefined;
  return { mediaType, data: url.slice(comma + 1) };
}

/** Builds a base64 data URL. */
export function toDataUrl(mediaType: string, data: string): string {
  return `data:${mediaType};base64,${data}`;
}
