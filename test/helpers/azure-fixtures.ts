/**
 * The hand-written Azure OpenAI shapes of test/fixtures/azure (see its
 * README): stream chunks as SSE events or text, whole answers and error bodies.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const DIR = fileURLToPath(new URL('../fixtures/azure/', import.meta.url));

/** The JSON payloads of a `.chunks.txt` fixture, one per line. */
export function azureChunks(name: 'stream-text' | 'stream-output-filtered'): string[] {
  return readFileSync(`${DIR}${name}.chunks.txt`, 'utf8').split('\n').filter((line) => line.trim() !== '');
}

/** A fixture's chunks as SSE text, ending with `data: [DONE]`. */
export function azureSse(name: 'stream-text' | 'stream-output-filtered'): string {
  return `${azureChunks(name).map((line) => `data: ${line}\n\n`).join('')}data: [DONE]\n\n`;
}

/** A `.json` fixture, parsed. */
export function azureJson(name: 'completion-text' | 'completion-output-filtered' | 'error-prompt-filtered' | 'error-rate-limited'): Record<string, unknown> {
  return JSON.parse(readFileSync(`${DIR}${name}.json`, 'utf8')) as Record<string, unknown>;
}
