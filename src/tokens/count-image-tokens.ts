/**
 * Token cost of an image, following the vendor's published rule of thumb:
 * `tokens = width × height / 750`, after the vendor's downscaling of large
 * images (long edge at most 1568 px and at most about 1.15 megapixels, so
 * one image costs at most about 1,600 tokens).
 */
import { readImageSize } from './read-image-size.js';

const MAX_EDGE = 1568;
const MAX_PIXELS = 1_150_000;
const PIXELS_PER_TOKEN = 750;
/** Cost of an image whose size is unknown (a URL or file reference): the cap. */
export const UNKNOWN_IMAGE_TOKENS = 1600;
/** Base64 characters decoded to find the header: JPEG frame headers can follow large EXIF blocks. */
const HEADER_CHARS = 256 * 1024;

/** Tokens for an image of `width × height` pixels (after downscaling). */
export function imageTokensForSize(width: number, height: number): number {
  const scale = Math.min(1, MAX_EDGE / Math.max(width, height), Math.sqrt(MAX_PIXELS / (width * height)));
  const pixels = Math.floor(width * scale) * Math.floor(height * scale);
  return Math.max(1, Math.ceil(pixels / PIXELS_PER_TOKEN));
}

/** `data` without its trailing `=` padding, found by a scan from the end (a regex `=+$` is quadratic on a long run of `=`). */
function withoutPadding(data: string): string {
  let end = data.length;
  while (end > 0 && data.charCodeAt(end - 1) === 0x3d) end -= 1;
  return data.slice(0, end);
}

/**
 * Tokens for a base64-encoded image. The size comes from the PNG, JPEG, GIF
 * or WebP header; when it cannot be read, the estimate is one token per 100
 * decoded bytes, between 1 and {@link UNKNOWN_IMAGE_TOKENS}.
 */
export function countBase64ImageTokens(data: string): number {
  const head = Buffer.from(data.slice(0, HEADER_CHARS), 'base64');
  const size = readImageSize(head);
  if (size) return imageTokensForSize(size.width, size.height);
  const bytes = Math.floor((withoutPadding(data).length * 3) / 4);
  return Math.min(UNKNOWN_IMAGE_TOKENS, Math.max(1, Math.ceil(bytes / 100)));
}
