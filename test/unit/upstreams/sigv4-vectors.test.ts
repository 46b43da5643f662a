/**
 * AWS's published Signature Version 4 test vectors, signed through the signer
 * `bedrockUpstream` builds (`createBedrockSigner`: `@smithy/signature-v4`'s
 * `SignatureV4` with the `node:crypto` SHA-256 adapter and the path escaping
 * of non-S3 services (each path segment URI-encoded once more: `%3A` is signed as
 * `%253A`, which Bedrock's model ids need).
 *
 * The vectors (test/fixtures/sigv4/aws-sigv4-test-suite.json) predate the
 * `x-amz-content-sha256` header, so they are signed with `applyChecksum:
 * false`; the one difference from `bedrockUpstream`'s signer (which sends and
 * signs that header) is checked by the last test.
 *
 * The suite's path groups (get-space, get-slash, get-slash-dot-slash,
 * get-slash-pointless-dot, get-slashes, get-relative, get-relative-relative:
 * its normalize-path group) and the vectors the smithy transcription lacks
 * (get-vanilla-query-order-encoded, get-vanilla-with-session-token) come from
 * the copy of the suite kept by aws-c-auth
 * (test/fixtures/sigv4/aws-sigv4-path-suite.json), where each path group is
 * one request signed twice: `-normalized` (the canonical path of every
 * service but S3: empty, `.` and `..` segments resolved) and `-unnormalized`
 * (S3's: the path signed as sent).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SignatureV4 } from '@smithy/signature-v4';
import { createBedrockSigner } from '../../../src/upstreams/bedrock/bedrock-upstream.js';
import { Sha256 } from '../../../src/upstreams/bedrock/sha256.js';
import { z } from 'zod';
import fixture from '../../fixtures/sigv4/aws-sigv4-test-suite.json' with { type: 'json' };
import pathFixture from '../../fixtures/sigv4/aws-sigv4-path-suite.json' with { type: 'json' };

const vectorRequest = z.object({
  method: z.string(),
  path: z.string(),
  query: z.record(z.string(), z.string()),
  headers: z.record(z.string(), z.string()),
  body: z.string().optional(),
});
type VectorRequest = z.infer<typeof vectorRequest>;

const suite = z
  .object({
    credentials: z.object({ accessKeyId: z.string(), secretAccessKey: z.string() }),
    region: z.string(),
    service: z.string(),
    signingDate: z.string(),
    hostname: z.string(),
    cases: z.array(z.object({ name: z.string(), request: vectorRequest, authorization: z.string() })),
  })
  .parse(fixture);

const pathSuite = z
  .object({
    source: z.string(),
    cases: z.array(
      z.object({
        name: z.string(),
        normalize: z.boolean(),
        sessionToken: z.string().optional(),
        request: vectorRequest,
        canonicalPath: z.string(),
        authorization: z.string(),
      }),
    ),
  })
  .parse(pathFixture);

const signingDate = new Date(suite.signingDate);

async function sign(request: VectorRequest, applyChecksum = false, sessionToken?: string): Promise<Record<string, string>> {
  const credentials = sessionToken === undefined ? suite.credentials : { ...suite.credentials, sessionToken };
  const signer = await createBedrockSigner({ service: suite.service, region: suite.region, credentials, applyChecksum });
  return signWith(signer, request);
}

async function signWith(signer: SignatureV4, request: VectorRequest): Promise<Record<string, string>> {
  const signed = await signer.sign(
    { protocol: 'https:', hostname: suite.hostname, method: request.method, path: request.path, query: { ...request.query }, headers: { ...request.headers }, ...(request.body === undefined ? {} : { body: request.body }) },
    { signingDate },
  );
  return signed.headers;
}

describe('AWS Signature Version 4 test suite through the Bedrock signing path', () => {
  it('holds the suite', () => {
    expect(suite.cases.length).toBe(24);
  });

  for (const vector of suite.cases) {
    it(`${vector.name}: the Authorization header is AWS's`, async () => {
      const headers = await sign(vector.request);
      expect(headers.authorization).toBe(vector.authorization);
    });
  }

  it("adds and signs x-amz-content-sha256 (the payload's SHA-256) as bedrockUpstream's signer does", async () => {
    const vector = suite.cases.find((c) => c.name === 'post-x-www-form-urlencoded');
    if (vector === undefined) throw new Error('post-x-www-form-urlencoded is missing from the fixture');
    const headers = await sign(vector.request, true);
    expect(headers['x-amz-content-sha256']).toBe(createHash('sha256').update('Param1=value1').digest('hex'));
    expect(headers.authorization).toMatch(/SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$/);
    expect(headers.authorization).not.toBe(vector.authorization);
  });
});

describe("AWS Signature Version 4 test suite: the path vectors (the normalize-path group), the session token and encoded query keys", () => {
  const normalizedTwin = (name: string) => {
    const twin = pathSuite.cases.find((c) => c.name === name.replace(/-unnormalized$/, '-normalized'));
    if (twin === undefined) throw new Error(`${name} has no -normalized twin in the fixture`);
    return twin;
  };

  it('holds the vectors: seven path groups, each normalized and unnormalized, and two more', () => {
    expect(pathSuite.cases.length).toBe(16);
    expect(pathSuite.cases.filter((c) => !c.normalize).length).toBe(7);
  });

  for (const vector of pathSuite.cases.filter((c) => c.normalize)) {
    it(`${vector.name}: the Authorization header is AWS's`, async () => {
      const headers = await sign(vector.request, false, vector.sessionToken);
      expect(headers.authorization).toBe(vector.authorization);
    });
  }

  // The -unnormalized vectors are S3's canonical path (the path exactly as sent). The Bedrock signer
  // cannot produce them, by design: it keeps SignatureV4's `uriEscapePath: true` (model ids need their
  // segment escaped once more: `%3A` signed as `%253A`), and in @smithy/signature-v4 that same option
  // also normalizes (`getCanonicalPath` drops empty and `.` segments and resolves `..` before
  // escaping); no option escapes without normalizing. So it signs the -normalized twin's canonical
  // path, which is what every service but S3 (Bedrock included) verifies against. Asserted here: the
  // Bedrock signer gives the normalized twin's AWS signature, and S3's standard configuration
  // (`uriEscapePath: false`, the path given as it goes on the wire) gives AWS's unnormalized one.
  for (const vector of pathSuite.cases.filter((c) => !c.normalize)) {
    it(`${vector.name}: the Bedrock signer signs the normalized path (AWS's -normalized signature)`, async () => {
      const twin = normalizedTwin(vector.name);
      const headers = await sign(vector.request);
      expect(headers.authorization).toBe(twin.authorization);
      if (vector.canonicalPath !== twin.canonicalPath) expect(headers.authorization).not.toBe(vector.authorization);
    });

    it(`${vector.name}: S3's signer configuration (uriEscapePath: false) gives AWS's Authorization`, async () => {
      const signer = new SignatureV4({ service: suite.service, region: suite.region, credentials: suite.credentials, applyChecksum: false, uriEscapePath: false, sha256: Sha256 });
      const headers = await signWith(signer, { ...vector.request, path: encodeURI(vector.request.path) });
      expect(headers.authorization).toBe(vector.authorization);
    });
  }
});
