/**
 * Nesting depth: the whole body counts (the root object is level 1), a
 * tool's JSON schema included; 50,000 levels are refused, not a stack
 * overflow, and only the first segments of the caller's keys are named.
 */
import { describe, expect, it } from 'vitest';
import { checkRequestBounds, requestBoundsError } from 'modelgate';
import { nest, nestArrays } from './bound-cases.js';

/** A chat body whose one tool's `parameters` is `nest(levels)`: root 1, tools 2, tools.0 3, function 4, parameters 5… */
const chatWithSchema = (schema: unknown) => ({
  model: 'gpt-5',
  messages: [{ role: 'user', content: 'Hi.' }],
  tools: [{ type: 'function', function: { name: 'lookup', parameters: schema } }],
});
const CHAT_SCHEMA_OFFSET = 4;

describe('nesting depth', () => {
  it('passes a tool schema that brings the body exactly to maxDepth (128), fails one level more', () => {
    expect(checkRequestBounds('chat', chatWithSchema(nest(128 - CHAT_SCHEMA_OFFSET)))).toBeUndefined();
    const violation = checkRequestBounds('chat', chatWithSchema(nest(129 - CHAT_SCHEMA_OFFSET)));
    expect(violation).toMatchObject({ bound: 'maxDepth', limit: 128, found: 129 });
    // The object at level 129 is `parameters` then 124 `a` keys down.
    expect(violation!.path).toEqual(['tools', 0, 'function', 'parameters', ...Array(124).fill('a')]);
  });

  it('names the first five segments of a deep path, each at most 64 characters', () => {
    const long = 'k'.repeat(100);
    let schema: Record<string, unknown> = {};
    for (let level = 0; level < 10; level++) schema = { [long]: schema };
    const violation = checkRequestBounds('chat', chatWithSchema(schema), { maxDepth: 8 });
    const error = requestBoundsError(violation!);
    expect(error.param).toBe(`tools.0.function.parameters.${'k'.repeat(64)}…`);
    expect(error.message).toBe(
      `tools.0.function.parameters.${'k'.repeat(64)}…: nested more than 8 levels deep; this gateway takes at most 8 (requestBounds.maxDepth). Send a flatter structure (tool schemas count).`,
    );
  });

  it('counts arrays as levels too', () => {
    const body = { model: 'gpt-5', messages: [{ role: 'user', content: 'Hi.' }], stop: nestArrays(3) };
    expect(checkRequestBounds('chat', body, { maxDepth: 4 })).toBeUndefined();
    expect(checkRequestBounds('chat', body, { maxDepth: 3 })).toMatchObject({ bound: 'maxDepth', path: ['stop', 0, 0], found: 4 });
  });

  it.each([
    ['messages', 'input_schema', (schema: unknown) => ({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: 'Hi.' }], tools: [{ name: 't', input_schema: schema }] }), ['tools', 0, 'input_schema']],
    ['responses', 'parameters', (schema: unknown) => ({ model: 'm', input: 'Hi.', tools: [{ type: 'function', name: 't', parameters: schema }] }), ['tools', 0, 'parameters']],
  ] as const)('%s: depth through a tool %s', (api, _field, make, prefix) => {
    const violation = checkRequestBounds(api, make(nest(10)), { maxDepth: 6 });
    expect(violation).toMatchObject({ bound: 'maxDepth', found: 7 });
    expect(violation!.path.slice(0, 3)).toEqual(prefix);
  });

  it('refuses 50,000 levels of objects and of arrays without overflowing the stack', () => {
    expect(checkRequestBounds('chat', chatWithSchema(nest(50_000)))).toMatchObject({ bound: 'maxDepth', found: 129 });
    const arrays = JSON.parse(`{"model":"m","messages":${'['.repeat(50_000)}${']'.repeat(50_000)}}`);
    expect(checkRequestBounds('chat', arrays)).toMatchObject({ bound: 'maxDepth', found: 129 });
  });

  it('walks a 50,000-level body it is allowed to take without overflowing the stack', () => {
    expect(checkRequestBounds('chat', chatWithSchema(nest(50_000)), { maxDepth: 60_000 })).toBeUndefined();
  });
});
