/**
 * Application Default Credentials through the real `google-auth-library`
 * (no mock): `GOOGLE_APPLICATION_CREDENTIALS` names a credentials file, the
 * library reads it, makes the token grant over HTTP to a loopback token
 * endpoint, and the token it is given is the one the Vertex stub receives.
 *
 * Why a workload-identity-federation file (`type: external_account`) and not
 * a service-account key: google-auth-library 10.9.1 ignores a key file's
 * `token_uri` (`JWT.fromJSON` reads `client_email`, `private_key`,
 * `private_key_id`, `project_id`, `quota_project_id` and `universe_domain`
 * only), and posts the JWT-bearer grant to the constant
 * `https://oauth2.googleapis.com/token` (`build/src/gtoken/getToken.js`);
 * `universe_domain` only switches the key to self-signed JWTs, which
 * `getAccessToken()` does not use. The library has no setting, file field or
 * environment variable that moves that grant to another host, so it cannot
 * run offline. An `external_account` file's `token_url` is honoured as given
 * (`BaseExternalAccountClient`), so this test uses one: its subject token is
 * an RS256 JWT signed with a locally generated RSA key (what an OIDC
 * identity provider such as a Kubernetes cluster issues), which the token
 * stub verifies before exchanging it (RFC 8693) for an access token.
 */
import { generateKeyPairSync, type KeyObject, sign, verify } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { vertexUpstream, type UpstreamResponse } from 'modelgate';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LOCATION, PROJECT, startVertexStub, type VertexStub } from '../../helpers/vertex-stub.js';

const ISSUED_TOKEN = 'ya29.sts-issued-token-0123456789abcdef';
const AUDIENCE = '//iam.googleapis.com/projects/123456789/locations/global/workloadIdentityPools/local-pool/providers/local-oidc';
const JWT_TYPE = 'urn:ietf:params:oauth:token-type:jwt';

const base64url = (data: string | Buffer): string => Buffer.from(data).toString('base64url');

/** An RS256 JWT, as an OIDC identity provider signs it. */
function signJwt(claims: Record<string, unknown>, key: KeyObject): string {
  const unsigned = `${base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid: 'local-key-1' }))}.${base64url(JSON.stringify(claims))}`;
  return `${unsigned}.${sign('sha256', Buffer.from(unsigned), key).toString('base64url')}`;
}

function verifiesWith(jwt: string, key: KeyObject): boolean {
  const [header, payload, signature] = jwt.split('.');
  if (header === undefined || payload === undefined || signature === undefined) return false;
  return verify('sha256', Buffer.from(`${header}.${payload}`), key, Buffer.from(signature, 'base64url'));
}

interface Grant {
  path: string;
  form: Record<string, string>;
  signatureValid: boolean;
}

/** A token endpoint (Google's STS shape): exchanges a subject token its key signed for ISSUED_TOKEN. */
async function startTokenStub(publicKey: KeyObject): Promise<{ url: string; grants: Grant[]; close(): Promise<void> }> {
  const grants: Grant[] = [];
  const server: Server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(text));
      const signatureValid = verifiesWith(form.subject_token ?? '', publicKey);
      grants.push({ path: req.url ?? '', form, signatureValid });
      const valid = req.method === 'POST' && form.grant_type === 'urn:ietf:params:oauth:grant-type:token-exchange' && form.audience === AUDIENCE && signatureValid;
      res.writeHead(valid ? 200 : 400, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          valid
            ? { access_token: ISSUED_TOKEN, issued_token_type: 'urn:ietf:params:oauth:token-type:access_token', token_type: 'Bearer', expires_in: 3600 }
            : { error: 'invalid_grant', error_description: 'subject token refused' },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, grants, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function drain(response: UpstreamResponse): Promise<void> {
  for await (const _ of response.body);
}

describe('vertexUpstream with Application Default Credentials from the real google-auth-library', () => {
  const dir = mkdtempSync(join(tmpdir(), 'modelgate-adc-'));
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  let tokens: Awaited<ReturnType<typeof startTokenStub>>;
  let vertex: VertexStub;

  beforeAll(async () => {
    tokens = await startTokenStub(publicKey);
    vertex = await startVertexStub({ tokens: [ISSUED_TOKEN] });
    const now = Math.floor(Date.now() / 1000);
    const subjectFile = join(dir, 'subject-token.jwt');
    writeFileSync(subjectFile, signJwt({ iss: 'https://oidc.local.test', sub: 'system:serviceaccount:apps:gateway', aud: AUDIENCE, iat: now, exp: now + 600 }, privateKey));
    const credentialsFile = join(dir, 'credentials.json');
    writeFileSync(
      credentialsFile,
      JSON.stringify({ type: 'external_account', audience: AUDIENCE, subject_token_type: JWT_TYPE, token_url: `${tokens.url}/v1/token`, credential_source: { file: subjectFile } }),
    );
    vi.stubEnv('GOOGLE_APPLICATION_CREDENTIALS', credentialsFile);
    // The project is the upstream's option; set here only so the library does not look for one (gcloud, metadata server).
    vi.stubEnv('GOOGLE_CLOUD_PROJECT', PROJECT);
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await tokens.close();
    await vertex.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads GOOGLE_APPLICATION_CREDENTIALS, makes the grant with the signed subject token, and sends the issued token to Vertex', async () => {
    const upstream = vertexUpstream({ projectId: PROJECT, region: LOCATION, baseURL: vertex.baseURL });
    const call = { operation: 'messages' as const, body: { model: 'claude-haiku-4-5@20251001', max_tokens: 8, messages: [{ role: 'user', content: 'Hi' }] }, headers: {}, signal: new AbortController().signal };
    const first = await upstream.send(call);
    expect(first.status).toBe(200);
    await drain(first);
    await drain(await upstream.send(call));

    // One grant for both calls: the library caches the token until shortly before it expires.
    expect(tokens.grants).toHaveLength(1);
    const [grant] = tokens.grants;
    expect(grant?.path).toBe('/v1/token');
    expect(grant?.signatureValid).toBe(true);
    expect(grant?.form).toMatchObject({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      audience: AUDIENCE,
      subject_token_type: JWT_TYPE,
      requested_token_type: 'urn:ietf:params:oauth:token-type:access_token',
      scope: 'https://www.googleapis.com/auth/cloud-platform',
    });
    expect(vertex.requests.map((request) => [request.problem, request.headers.authorization])).toEqual([
      [undefined, `Bearer ${ISSUED_TOKEN}`],
      [undefined, `Bearer ${ISSUED_TOKEN}`],
    ]);
    // A token fetched at run time is a secret too: redacted wherever an error would quote it.
    expect(upstream.secrets?.()).toContain(ISSUED_TOKEN);
    await upstream.close?.();
  });
});
