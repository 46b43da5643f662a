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
 * The suite's get-space, get-slash*, get-slashes, get-relative* and
 * normalize-path groups are not in the transcription the fixture comes from
 * (see its `source`), so they are not run here.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createBedrockSigner } from '../../../src/upstreams/bedrock/bedrock-upstream.js';
import { z } from 'zod';
import fixture from '../../fixtures/sigv4/aws-sigv4-test-suite.json' with { type: 'json' };

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

const signingDate = new Date(suite.signingDate);


async function sign(request: VectorRequest, applyChecksum = false): Promise<Record<string, string>> {
  const signer = await createBedrockSigner({ service: suite.service, region: suite.region, credentials: suite.credentials, applyChecksum });
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
