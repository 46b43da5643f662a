/**
 * Content parts of Responses items → chat content parts (Responses → chat).
 *
 * - `input_text` → `text`.
 * - `input_image` with `image_url` (an http(s) or data URL) → `image_url`;
 *   `detail` `low`/`high` is kept, `auto` and `original` (the default
 *   resolution) are left out. An image by `file_id` is refused: files are
 *   not uploaded to the gateway.
 * - `input_file` with `file_data` (a base64 data URL) or `file_id` → a chat
 *   `file` part, which the messages translation turns into a document; a
 *   `file_url` is refused (chat has no file URLs).
 * - assistant `output_text` / `input_text` → `text`, `refusal` → `refusal`;
 *   annotations (citations) are not sent back.
 */
import { GatewayError } from '../errors.js';
import type { ChatContentPart } from '../schemas/chat.js';
import type { ResponseAssistantPart, ResponseInputPart } from '../schemas/responses.js';
import { invalidParam } from './param-policy.js';

/** A part of an assistant message in chat. */
export type ChatAssistantPart = { type: 'text'; text: string } | { type: 'refusal'; refusal: string };

function unsupportedPart(param: string, message: string): GatewayError {
  return new GatewayError('UNSUPPORTED_PARAMETER', message, { param, chatCode: 'unsupported_parameter' });
}

/** Converts one input part at `param` (`input.2.content.1`). Throws a 400 `GatewayError` for a part it cannot send. */
export function convertInputPart(part: ResponseInputPart, param: string): ChatContentPart {
  switch (part.type) {
    case 'input_text':
      return { type: 'text', text: part.text };
    case 'input_image': {
      if (typeof part.image_url === 'string') {
        const detail = part.detail === 'low' || part.detail === 'high' ? part.detail : undefined;
        return { type: 'image_url', image_url: detail ? { url: part.image_url, detail } : { url: part.image_url } };
      }
      if (typeof part.file_id === 'string') {
        throw unsupportedPart(
          `${param}.file_id`,
          `\`${param}.file_id\` is not supported: files are not uploaded to this gateway. Send the image as \`image_url\` (an https URL or a base64 data URL).`,
        );
      }
      throw invalidParam(`${param}.image_url`, `\`${param}\` needs \`image_url\` (an https URL or a base64 data URL).`);
    }
    case 'input_file': {
      const filename = typeof part.filename === 'string' ? { filename: part.filename } : {};
      if (typeof part.file_data === 'string') return { type: 'file', file: { file_data: part.file_data, ...filename } };
      if (typeof part.file_id === 'string') return { type: 'file', file: { file_id: part.file_id, ...filename } };
      if (typeof part.file_url === 'string') {
        throw unsupportedPart(
          `${param}.file_url`,
          `\`${param}.file_url\` is not supported: send the file inline as \`file_data\` (a base64 data URL such as data:application/pdf;base64,...).`,
        );
      }
      throw invalidParam(param, `\`${param}\` needs \`file_data\` (a base64 data URL) or \`file_id\`.`);
    }
    default: {
      const unknown: never = part;
      return unknown;
    }
  }
}

/** Converts one assistant part; `undefined` for empty text. */
export function convertAssistantPart(part: ResponseAssistantPart): ChatAssistantPart | undefined {
  switch (part.type) {
    case 'output_text':
    case 'input_text':
      return part.text === '' ? undefined : { type: 'text', text: part.text };
    case 'refusal':
      return part.refusal === '' ? undefined : { type: 'refusal', refusal: part.refusal };
    default: {
      const unknown: never = part;
      return unknown;
    }
  }
}
