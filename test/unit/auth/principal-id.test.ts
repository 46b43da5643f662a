/**
 * Default principal ids: derived under `auth.principalSecret`, the same in
 * every process that has the secret; without it, random per process (the
 * same for every gateway of one process, different in another process).
 * No id holds any part of its key.
 */
import { execFile } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createGateway } from 'modelgate';
import { describe, expect, it } from 'vitest';
import { createKeyVerifier } from '../../../src/auth/verify-key.js';
import type { GatewayRequest } from '../../../src/types.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const KEY = 'sk-tenant-a-4c1f9e0b7d2a6e35';
const SECRET = 'a-deployment-secret-of-32-chars-or-more!';

const request: GatewayRequest = { method: 'POST', url: '/v1/messages', headers: {}, signal: new AbortController().signal };

/** The id a fresh Node process gives `key` (with `secret`, when given): a gateway started anew. */
async function idInNewProcess(key: string, secret?: string): Promise<string> {
  const script = `
    const { createKeyVerifier } = await import('./src/auth/verify-key.ts');
    const [key, secret] = JSON.parse(process.argv[1]);
    const verify = createKeyVerifier(secret === null ? { keys: [key] } : { keys: [key], principalSecret: secret });
    process.stdout.write(verify(key, {}).id);`;
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, JSON.stringify([key, secret ?? null])], { cwd: ROOT });
  return stdout;
}

describe('default principal ids', () => {
  it('with the secret: the same id in every process, the HMAC-SHA-256 of the key under it', async () => {
    const expected = `key_${createHmac('sha256', SECRET).update(KEY).digest('hex').slice(0, 24)}`;
    const [first, second] = await Promise.all([idInNewProcess(KEY, SECRET), idInNewProcess(KEY, SECRET)]);
    expect(first).toBe(expected);
    expect(second).toBe(expected);
  });

  it('without it: each process has its own random secret, so ids differ between processes', async () => {
    const [first, second] = await Promise.all([idInNewProcess(KEY), idInNewProcess(KEY)]);
    expect(first).toMatch(/^key_[0-9a-f]{24}$/);
    expect(second).toMatch(/^key_[0-9a-f]{24}$/);
    expect(first).not.toBe(second);
  });

  it('without it: gateways of one process agree (a shared in-memory store counts a key once)', async () => {
    const one = createKeyVerifier({ keys: [KEY] });
    const two = createKeyVerifier({ keys: [KEY] });
    expect((await one(KEY, request))?.id).toBe((await two(KEY, request))?.id);
  });

  it('is not the old unsalted hash, and holds no part of the key', async () => {
    const verify = createKeyVerifier({ keys: [KEY], principalSecret: SECRET });
    const id = (await verify(KEY, request))!.id;
    const unsalted = createHash('sha256').update(KEY).digest('hex');
    expect(unsalted).not.toContain(id.slice(4));
    // No run of 4 or more of the key's characters appears in the id.
    for (let start = 0; start + 4 <= KEY.length; start++) expect(id).not.toContain(KEY.slice(start, start + 4));
  });

  it('an explicit id still wins over the derived one', async () => {
    const verify = createKeyVerifier({ keys: [{ key: KEY, id: 'tenant-a' }], principalSecret: SECRET });
    expect(await verify(KEY, request)).toEqual({ id: 'tenant-a' });
  });

  it('principalSecret is checked: 32 characters or more', () => {
    expect(() => createGateway({ auth: { keys: [KEY], principalSecret: 'short' } })).toThrow(/auth\.principalSecret.*shorter than 32 characters/s);
    expect(() => createGateway({ auth: { keys: [KEY], principalSecret: SECRET } })).not.toThrow();
  });
});
