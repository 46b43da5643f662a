/**
 * What the end-to-end suites send: keys, clients configured only with base
 * URL and key, tools in both formats, a small PNG and a one-page PDF.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { createPdf, DEFAULT_SEED_FILES } from 'modelgate/testing';
import { SPEC_MODEL_IDS } from '../unit/models/spec-matrix.js';

/** The gateway key every suite uses. */
export const KEY = 'sk-e2e-0123456789abcdef';
/** A key limited to one model (403 on the others). */
export const LIMITED_KEY = 'sk-e2e-limited-0123456789';
export const LIMITED_MODEL = 'vendora-sonnet-4-6';

/** `auth` option with both keys. */
export const AUTH = { keys: [KEY, { key: LIMITED_KEY, id: 'limited', allowedModels: [LIMITED_MODEL] }] };

/** The twelve messages-interface models, from the hand-typed SPEC matrix (not the catalog under test). */
export const VENDOR_MODELS: readonly string[] = SPEC_MODEL_IDS;

/** Runs `call`, which must fail, and returns what it threw (for asserting on SDK error classes). */
export async function failure(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

/** The official chat client at `url` (the gateway's origin): base URL `url/v1`. */
export function openAIClient(url: string, apiKey: string = KEY): OpenAI {
  return new OpenAI({ baseURL: `${url}/v1`, apiKey, maxRetries: 0 });
}

/** The official messages client at `url`: base URL is the origin itself (PROTOCOLS C.1). */
export function anthropicClient(url: string, apiKey: string = KEY): Anthropic {
  return new Anthropic({ baseURL: url, apiKey, maxRetries: 0 });
}

/** The same client authenticating with `Authorization: Bearer` instead of `x-api-key`. */
export function anthropicBearerClient(url: string, authToken: string = KEY): Anthropic {
  return new Anthropic({ baseURL: url, authToken, apiKey: null, maxRetries: 0 });
}

const swatch = DEFAULT_SEED_FILES.find((file) => file.mimeType === 'image/png');
if (!swatch) throw new Error('the simulator seeds no PNG');
/** A 2×2 PNG, base64. */
export const PNG_BASE64 = Buffer.from(swatch.content).toString('base64');
/** A one-page PDF, base64. */
export const PDF_BASE64 = Buffer.from(createPdf('Invoice 42: total 17 EUR.')).toString('base64');
/** Never fetched: the simulator answers about image URLs without loading them. */
export const IMAGE_URL = 'https://example.com/images/cat.png';

export const CHAT_TOOLS = [
  {
    type: 'function' as const,
    function: {
      name: 'get_weather',
      description: 'Current weather in a city',
      parameters: { type: 'object', properties: { city: { type: 'string', description: 'City name' } }, required: ['city'] },
    },
  },
  {
    type: 'function' as const,
    function: {
      name: 'get_time',
      description: 'Current time in a time zone',
      parameters: { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'] },
    },
  },
];

export const MESSAGES_TOOLS = CHAT_TOOLS.map((tool) => ({
  name: tool.function.name,
  description: tool.function.description,
  input_schema: tool.function.parameters as { type: 'object'; properties: Record<string, unknown>; required: string[] },
}));

/** A user turn that names both tools, so the model calls both (in parallel). */
export const BOTH_TOOLS_PROMPT = 'Please call get_weather for Paris and get_time for Europe/Paris.';
/** Long enough (≥ 12 tokens) that adaptive-thinking models think. */
export const THINKING_PROMPT = 'Compare the trade-offs of caching a large prompt prefix versus resending it every time, in a few sentences please.';
