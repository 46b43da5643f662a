/**
 * `adaptThinking` (agent clients' thinking settings adapted to each model),
 * model by model from the hand-typed matrix of the spec. Budgets are the
 * documented defaults, typed here: minimal 1024, low 2048, medium 8192,
 * high 16384, xhigh/max 32768; at most half of `max_tokens`; none under 1024.
 */
import { describe, expect, it } from 'vitest';
import { adaptThinking } from '../../../src/models/adapt-thinking.js';
import { DEFAULT_CATALOG, type ModelEntry } from '../../../src/models/catalog.js';
import { DEFAULT_REASONING_BUDGETS } from '../../../src/models/thinking-budgets.js';
import { SPEC_MATRIX } from './spec-matrix.js';

function entryOf(id: string): ModelEntry {
  const entry = DEFAULT_CATALOG.get(id);
  if (!entry) throw new Error(`no catalog entry for ${id}`);
  return entry;
}

const adapt = (body: Record<string, unknown>, id: string) => adaptThinking(body, entryOf(id), DEFAULT_REASONING_BUDGETS);

describe.each(SPEC_MATRIX)('$id (thinking $thinking)', (row) => {
  it('adaptive, effort high, max_tokens 32000', () => {
    const body: Record<string, unknown> = { model: row.id, max_tokens: 32000, thinking: { type: 'adaptive' }, output_config: { effort: 'high' } };
    const note = adapt(body, row.id);
    if (row.thinking === 'adaptive') {
      expect(note).toBeUndefined();
      expect(body.thinking).toEqual({ type: 'adaptive' });
    } else if (row.thinking === 'enabled') {
      expect(note).toBe('thinking.adaptive -> thinking.enabled (budget_tokens 16000)');
      expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 16000 });
    } else {
      expect(note).toBe(`thinking.adaptive -> dropped (${row.id} has no extended thinking)`);
      expect(body).not.toHaveProperty('thinking');
    }
    // Effort is the caller's: left as sent.
    expect(body.output_config).toEqual({ effort: 'high' });
  });

  it('enabled 4096, max_tokens 8192', () => {
    const body: Record<string, unknown> = { model: row.id, max_tokens: 8192, thinking: { type: 'enabled', budget_tokens: 4096, display: 'omitted' } };
    const note = adapt(body, row.id);
    if (row.thinking === 'enabled') {
      expect(note).toBeUndefined();
      expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 4096, display: 'omitted' });
    } else if (row.thinking === 'adaptive') {
      expect(note).toBe('thinking.enabled -> thinking.adaptive');
      expect(body.thinking).toEqual({ type: 'adaptive', display: 'omitted' });
    } else {
      expect(note).toBe(`thinking.enabled -> dropped (${row.id} has no extended thinking)`);
      expect(body).not.toHaveProperty('thinking');
    }
  });

  it('disabled and absent thinking are left alone', () => {
    const disabled: Record<string, unknown> = { model: row.id, max_tokens: 100, thinking: { type: 'disabled' } };
    expect(adapt(disabled, row.id)).toBeUndefined();
    expect(disabled.thinking).toEqual({ type: 'disabled' });
    const none: Record<string, unknown> = { model: row.id, max_tokens: 100 };
    expect(adapt(none, row.id)).toBeUndefined();
    expect(none).toEqual({ model: row.id, max_tokens: 100 });
  });
});

describe('the enabled budget of an adaptive request (vendora-sonnet-4-6)', () => {
  const id = 'vendora-sonnet-4-6';
  it.each([
    ['low', 64000, 2048],
    ['medium', 64000, 8192],
    ['high', 64000, 16384],
    ['max', 100000, 32768],
    ['max', 64000, 32000],
    [undefined, 64000, 16384],
    ['unknown-level', 64000, 16384],
    ['high', 20000, 10000],
    ['low', 2048, 1024],
    ['high', 2049, 1024],
  ] as const)('effort %s, max_tokens %i → budget_tokens %i (below max_tokens)', (effort, maxTokens, budget) => {
    const body: Record<string, unknown> = { model: id, max_tokens: maxTokens, thinking: { type: 'adaptive' } };
    if (effort !== undefined) body.output_config = { effort };
    adapt(body, id);
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: budget });
    expect(budget).toBeLessThan(maxTokens);
  });

  it('max_tokens 2047 leaves no room for 1024: thinking dropped, with the reason', () => {
    const body: Record<string, unknown> = { model: id, max_tokens: 2047, thinking: { type: 'adaptive' } };
    expect(adapt(body, id)).toBe('thinking.adaptive -> dropped (max_tokens 2047 leaves no room for a 1024-token budget)');
    expect(body).not.toHaveProperty('thinking');
  });

  it('count_tokens (no max_tokens): the effort budget as is', () => {
    const body: Record<string, unknown> = { model: id, thinking: { type: 'adaptive' }, output_config: { effort: 'medium' } };
    expect(adapt(body, id)).toBe('thinking.adaptive -> thinking.enabled (budget_tokens 8192)');
  });

  it('uses the budgets it is given (the gateway passes reasoningBudgets)', () => {
    const body: Record<string, unknown> = { model: id, max_tokens: 64000, thinking: { type: 'adaptive' }, output_config: { effort: 'low' } };
    adaptThinking(body, entryOf(id), { ...DEFAULT_REASONING_BUDGETS, low: 3000 });
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 3000 });
  });
});
