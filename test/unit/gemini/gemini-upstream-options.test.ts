/**
 * `geminiUpstream(options)` refuses what cannot work, with a message that
 * says what to give instead; and where its calls go (AI Studio and Vertex
 * AI paths as Google documents them).
 */
import { geminiUpstream } from 'modelgate';
import { describe, expect, it } from 'vitest';
import { geminiMethodPath, geminiRoot } from '../../../src/upstreams/gemini/gemini-url.js';
import { problemAt, problemsOf } from '../options/problems-of.js';

const KEY = 'AIzaSy-unit-key-0123456789';

describe('geminiUpstream options', () => {
  it('takes an API key, or a Vertex AI project and location with a token', () => {
    expect(geminiUpstream({ apiKey: KEY }).provider).toBe('gcp.gemini');
    expect(geminiUpstream({ vertex: { projectId: 'p', region: 'global', accessToken: 'ya29.x' } }).provider).toBe('gcp.vertex_ai');
  });

  it('names its host by default, and never a key', () => {
    const upstream = geminiUpstream({ apiKey: KEY });
    expect(upstream.name).toBe('generativelanguage.googleapis.com');
    expect(upstream.nameIsAddress).toBe(true);
    expect(upstream.secrets?.()).toContain(KEY);
    expect(geminiUpstream({ vertex: { projectId: 'p', region: 'europe-west4', accessToken: 'ya29.x' } }).name).toBe('europe-west4-aiplatform.googleapis.com');
  });

  it('wants an API key or vertex', () => {
    expect(problemAt(problemsOf(() => geminiUpstream({})), 'apiKey')).toMatch(/is missing: give a Gemini API key .* or `vertex: \{ projectId, region \}`/);
  });

  it('says an undefined apiKey looks like an unset variable', () => {
    expect(problemAt(problemsOf(() => geminiUpstream({ apiKey: undefined })), 'apiKey')).toMatch(/unset environment variable\? Set GEMINI_API_KEY/);
  });

  it('refuses apiKey and vertex together', () => {
    const problems = problemsOf(() => geminiUpstream({ apiKey: KEY, vertex: { projectId: 'p', region: 'global', accessToken: 't' } }));
    expect(problemAt(problems, 'apiKey')).toMatch(/not both/);
  });

  it('refuses a base URL with the API version, which the upstream adds', () => {
    expect(problemAt(problemsOf(() => geminiUpstream({ apiKey: KEY, baseURL: 'https://generativelanguage.googleapis.com/v1beta' })), 'baseURL')).toMatch(/ends in an API version: give the root without it/);
    expect(problemAt(problemsOf(() => geminiUpstream({ apiKey: KEY, baseURL: 'https://proxy.internal/google/v1' })), 'baseURL')).toMatch(/API version/);
  });

  it('refuses a Vertex location that is not one, and Vertex fields at the top level', () => {
    expect(problemAt(problemsOf(() => geminiUpstream({ vertex: { projectId: 'p', region: 'Frankfurt', accessToken: 't' } })), 'vertex.region')).toMatch(/is not a Vertex AI location/);
    const misplaced = problemsOf(() => geminiUpstream({ projectId: 'p', region: 'global' } as never));
    expect(misplaced.map((problem) => problem.message).join('\n')).toMatch(/projectId belongs in `vertex`/);
  });

  it('refuses accessToken and googleAuth together', () => {
    const googleAuth = { getClient: () => Promise.reject(new Error('unused')) };
    expect(problemAt(problemsOf(() => geminiUpstream({ vertex: { projectId: 'p', region: 'global', accessToken: 't', googleAuth } })), 'vertex.googleAuth')).toMatch(/one source/);
  });
});

describe('Gemini URLs', () => {
  // https://ai.google.dev/api/generate-content: POST https://generativelanguage.googleapis.com/v1beta/{model=models/*}:generateContent
  it('puts AI Studio calls under /v1beta/models, streaming with alt=sse', () => {
    expect(geminiRoot({ kind: 'ai-studio' })).toBe('https://generativelanguage.googleapis.com');
    expect(geminiMethodPath({ kind: 'ai-studio' }, 'gemini-2.5-flash', 'generateContent')).toEqual({ path: '/v1beta/models/gemini-2.5-flash:generateContent' });
    expect(geminiMethodPath({ kind: 'ai-studio' }, 'models/gemini-2.5-flash', 'streamGenerateContent')).toEqual({
      path: '/v1beta/models/gemini-2.5-flash:streamGenerateContent',
      query: { alt: 'sse' },
    });
  });

  // https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/inference: https://{LOCATION}-aiplatform.googleapis.com/v1/projects/{PROJECT_ID}/locations/{LOCATION}/publishers/google/models/{MODEL_ID}:generateContent
  it('puts Vertex AI calls under the project and location, on the global host for global', () => {
    const place = { kind: 'vertex', projectId: 'acme', region: 'us-central1' } as const;
    expect(geminiRoot(place)).toBe('https://us-central1-aiplatform.googleapis.com');
    expect(geminiRoot({ ...place, region: 'global' })).toBe('https://aiplatform.googleapis.com');
    expect(geminiMethodPath(place, 'gemini-2.5-pro', 'generateContent').path).toBe('/v1/projects/acme/locations/us-central1/publishers/google/models/gemini-2.5-pro:generateContent');
  });
});
