import { azureOpenAI, bedrockUpstream, openAICompatible, vertexUpstream } from 'modelgate';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/errors.js';
import { weakSecretWarnings, gatewayRedactor } from '../../../src/redact/gateway-redactor.js';
import { errorForClient, redactCauses } from '../../../src/redact/redact-error.js';
import { allowsFragmentMatching, createRedactor, REDACTED } from '../../../src/redact/redactor.js';
import { errorFromUpstreamEvent } from '../../../src/sse/classify-upstream-event.js';

const DUMMY = 'sk-no-key-required';
const EAST = 'sk-upstream-east';
// A generated key: base62 after a vendor prefix.
const REAL = 'sk-proj-7fQ2xLm9Zt4Rw8Kp3Vd6Yb1N';
const HEX = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';

describe('which secrets are matched in pieces', () => {
  it.each([
    [DUMMY, false],
    [EAST, false],
    ['sk-my-local-development-key', false],
    ['Xk9Qw2Lp7Zr4Tn8', false],
    [REAL, true],
    [HEX, true],
  ])('%s → %s', (secret, expected) => {
    expect(allowsFragmentMatching(secret)).toBe(expected);
  });
});

describe('plain keys never rewrite ordinary words', () => {
  const redactor = createRedactor([DUMMY, EAST]);

  it('the gateway words that contain pieces of them read in full', () => {
    expect(redactor.redact('max_tokens: field required')).toBe('max_tokens: field required');
    expect(redactor.redact('upstream_cooling')).toBe('upstream_cooling');
    expect(redactor.redact('The upstream of this model is cooling down; this key is required.')).toBe('The upstream of this model is cooling down; this key is required.');
  });

  it('are still hidden where quoted whole, also JSON- and URL-encoded', () => {
    expect(redactor.redact(`Bearer ${DUMMY} rejected`)).toBe(`Bearer ${REDACTED} rejected`);
    expect(redactor.redact(`key=${encodeURIComponent(EAST)}&x=1`)).toBe(`key=${REDACTED}&x=1`);
    expect(redactor.redact(JSON.stringify({ detail: `key ${EAST}` }))).toBe(`{"detail":"key ${REDACTED}"}`);
  });
});

describe('random keys are still found whole and in pieces', () => {
  const redactor = createRedactor([REAL, HEX]);

  it.each([
    ['whole', `Incorrect API key provided: ${REAL}.`],
    ['cut short', `Incorrect API key provided: ${REAL.slice(0, 16)}*****`],
    ['only its end', `key ending in ${REAL.slice(-10)}`],
    ['JSON-escaped', JSON.stringify({ message: `key ${REAL}` })],
    ['URL-encoded', `GET /v1/models?key=${encodeURIComponent(`${HEX}/x`)}`],
    ['a piece of a hex key', `token …${HEX.slice(20, 34)}…`],
  ])('%s', (_how, text) => {
    const out = redactor.redact(text);
    expect(out).toContain(REDACTED);
    for (const secret of [REAL, HEX]) {
      for (let i = 0; i + 8 <= secret.length; i++) expect(out).not.toContain(secret.slice(i, i + 8));
    }
  });

  it('the gateway words of the same messages are kept', () => {
    expect(redactor.redact(`Incorrect API key provided: ${REAL}.`)).toBe(`Incorrect API key provided: ${REDACTED}.`);
  });
});

