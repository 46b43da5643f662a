/**
 * The README's model matrix and validator snippet must stay true to the code.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { messagesRequestSchema, safeParseRequest } from 'modelgate';
import { SPEC_MATRIX } from '../models/spec-matrix.js';

const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');

function matrixRows(): string[][] {
  const start = readme.indexOf('| Model | temperature | thinking | prompt caching | min cacheable prefix |');
  expect(start).toBeGreaterThan(-1);
  const lines = readme.slice(start).split('\n').slice(2);
  const rows: string[][] = [];
  for (const line of lines) {
    if (!line.startsWith('|')) break;
    rows.push(line.split('|').slice(1, -1).map((cell) => cell.trim()));
  }
  return rows;
}

describe('README', () => {
  it('shows the two set-up commands first', () => {
    const firstBlock = readme.slice(readme.indexOf('```sh'), readme.indexOf('```', readme.indexOf('```sh') + 5));
    expect(firstBlock).toContain('npm install && npm start');
    expect(firstBlock).toContain('npm test');
  });

  it('lists the model matrix exactly as the spec gives it', () => {
    const expected = SPEC_MATRIX.map((m) => [m.id, m.temperature, m.thinking, m.caching, String(m.minCacheableTokens)]);
    expect(matrixRows()).toEqual(expected);
  });

  it('validator snippet: the failure names the missing field', () => {
    const result = safeParseRequest(messagesRequestSchema, { model: 'vendora-haiku-4-5', messages: [] });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toContain('max_tokens: field required');
  });
});
