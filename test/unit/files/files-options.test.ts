/**
 * The `files` option: each form that would serve files nobody chose to
 * share is refused at creation, with a message that says what to give.
 */
import { createGateway, type GatewayOptions, messagesUpstream, upstreamFileStore } from 'modelgate';
import { createMemoryFileStore } from 'modelgate/testing';
import { describe, expect, it } from 'vitest';
import { problemAt, problemsOf } from '../options/problems-of.js';

const make = (files: unknown) => () => createGateway({ auth: { keys: ['sk-a'] }, files } as GatewayOptions);
const vendor = () => upstreamFileStore(messagesUpstream({ baseURL: 'http://127.0.0.1:9', apiKey: 'sk-vendor-0123456789' }));

describe('the files option', () => {
  it('a store that keeps no owners needs `shared`, alone or in { store }', () => {
    expect(problemAt(problemsOf(make(vendor())), 'files')).toMatch(/^is a store that keeps no owners .*`files: \{ store, shared: true \}`/);
    expect(problemAt(problemsOf(make({ store: vendor() })), 'files.shared')).toMatch(/^is missing: the store keeps no owners .*`shared: \(principal, file\) => boolean`/);
  });

  it('`shared` on a store that keeps files per owner has no effect, and says so', () => {
    expect(problemAt(problemsOf(make({ store: createMemoryFileStore([]), shared: true })), 'files.shared')).toMatch(/^has no effect: this store keeps files per owner/);
  });

  it('wrong types name the field and the fix', () => {
    const problems = problemsOf(make({ store: {}, shared: 'yes', allowDelete: 'no', allowPrincipal: true, allowUpload: true }));
    expect(problemAt(problems, 'files.store')).toMatch(/^must be a FileStore \(an object with list, retrieve, content, delete/);
    expect(problemAt(problems, 'files.shared')).toMatch(/^must be true .* or `\(principal, file\) => boolean`/);
    expect(problemAt(problems, 'files.allowDelete')).toBe('must be true or false (got a string)');
    expect(problemAt(problems, 'files.allowPrincipal')).toMatch(/^must be `\(principal\) => boolean`/);
    expect(problemAt(problems, 'files.allowUpload')).toMatch(/^is not a `files` option/);
    expect(problemAt(problemsOf(make(true)), 'files')).toMatch(/^is true: give `\{ store, shared\?, allowDelete\? \}`/);
    expect(problemAt(problemsOf(make('vendor')), 'files')).toMatch(/^must be `\{ store, shared\?, allowDelete\?, allowPrincipal\? \}`/);
  });

  it('valid forms construct', () => {
    expect(make(false)).not.toThrow();
    expect(make(createMemoryFileStore([]))).not.toThrow();
    expect(make({ store: vendor(), shared: true, allowDelete: true })).not.toThrow();
    expect(make({ store: vendor(), shared: () => false, allowPrincipal: () => true })).not.toThrow();
  });
});

describe('upstreamFileStore', () => {
  it('refuses an upstream whose platform holds no files, naming it', () => {
    const bedrockLike = { ...messagesUpstream({ baseURL: 'http://127.0.0.1:9', apiKey: 'sk-vendor-0123456789', name: 'bedrock-east' }), holdsFiles: false };
    expect(() => upstreamFileStore(bedrockLike)).toThrow(/"bedrock-east" holds no files/);
  });
});
