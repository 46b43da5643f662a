/**
 * Reads an image's pixel size from its header bytes (PNG, JPEG, GIF, WebP),
 * without decoding the image.
 */

/** Width and height in pixels. */
export interface ImageSize {
  width: number;
  height: number;
}

function readPng(bytes: Uint8Array, view: DataView): ImageSize | undefined {
  // Signature (8 bytes), IHDR length + type (8), then width and height (big-endian).
  if (bytes.length < 24 || bytes[0] !== 0x89 || bytes[1] !== 0x50 || bytes[2] !== 0x4e || bytes[3] !== 0x47) return undefined;
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

function readGif(bytes: Uint8Array, view: DataView): ImageSize | undefined {
  if (bytes.length < 10 || bytes[0] !== 0x47 || bytes[1] !== 0x49 || bytes[2] !== 0x46) return undefined;
  return { width: view.getUint16(6, true), height: view.getUint16(8, true) };
}

function readJpeg(bytes: Uint8Array, view: DataView): ImageSize | undefined {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  let offset = 2;
  // Walk the segments up to a start-of-frame marker (C0..CF except C4, C8, CC).
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) return undefined;
    const marker = bytes[offset + 1] ?? 0;
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    const length = view.getUint16(offset + 2);
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return { height: view.getUint16(offset + 5), width: view.getUint16(offset + 7) };
    offset += 2 + length;
  }
  return undefined;
}

function readWebp(bytes: Uint8Array, view: DataView): ImageSize | undefined {
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes.length < 30 || ascii(0, 4) !== 'RIFF' || ascii(8, 12) !== 'WEBP') return undefined;
  const chunk = ascii(12, 16);
  if (chunk === 'VP8X') {
    // 24-bit little-endian "size minus one" fields.
    const width = 1 + ((bytes[24] ?? 0) | ((bytes[25] ?? 0) << 8) | ((bytes[26] ?? 0) << 16));
    const height = 1 + ((bytes[27] ?? 0) | ((bytes[28] ?? 0) << 8) | ((bytes[29] ?? 0) << 16));
    return { width, height };
  }
  if (chunk === 'VP8 ') return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
  if (chunk === 'VP8L') {
    const bits = view.getUint32(21, true);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  return undefined;
}

/** The pixel size of a PNG, JPEG, GIF or WebP image, or `undefined` when the header is not recognised. */
export function readImageSize(bytes: Uint8Array): ImageSize | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    const size = readPng(bytes, view) ?? readGif(bytes, view) ?? readJpeg(bytes, view) ?? readWebp(bytes, view);
    return size && size.width > 0 && size.height > 0 ? size : undefined;
  } catch {
    // A truncated header reads past the end; treat it as unknown.
    return undefined;
  }
}
