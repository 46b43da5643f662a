import { describe, expect, it } from 'vitest';
import { createRedactor, REDACTED } from '../../../src/redact/redactor.js';
import { serverAddresses, upstreamAddresses } from '../../../src/redact/upstream-addresses.js';

describe('upstreamAddresses', () => {
  it('a base URL: itself without credentials or query, its origin, host:port and host', () => {
    expect(new Set(upstreamAddresses('https://user:pw@llm.internal:8443/v1/?key=1'))).toEqual(
      new Set(['https://llm.internal:8443/v1', 'https://llm.internal:8443', 'llm.internal:8443', 'llm.internal']),
    );
  });

  it('the default port is named too, and an IPv6 host with and without brackets', () => {
    expect(upstreamAddresses('https://api.vendor.example')).toContain('api.vendor.example:443');
    expect(upstreamAddresses('http://[fd00::5]:8080/v1')).toEqual(expect.arrayContaining(['[fd00::5]:8080', '[fd00::5]', 'fd00::5']));
    expect(serverAddresses({ address: 'fd00::5', port: 8080 })).toEqual(['[fd00::5]:8080', '[fd00::5]', 'fd00::5']);
  });

  it('nothing for an invalid URL', () => {
    expect(upstreamAddresses('not a url')).toEqual([]);
  });
});

describe('a redactor with addresses', () => {
  const redactor = createRedactor(['sk-upstream-secret-key'], upstreamAddresses('http://llm.internal:8443/v1'));

  it('hides every form, whole and case-insensitively', () => {
    const text = 'POST http://llm.internal:8443/v1/chat failed at llm.internal:8443 (LLM.Internal) http:\\/\\/llm.internal:8443\\/v1 http%3A%2F%2Fllm.internal%3A8443%2Fv1';
    const out = redactor.redact(text);
    expect(out.toLowerCase()).not.toContain('llm.internal');
    expect(out).toBe(`POST ${REDACTED}/chat failed at ${REDACTED} (${REDACTED}) ${REDACTED} ${REDACTED}`);
  });

  it('leaves longer host names that contain it alone, and still hides secrets', () => {
    expect(redactor.redact('see myllm.internal and llm.internal.example.com, key sk-upstream-secret-key')).toBe(`see myllm.internal and llm.internal.example.com, key ${REDACTED}`);
  });

  it('is kept by with() (a passthrough key)', () => {
    expect(redactor.with('sk-caller-key-0123').redact('llm.internal:8443 sk-caller-key-0123')).toBe(`${REDACTED} ${REDACTED}`);
  });

  it('a redactor of addresses alone is not empty; one of nothing is', () => {
    expect(createRedactor([], ['llm.internal']).empty).toBe(false);
    expect(createRedactor([], []).empty).toBe(true);
  });
});
