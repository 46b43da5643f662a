/**
 * The README opens with the two set-up commands, and the model matrix on
 * docs/models.md stays true to the SPEC.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_MODELS } from 'modelgate';
import { SPEC_MATRIX } from '../models/spec-matrix.js';
import { codeBlocks, readDoc } from './markdown.js';

const MATRIX_HEADER = '| Model | temperature | thinking | prompt caching | min cacheable prefix |';

function matrixRows(page: string): string[][] {
  const start = page.indexOf(MATRIX_HEADER);
  expect(start).toBeGreaterThan(-1);
  const lines = page.slice(start).split('\n').slice(2);
  const rows: string[][] = [];
  for (const line of lines) {
    if (!line.startsWith('|')) break;
    rows.push(line.split('|').slice(1, -1).map((cell) => cell.trim()));
  }
  return rows;
}

describe('README', () => {
  it('shows the two set-up commands first', () => {
    const first = codeBlocks('README.md', readDoc('README.md'))[0];
    expect(first?.lang).toBe('sh');
    expect(first?.code).toContain('npm install && npm start');
    expect(first?.code).toContain('npm test');
  });

  it('links the model matrix page', () => {
    expect(readDoc('README.md')).toContain('](docs/models.md)');
  });
});

describe('docs/models.md', () => {
  it('lists the model matrix exactly as the spec gives it', () => {
    const expected = SPEC_MATRIX.map((m) => [m.id, m.temperature, m.thinking, m.caching, String(m.minCacheableTokens)]);
    expect(matrixRows(readDoc('docs/models.md'))).toEqual(expected);
  });

  it('lists the catalog the code serves', () => {
    const served = DEFAULT_MODELS.map((m) => [m.id, m.temperature, m.thinking, m.caching, String(m.minCacheableTokens)]);
    expect(matrixRows(readDoc('docs/models.md'))).toEqual(served);
  });

  it('shows the matrix once, on its own page', () => {
    for (const file of ['README.md', 'docs/configuration.md', 'docs/agents.md']) expect(readDoc(file)).not.toContain(MATRIX_HEADER);
  });
});
