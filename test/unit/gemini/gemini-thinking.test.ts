/**
 * Expected values: Google's thinking guide (Gemini 3 `thinkingLevel`
 * MINIMAL/LOW/MEDIUM/HIGH, Pro without MINIMAL; Gemini 2.5 `thinkingBudget`,
 * 0 = off, 2.5 Pro 128..32768) and the budgets Google's OpenAI-compatible
 * endpoint documents for the efforts (low 1024, medium 8192, high 24576).
 */
import { describe, expect, it } from 'vitest';
import { mapGeminiThinking } from '../../../src/upstreams/gemini/gemini-thinking.js';
import { GatewayError } from '../../../src/errors.js';

describe('reasoning_effort → thinkingConfig', () => {
  it.each([
    ['gemini-3-flash-preview', 'minimal', { includeThoughts: true, thinkingLevel: 'MINIMAL' }],
    ['gemini-3-flash-preview', 'low', { includeThoughts: true, thinkingLevel: 'LOW' }],
    ['gemini-3-flash-preview', 'medium', { includeThoughts: true, thinkingLevel: 'MEDIUM' }],
    ['gemini-3-flash-preview', 'high', { includeThoughts: true, thinkingLevel: 'HIGH' }],
    ['gemini-3-flash-preview', 'none', { includeThoughts: false, thinkingLevel: 'MINIMAL' }],
    ['gemini-3.1-pro-preview', 'low', { includeThoughts: true, thinkingLevel: 'LOW' }],
    ['gemini-3.1-pro-preview', 'high', { includeThoughts: true, thinkingLevel: 'HIGH' }],
    ['models/gemini-3-flash-preview', 'medium', { includeThoughts: true, thinkingLevel: 'MEDIUM' }],
    ['gemini-flash-latest', 'low', { includeThoughts: true, thinkingLevel: 'LOW' }],
    ['gemini-2.5-flash', 'low', { includeThoughts: true, thinkingBudget: 1024 }],
    ['gemini-2.5-flash', 'medium', { includeThoughts: true, thinkingBudget: 8192 }],
    ['gemini-2.5-flash', 'high', { includeThoughts: true, thinkingBudget: 24576 }],
    ['gemini-2.5-flash-lite', 'none', { includeThoughts: false, thinkingBudget: 0 }],
    ['publishers/google/models/gemini-2.5-pro', 'xhigh', { includeThoughts: true, thinkingBudget: 32768 }],
  ])('%s with %s', (model, effort, expected) => {
    const { thinkingConfig, warnings } = mapGeminiThinking({ effort, model });
    expect(thinkingConfig).toEqual(expected);
    expect(warnings).toEqual([]);
  });

  it.each([
    ['gemini-3.1-pro-preview', 'none', { includeThoughts: false, thinkingLevel: 'LOW' }, /cannot switch thinking off/],
    ['gemini-3.1-pro-preview', 'minimal', { includeThoughts: true, thinkingLevel: 'LOW' }, /no `MINIMAL`/],
    ['gemini-3-flash-preview', 'xhigh', { includeThoughts: true, thinkingLevel: 'HIGH' }, /highest/],
    ['gemini-2.5-pro', 'none', { includeThoughts: false, thinkingBudget: 128 }, /cannot switch thinking off/],
  ])('%s with %s is the nearest setting, with a warning', (model, effort, expected, warning) => {
    const { thinkingConfig, warnings } = mapGeminiThinking({ effort, model });
    expect(thinkingConfig).toEqual(expected);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(warning);
  });

  it('never sends both a level and a budget', () => {
    for (const model of ['gemini-3-pro-preview', 'gemini-3-flash-preview', 'gemini-2.5-pro', 'gemini-2.5-flash']) {
      for (const effort of ['none', 'minimal', 'low', 'medium', 'high', 'xhigh']) {
        const config = mapGeminiThinking({ effort, model }).thinkingConfig ?? {};
        expect('thinkingLevel' in config && 'thinkingBudget' in config).toBe(false);
      }
    }
  });

  it('asks thinking models for thought summaries when no effort is given', () => {
    expect(mapGeminiThinking({ effort: undefined, model: 'gemini-3-pro-preview' })).toEqual({ thinkingConfig: { includeThoughts: true }, warnings: [] });
    expect(mapGeminiThinking({ effort: null, model: 'gemini-2.5-flash' })).toEqual({ thinkingConfig: { includeThoughts: true }, warnings: [] });
  });

  it('sends no thinking config to models without thinking, and says so when an effort was asked', () => {
    expect(mapGeminiThinking({ effort: undefined, model: 'gemini-2.0-flash' })).toEqual({ warnings: [] });
    const mapped = mapGeminiThinking({ effort: 'high', model: 'gemma-3-27b-it' });
    expect(mapped.thinkingConfig).toBeUndefined();
    expect(mapped.warnings[0]).toMatch(/gemma-3-27b-it has no thinking/);
  });

  it('refuses an effort the chat interface does not have with a 400 naming the values', () => {
    let error: unknown;
    try {
      mapGeminiThinking({ effort: 'extreme', model: 'gemini-3-flash-preview' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).status).toBe(400);
    expect((error as GatewayError).param).toBe('reasoning_effort');
    expect((error as GatewayError).message).toMatch(/none, minimal, low, medium, high, xhigh/);
  });
});