describe('errors: upstream text is redacted where it is read, gateway text never', () => {
  const upstream = openAICompatible({ baseURL: 'http://10.0.0.5:8000/v1', apiKey: REAL });
  const redactor = gatewayRedactor([{ match: '*', upstream }]);

  it('an unnamed upstream is called by its host:port', () => {
    expect(upstream.name).toBe('10.0.0.5:8000');
  });

  it('redactCauses leaves the message (and the name in it) as written, and redacts the cause', () => {
    const error = new GatewayError('UPSTREAM_UNAVAILABLE', 'Upstream "10.0.0.5:8000" refused the connection.', {
      cause: new Error(`connect ECONNREFUSED 10.0.0.5:8000 with ${REAL}`),
    });
    const out = redactCauses(error, redactor);
    expect(out.message).toBe('Upstream "10.0.0.5:8000" refused the connection.');
    expect((out.cause as Error).message).toBe(`connect ECONNREFUSED ${REDACTED} with ${REDACTED}`);
  });

  it('errorForClient shows the unnamed upstream in a neutral form, and only that', () => {
    const error = new GatewayError('UPSTREAM_ERROR', 'Upstream "10.0.0.5:8000" failed (HTTP 500).', { chatCode: 'upstream_cooling' });
    const out = errorForClient(error, redactor);
    expect(out.message).toBe('Upstream "(unnamed upstream)" failed (HTTP 500).');
    expect(out.chatCode).toBe('upstream_cooling');
    expect(error.message).toBe('Upstream "10.0.0.5:8000" failed (HTTP 500).');
  });

  it.each([
    ['Azure OpenAI', () => azureOpenAI({ endpoint: 'https://10.0.0.7:8443', apiKey: REAL })],
    ['Bedrock', () => bedrockUpstream({ region: 'us-east-1', endpoint: 'https://10.0.0.7:8443', apiKey: REAL })],
    ['Vertex AI', () => vertexUpstream({ projectId: 'p', region: 'us-east5', baseURL: 'https://10.0.0.7:8443', accessToken: REAL })],
  ])('an unnamed %s upstream is shown to clients in the same neutral form', (_platform, make) => {
    const cloud = make();
    expect(cloud.name).toBe('10.0.0.7:8443');
    const error = new GatewayError('UPSTREAM_ERROR', 'Upstream "10.0.0.7:8443" failed (HTTP 500).');
    expect(errorForClient(error, gatewayRedactor([{ match: '*', upstream: cloud }])).message).toBe('Upstream "(unnamed upstream)" failed (HTTP 500).');
  });

  it('a named upstream keeps its name for clients, even when it is a word of an address', () => {
    const named = openAICompatible({ baseURL: 'http://upstream:8000/v1', apiKey: REAL, name: 'upstream' });
    const own = gatewayRedactor([{ match: '*', upstream: named }]);
    const error = new GatewayError('UPSTREAM_ERROR', 'Upstream "upstream" failed (HTTP 500).');
    expect(errorForClient(error, own)).toBe(error);
  });

  it('errorFromUpstreamEvent redacts the vendor text, not its own fallback', () => {
    const event = { data: JSON.stringify({ error: { message: `bad key ${REAL} at http://10.0.0.5:8000/v1`, type: 'server_error', code: `c_${REAL}` } }) };
    const error = errorFromUpstreamEvent(event, 'chat', { name: upstream.name, redactor });
    expect(error.message).toBe(`bad key ${REDACTED} at ${REDACTED}`);
    expect(error.chatCode).toBe(`c_${REDACTED}`);
    const fallback = errorFromUpstreamEvent({ event: 'error', data: REAL }, 'messages', { name: upstream.name, redactor });
    expect(fallback.message).toBe('Upstream "10.0.0.5:8000" reported an error mid-stream.');
  });
});

describe('weakSecretWarnings', () => {
  it('names the upstream, never the key, and points to leaving apiKey out', () => {
    const local = openAICompatible({ baseURL: 'http://127.0.0.1:8000/v1', apiKey: DUMMY, name: 'local' });
    const warnings = weakSecretWarnings([{ match: 'a', upstream: local }, { match: 'b', upstream: local }]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.event).toBe('weak_upstream_secret');
    expect(warnings[0]!.message).toContain('"local"');
    expect(warnings[0]!.message).toContain('leave `apiKey` out');
    expect(warnings[0]!.message).not.toContain(DUMMY);
    expect(warnings[0]!.message).not.toContain('required');
  });

  it('is silent for a generated key and for an upstream without a key', () => {
    const strong = openAICompatible({ baseURL: 'https://api.example/v1', apiKey: REAL });
    const keyless = openAICompatible({ baseURL: 'http://127.0.0.1:8000/v1' });
    expect(weakSecretWarnings([{ match: 'a', upstream: strong }, { match: 'b', upstream: keyless }])).toEqual([]);
  });
});
