/**
 * The hand-written Gemini shapes of test/fixtures/gemini (see its README):
 * stream chunks as JSON or as Google's SSE, whole answers and error bodies.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const DIR = fileURLToPath(new URL('../fixtures/gemini/', import.meta.url));

export type GeminiStreamFixture = 'stream-text-thoughts' | 'stream-parallel-calls' | 'stream-blocked-prompt' | 'stream-safety' | 'stream-mid-error';
export type GeminiJsonFixture =
  | 'answer-text-thoughts'
  | 'answer-parallel-calls'
  | 'answer-blocked-prompt'
  | 'answer-max-tokens-empty'
  | 'answer-malformed-call'
  | 'error-rate-limited'
  | 'error-api-key-invalid'
  | 'error-overloaded';

/** The chunks of a `.chunks.txt` fixture, parsed, one per line. */
export function geminiChunks(name: GeminiStreamFixture): Record<string, unknown>[] {
  return readFileSync(`${DIR}${name}.chunks.txt`, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Chunks as Google's `alt=sse` text: `data: <json>` events with CRLF line ends. */
export function toGeminiSse(chunks: readonly unknown[]): string {
  return chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`).join('');
}

/** A stream fixture as Google's SSE text. */
export function geminiSse(name: GeminiStreamFixture): string {
  return toGeminiSse(geminiChunks(name));
}

/** A `.json` fixture, parsed. */
export function geminiJson(name: GeminiJsonFixture): Record<string, unknown> {
  return JSON.parse(readFileSync(`${DIR}${name}.json`, 'utf8')) as Record<string, unknown>;
}
