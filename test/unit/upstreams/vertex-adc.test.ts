/**
 * Application Default Credentials: without `accessToken` or `googleAuth`,
 * `google-auth-library` is imported on first use and asked for a client with
 * the cloud-platform scope (the library itself is replaced here: the real
 * one would reach Google's token endpoint or the metadata server); without
 * the package, a configuration error that says what to install.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isGatewayConfigError, type UpstreamResponse } from 'modelgate';
import { LOCATION, PROJECT, startVertexStub, type VertexStub } from '../../helpers/vertex-stub.js';

const ADC_TOKEN = 'ya29.adc-token-from-google-auth-0123456789';
const made = vi.hoisted(() => ({ auths: [] as unknown[], clients: 0 }));

vi.mock('google-auth-library', () => ({
  GoogleAuth: class {
    constructor(options: unknown) {
      made.auths.push(options);
    }
    async getClient() {
      made.clients++;
      return { getAccessToken: async () => ({ token: ADC_TOKEN }) };
    }
  },
}));

async function drain(response: UpstreamResponse): Promise<void> {
  for await (const _ of response.body);
}

describe('vertexUpstream with Application Default Credentials', () => {
  let stub: VertexStub;
  beforeAll(async () => {
    stub = await startVertexStub({ tokens: [ADC_TOKEN] });
  });
  afterAll(() => stub.close());

  it('imports google-auth-library on first use, with the cloud-platform scope, and sends its token', async () => {
    const { vertexUpstream } = await import('modelgate');
    const upstream = vertexUpstream({ projectId: PROJECT, region: LOCATION, baseURL: stub.baseURL });
    expect(made.auths).toHaveLength(0);
    const call = { operation: 'messages' as const, body: { model: 'claude-haiku-4-5@20251001', max_tokens: 8, messages: [{ role: 'user', content: 'Hi' }] }, headers: {}, signal: new AbortController().signal };
    await drain(await upstream.send(call));
    await drain(await upstream.send(call));
    expect(made.auths).toEqual([{ scopes: 'https://www.googleapis.com/auth/cloud-platform' }]);
    expect(made.clients).toBe(1);
    expect(stub.requests.map((request) => [request.problem, request.headers.authorization])).toEqual([
      [undefined, `Bearer ${ADC_TOKEN}`],
      [undefined, `Bearer ${ADC_TOKEN}`],
    ]);
    expect(upstream.secrets?.()).toContain(ADC_TOKEN);
    await upstream.close?.();
  });

  it('without google-auth-library installed: a GatewayConfigError naming the package and the alternatives', async () => {
    vi.resetModules();
    vi.doMock('../../../src/upstreams/vertex/vertex-auth.js', async (original) => ({ ...(await original<object>()), hasGoogleAuth: () => false }));
    const { vertexUpstream } = await import('../../../src/upstreams/vertex/vertex-upstream.js');
    let thrown: unknown;
    try {
      vertexUpstream({ projectId: PROJECT, region: LOCATION });
    } catch (error) {
      thrown = error;
    }
    expect(isGatewayConfigError(thrown) || (thrown as Error | undefined)?.name === 'GatewayConfigError').toBe(true);
    expect((thrown as Error).message).toMatch(/accessToken is not given, and Application Default Credentials need the "google-auth-library" package: install it/);
  });
});
