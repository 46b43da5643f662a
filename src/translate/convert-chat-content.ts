/**
 * One chat content part → one messages content block (chat → messages).
 *
 * - `text` → `text`; `image_url` → `image` (data URL → base64 source with
 *   its media type, http(s) URL → url source); `file` → `document` (PDF or
 *   plain text data, or a `file_id`).
 * - A `cache_control` on the part (an extension some clients send) is kept
 *   on the block.
 * - `input_audio` and image `detail: low|high` have no equivalent: rejected,
 *   or dropped with a warning under `dropUnsupportedParams`.
 */
import type { ChatContentPart } from '../schemas/chat.js';
import type { CacheControl, DocumentBlock, ImageBlock, TextBlock } from '../schemas/messages.js';
import { type ParamPolicy, invalidParam } from './param-policy.js';
import { parseDataUrl } from './parse-data-url.js';

/** Blocks a chat content part can become. */
export type ConvertedPart = TextBlock | ImageBlock | DocumentBlock;

const IMAGE_MEDIA_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);
type ImageMediaType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';

/** Base64 of `%PDF-`: how a bare (not data-URL) PDF payload starts. */
const PDF_BASE64_PREFIX = 'JVBERi0';

/**
 * The vendor's `cache_control` from a part's extension field; `undefined`
 * when absent. A `ttl` other than `5m`/`1h` is a 400 (the vendor has no
 * other).
 * @internal
 */
export function toCacheControl(value: unknown, param: string): CacheControl | undefined {
  if (value === undefined || value === null) return undefined;
  const { type, ttl } = value as { type?: unknown; ttl?: unknown };
  if (type !== 'ephemeral') throw invalidParam(param, `\`${param}.type\` must be "ephemeral".`);
  if (ttl === undefined || ttl === null) return { type: 'ephemeral' };
  if (ttl !== '5m' && ttl !== '1h') throw invalidParam(`${param}.ttl`, `\`${param}.ttl\` must be "5m" or "1h".`);
  return { type: 'ephemeral', ttl };
}

/** Adds `cache_control` only when present, so blocks carry no `undefined` keys. */
function withCache<T extends object>(block: T, cacheControl: CacheControl | undefined): T {
  return cacheControl ? { ...block, cache_control: cacheControl } : block;
}

function convertImageUrl(
  url: string,
  param: string,
  policy: ParamPolicy,
): ImageBlock['source'] | undefined {
  const dataUrl = parseDataUrl(url);
  if (dataUrl) {
    if (!IMAGE_MEDIA_TYPES.has(dataUrl.mediaType)) {
      policy.unsupported(param, `for image type "${dataUrl.mediaType}" (use jpeg, png, gif or webp)`);
      return undefined;
    }
    return { type: 'base64', media_type: dataUrl.mediaType as ImageMediaType, data: dataUrl.data };
  }
  if (/^https?:\/\//i.test(url)) return { type: 'url', url };
  throw invalidParam(param, `\`${param}\` must be an http(s) URL or a base64 data URL (data:image/png;base64,...).`);
}

function convertFileData(fileData: string, param: string, policy: ParamPolicy): DocumentBlock['source'] | undefined {
  const dataUrl = parseDataUrl(fileData);
  if (!dataUrl) {
    if (fileData.startsWith(PDF_BASE64_PREFIX)) return { type: 'base64', media_type: 'application/pdf', data: fileData };
    throw invalidParam(param, `\`${param}\` must be a base64 data URL (data:application/pdf;base64,...).`);
  }
  if (dataUrl.mediaType === 'application/pdf') return { type: 'base64', media_type: 'application/pdf', data: dataUrl.data };
  if (dataUrl.mediaType === 'text/plain') {
    return { type: 'text', media_type: 'text/plain', data: Buffer.from(dataUrl.data, 'base64').toString('utf8') };
  }
  policy.unsupported(param, `for file type "${dataUrl.mediaType}" (use application/pdf or text/plain)`);
  return undefined;
}

/**
 * Converts one part at `param` (e.g. `messages.2.content.1`). Returns
 * `undefined` when the part is dropped (empty text, or an unsupported part
 * under `dropUnsupportedParams`).
 */
export function convertChatContentPart(
  part: ChatContentPart,
  param: string,
  policy: ParamPolicy,
): ConvertedPart | undefined {
  const cacheControl = toCacheControl(part.cache_control, `${param}.cache_control`);
  switch (part.type) {
    case 'text':
      // The vendor rejects empty text blocks; an empty part carries nothing.
      return part.text === '' ? undefined : withCache<TextBlock>({ type: 'text', text: part.text }, cacheControl);
    case 'image_url': {
      const { url, detail } = part.image_url;
      if (detail === 'low' || detail === 'high') {
        policy.unsupported(`${param}.image_url.detail`, `on the messages interface (the vendor picks the resolution)`);
      }
      const source = convertImageUrl(url, `${param}.image_url.url`, policy);
      return source ? withCache<ImageBlock>({ type: 'image', source }, cacheControl) : undefined;
    }
    case 'file': {
      const { file_data: fileData, file_id: fileId, filename } = part.file;
      let source: DocumentBlock['source'] | undefined;
      if (typeof fileData === 'string') source = convertFileData(fileData, `${param}.file.file_data`, policy);
      else if (typeof fileId === 'string') source = { type: 'file', file_id: fileId };
      else throw invalidParam(`${param}.file`, `\`${param}.file\` needs \`file_data\` or \`file_id\`.`);
      if (!source) return undefined;
      const block: DocumentBlock = filename ? { type: 'document', source, title: filename } : { type: 'document', source };
      return withCache(block, cacheControl);
    }
    case 'input_audio':
      policy.unsupported(param, 'on the messages interface (audio input)');
      return undefined;
    default: {
      const unknown: never = part;
      return unknown;
    }
  }
}
