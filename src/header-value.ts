/**
 * The one sanitiser of response header values. Node refuses a value holding
 * a line break or a character above U+00FF (and cuts the connection, after
 * the upstream call was made and billed); a Web `Response` throws. Every
 * header value built from caller or upstream text passes here, and
 * `finish` checks the whole set once more before a response leaves.
 */

/** Longest header value built from text; longer text is cut. */
export const MAX_HEADER_VALUE_LENGTH = 1024;

/** A header name: an RFC 9110 token. */
export const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** True for a header value of printable ASCII only (space to `~`): no control character, no line break, nothing beyond Latin-1. */
export function isSafeHeaderValue(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code > 0x7e) return false;
  }
  return true;
}

/** `text` as a header value: cut at {@link MAX_HEADER_VALUE_LENGTH} characters, anything but printable ASCII made `?`. */
export function toHeaderValue(text: string): string {
  const cut = text.length > MAX_HEADER_VALUE_LENGTH ? text.slice(0, MAX_HEADER_VALUE_LENGTH) : text;
  return isSafeHeaderValue(cut) ? cut : cut.replace(/[^\x20-\x7e]/g, '?');
}

/** True for a valid header name (an RFC 9110 token). */
export function isHeaderName(name: string): boolean {
  return name.length <= 256 && HEADER_NAME.test(name);
}

/**
 * Makes every header of a response safe to send, in place: a value that is
 * not printable ASCII is sanitised by {@link toHeaderValue} (safe values,
 * however long, are left alone); a header whose name is not a token is
 * dropped.
 */
export function sanitizeResponseHeaders(headers: Record<string, string>): void {
  for (const name of Object.keys(headers)) {
    const value: unknown = headers[name];
    if (!isHeaderName(name)) delete headers[name];
    else if (typeof value === 'string' && !isSafeHeaderValue(value)) headers[name] = toHeaderValue(value);
  }
}
