/**
 * One chat content part of a user message → one Gemini `Part`:
 *
 * | chat part                                    | Gemini part                                         |
 * |----------------------------------------------|-----------------------------------------------------|
 * | `text`                                       | `{text}` (empty text: no part)                      |
 * | `image_url` with a base64 data URL           | `inlineData {mimeType, data}`                       |
 * | `image_url` with an http(s) or `gs://` URL   | `fileData {fileUri, mimeType}`, the type read from the file extension; without a known extension the type is left out with a warning (Gemini may refuse the part: send a data URL) |
 * | `input_audio {data, format}`                 | `inlineData {mimeType: audio/<format>, data}`       |
 * | `file {file_data}` (data URL, or bare PDF base64) | `inlineData` with its type                     |
 * | `file {file_id}`                             | 400: an id of another platform's file store means nothing to Gemini |
 *
 * `detail` (`low`/`high`) and `cache_control` have no Gemini field: left
 * out with a warning.
 *
 * @see https://ai.google.dev/gemini-api/docs/image-understanding
 * @see https://ai.google.dev/gemini-api/docs/document-processing
 * @internal
 */
import { GatewayError } from '../../errors.js';
import type { ChatContentPart } from '../../schemas/chat.js';
import { invalidParam } from '../../translate/param-policy.js';
import { parseDataUrl } from '../../translate/parse-data-url.js';
import type { GeminiPart } from './gemini-types.js';

/** File extensions whose media type a URL implies. */
const TYPES_BY_EXTENSION: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  heic: 'image/heic',
  heif: 'image/heif',
  gif: 'image/gif',
  pdf: 'application/pdf',
};

/** Base64 of `%PDF-`: how a bare (not data-URL) PDF payload starts. */
const PDF_BASE64_PREFIX = 'JVBERi0';

function mimeTypeOfUrl(url: string): string | undefined {
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    return undefined;
  }
  const dot = pathname.lastIndexOf('.');
  return dot < 0 ? undefined : TYPES_BY_EXTENSION[pathname.slice(dot + 1).toLowerCase()];
}

function imagePart(url: string, param: string, warnings: string[]): GeminiPart {
  const dataUrl = parseDataUrl(url);
  if (dataUrl) return { inlineData: { mimeType: dataUrl.mediaType, data: dataUrl.data } };
  if (!/^(https?|gs):\/\//i.test(url)) {
    throw invalidParam(param, `\`${param}\` must be an http(s) URL or a base64 data URL (data:image/png;base64,...).`);
  }
  const mimeType = mimeTypeOfUrl(url);
  if (mimeType) return { fileData: { fileUri: url, mimeType } };
  warnings.push(
    `\`${param}\`: the image type cannot be read from the URL, so it was sent without one and Gemini may refuse it; use a URL ending in .png, .jpg, .webp, .heic or .heif, or a data URL.`,
  );
  return { fileData: { fileUri: url } };
}

function filePart(file: { file_data?: string | undefined; file_id?: string | undefined }, param: string): GeminiPart {
  if (file.file_data !== undefined) {
    const dataUrl = parseDataUrl(file.file_data);
    if (dataUrl) return { inlineData: { mimeType: dataUrl.mediaType, data: dataUrl.data } };
    if (file.file_data.startsWith(PDF_BASE64_PREFIX)) return { inlineData: { mimeType: 'application/pdf', data: file.file_data } };
    throw invalidParam(`${param}.file_data`, `\`${param}.file_data\` must be a base64 data URL (data:application/pdf;base64,...).`);
  }
  if (file.file_id !== undefined) {
    throw new GatewayError('UNSUPPORTED_FEATURE', `\`${param}.file_id\` cannot be sent to Gemini: send the file inline as \`file_data\` (a base64 data URL).`, {
      param: `${param}.file_id`,
      chatCode: 'unsupported_parameter',
    });
  }
  throw invalidParam(param, `\`${param}\` needs \`file_data\` (a base64 data URL).`);
}

/**
 * Converts the part at `param` (`messages.2.content.1`); `undefined` for an
 * empty text. Malformed data is a 400.
 */
export function chatPartToGemini(part: ChatContentPart, param: string, warnings: string[]): GeminiPart | undefined {
  if (part.cache_control != null) warnings.push('`cache_control` left out: Gemini caches prompts by itself (implicit caching).');
  switch (part.type) {
    case 'text':
      return part.text === '' ? undefined : { text: part.text };
    case 'image_url': {
      const { detail } = part.image_url;
      if (detail === 'low' || detail === 'high') warnings.push(`\`${param}.image_url.detail\` left out: Gemini has no per-image detail setting.`);
      return imagePart(part.image_url.url, `${param}.image_url.url`, warnings);
    }
    case 'input_audio':
      return { inlineData: { mimeType: `audio/${part.input_audio.format.toLowerCase()}`, data: part.input_audio.data } };
    case 'file':
      return filePart(part.file, `${param}.file`);
    default: {
      const unknown: never = part;
      return unknown;
    }
  }
}
