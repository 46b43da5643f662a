/**
 * The model calls and the token counts: one definition that admission
 * control and the limits step both read.
 */
import { describe, expect, it } from 'vitest';
import { isModelCall, isTokenCount } from '../../../src/match-endpoint.js';

const EVERY_ENDPOINT = [
  'chat.completions',
  'messages',
  'messages.count_tokens',
  'models.list',
  'models.retrieve',
  'files.list',
  'files.upload',
  'files.retrieve',
  'files.delete',
  'files.content',
  'responses.create',
  'responses.input_tokens',
  'responses.retrieve',
  'responses.delete',
  'responses.input_items',
];

describe('endpoint kinds', () => {
  it('the model calls are the three generating endpoints', () => {
    expect(EVERY_ENDPOINT.filter((name) => isModelCall(name))).toEqual(['chat.completions', 'messages', 'responses.create']);
  });

  it('the token counts are count_tokens and input_tokens', () => {
    expect(EVERY_ENDPOINT.filter((name) => isTokenCount(name))).toEqual(['messages.count_tokens', 'responses.input_tokens']);
  });

  it('no endpoint is both, and an unknown or missing name is neither', () => {
    expect(EVERY_ENDPOINT.filter((name) => isModelCall(name) && isTokenCount(name))).toEqual([]);
    for (const name of [undefined, '', 'toString', 'constructor', 'chat', 'messages.batches']) {
      expect(isModelCall(name)).toBe(false);
      expect(isTokenCount(name)).toBe(false);
    }
  });
});
