import { describe, expect, it } from 'vitest';
import { renderError } from '../../../src/render-error.js';
import { createRouter } from '../../../src/routing/routes.js';
import { compileGlob } from '../../../src/models/model-matcher.js';
import type { Upstream } from '../../../src/upstreams/upstream.js';

const fake = (name: string, format: 'chat' | 'messages' = 'chat'): Upstream => ({
  name,
  format,
  send: () => Promise.reject(new Error('not used')),
});

describe('createRouter', () => {
  const vendor = fake('vendor', 'messages');
  const backup = fake('backup', 'messages');
  const openai = fake('openai');
  const local = fake('local');
  const router = createRouter([
    { match: 'vendora-sonnet-4-6', upstream: vendor, model: 'claude-sonnet-4-6-20260101', keyPassthrough: true },
    {
      match: 'vendora-*',
      upstream: vendor,
      model: (id) => id.replace(/^vendora-/, 'claude-'),
      fallbacks: [backup, { upstream: openai, model: 'gpt-4o' }, { upstream: local, model: (id) => `${id}-local` }],
      onClientAbort: 'drain',
      retries: 2,
    },
    { match: /^gpt-4o?$/g, upstream: openai },
    { match: 'llama-?b', upstream: local },
    { match: (model) => model.startsWith('x.'), upstream: local },
  ]);

  it('matches an exact id first and renames it', () => {
    const resolved = router.resolve('vendora-sonnet-4-6');
    expect(resolved?.targets).toEqual([{ upstream: vendor, model: 'claude-sonnet-4-6-20260101' }]);
    expect(resolved?.keyPassthrough).toBe(true);
    expect(resolved?.onClientAbort).toBe('abort');
  });

  it('matches globs, renames with a function and lists fallbacks in order', () => {
    const resolved = router.resolve('vendora-opus-5');
    expect(resolved?.targets).toEqual([
      { upstream: vendor, model: 'claude-opus-5' },
      { upstream: backup, model: 'vendora-opus-5' },
      { upstream: openai, model: 'gpt-4o' },
      { upstream: local, model: 'vendora-opus-5-local' },
    ]);
    expect(resolved).toMatchObject({ requestedModel: 'vendora-opus-5', keyPassthrough: false, onClientAbort: 'drain' });
    expect(resolved?.route.retries).toBe(2);
  });

  it('matches regular expressions without lastIndex state, ? globs and predicates', () => {
    expect(router.resolve('gpt-4o')?.targets[0]?.upstream).toBe(openai);
    expect(router.resolve('gpt-4o')?.targets[0]?.upstream).toBe(openai);
    expect(router.resolve('gpt-4')?.targets[0]?.model).toBe('gpt-4');
    expect(router.resolve('llama-7b')?.targets[0]?.upstream).toBe(local);
    expect(router.resolve('llama-70b')).toBeUndefined();
    expect(router.resolve('x.anything')?.targets[0]?.upstream).toBe(local);
  });

  it('treats glob text literally apart from * and ?', () => {
    expect(compileGlob('a.b*')('a.b-c')).toBe(true);
    expect(compileGlob('a.b*')('aXb-c')).toBe(false);
    expect(createRouter([{ match: 'vendora', upstream: vendor }]).resolve('vendora-opus-5')).toBeUndefined();
  });

  it('gives a 404 naming the model when no route matches', () => {
    expect(router.resolve('mistral-large')).toBeUndefined();
    let thrown: unknown;
    try {
      router.resolveOrThrow('mistral-large');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: 'MODEL_NOT_FOUND', status: 404, param: 'model' });
    const rendered = renderError(thrown as never, 'chat');
    expect(rendered.status).toBe(404);
    expect(rendered.body).toMatchObject({ error: { code: 'model_not_found', param: 'model' } });
    expect(JSON.stringify(rendered.body)).toContain('mistral-large');
  });

  it('rejects malformed routes', () => {
    expect(() => createRouter([{ match: '*', upstream: {} as Upstream }])).toThrow(TypeError);
    expect(() => createRouter([{ match: '*', upstream: vendor, fallbacks: [{} as Upstream] }])).toThrow(/fallbacks\[0\]/);
  });
});
