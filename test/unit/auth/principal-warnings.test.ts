/**
 * Warnings at creation about static keys: keys shorter than 16 characters
 * (named by position, never by value) and default ids derived under a
 * per-process secret while a store is shared by every instance.
 */
import { Redis } from 'ioredis';
import { createGateway, type GatewayLogger, memoryLimitStore, memoryResponseStore, redisHealthStore, redisLimitStore, redisResponseStore } from 'modelgate';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { principalWarnings } from '../../../src/auth/principal-warnings.js';

const LONG = 'sk-long-enough-key-7f3a9c1e';
const SECRET = 'a-deployment-secret-of-32-chars-or-more!';
// Never connects: the stores are only built, no command is sent.
const client = new Redis({ lazyConnect: true, port: 1 });

afterAll(() => client.disconnect());

/** True when `text` holds any 3 consecutive characters of `key`. */
function holdsPartOf(text: string, key: string): boolean {
  for (let start = 0; start + 3 <= key.length; start++) if (text.includes(key.slice(start, start + 3))) return true;
  return false;
}

describe('short keys', () => {
  it('each key under 16 characters is named by its position, never by its value', () => {
    const short = ['Zq9!xW', 'Jv#2pL8@rT4%uM0']; // 6 and 15 characters
    const warnings = principalWarnings({ auth: { keys: [short[0]!, LONG, { key: short[1]!, id: 'team-b' }, 'X'.repeat(16)] } });
    expect(warnings.map((warning) => warning.event)).toEqual(['short_key', 'short_key']);
    expect(warnings[0]!.message).toMatch(/auth\.keys\[0\] is shorter than 16 characters/);
    expect(warnings[1]!.message).toMatch(/auth\.keys\[2\] is shorter than 16 characters/);
    for (const { message } of warnings) for (const key of short) expect(holdsPartOf(message, key)).toBe(false);
  });

  it('counts characters, not UTF-16 units or bytes', () => {
    expect(principalWarnings({ auth: { keys: ['ü'.repeat(16)] } })).toEqual([]);
    expect(principalWarnings({ auth: { keys: ['🔑'.repeat(15)] } })).toHaveLength(1);
  });

  it('none for `verify`: it names its own principals', () => {
    expect(principalWarnings({ auth: { verify: () => null }, limits: { store: redisLimitStore({ client }) } })).toEqual([]);
  });
});

describe('shared stores without auth.principalSecret', () => {
  const missing = (options: Parameters<typeof principalWarnings>[0]) => principalWarnings(options).filter((warning) => warning.event === 'principal_secret_missing');

  it('each shared store is named, with what goes wrong and how to fix it', () => {
    const [warning, ...more] = missing({
      auth: { keys: [LONG] },
      limits: { store: redisLimitStore({ client }) },
      responseStore: redisResponseStore({ client }),
      routing: { health: redisHealthStore({ client }) },
    });
    expect(more).toEqual([]);
    expect(warning!.message).toMatch(/^modelgate: limits\.store, responseStore, routing\.health are stores shared by every instance, but auth\.principalSecret is not set/);
    expect(warning!.message).toMatch(/per-principal limits and stored responses will not match across instances or restarts/);
    expect(warning!.message).toMatch(/Set auth\.principalSecret to the same long random string on every instance/);
    expect(holdsPartOf(warning!.message, LONG.slice(-8))).toBe(false); // the random part of the key
  });

  it('one shared store is enough', () => {
    expect(missing({ auth: { keys: [LONG] }, responseStore: redisResponseStore({ client }) })[0]!.message).toMatch(/^modelgate: responseStore is a store shared by every instance/);
  });

  it('none with the secret, with an explicit id on every key, or with in-memory stores only', () => {
    expect(missing({ auth: { keys: [LONG], principalSecret: SECRET }, limits: { store: redisLimitStore({ client }) } })).toEqual([]);
    expect(missing({ auth: { keys: [{ key: LONG, id: 'tenant-a' }] }, limits: { store: redisLimitStore({ client }) } })).toEqual([]);
    expect(missing({ auth: { keys: [LONG] }, limits: { store: memoryLimitStore() }, responseStore: memoryResponseStore() })).toEqual([]);
  });

  it('a key without an id among keys with ids still needs the secret', () => {
    expect(missing({ auth: { keys: [{ key: LONG, id: 'tenant-a' }, `${LONG}-b`] }, limits: { store: redisLimitStore({ client }) } })).toHaveLength(1);
  });
});

describe('where the warnings go', () => {
  afterEach(() => vi.restoreAllMocks());

  const recordingLogger = () => {
    const warned: { object: Record<string, unknown>; message: string | undefined }[] = [];
    const logger: GatewayLogger = {
      info() {},
      warn(object, message) {
        warned.push({ object, message });
      },
      error() {},
      debug() {},
      child: () => logger,
    };
    return { logger, warned };
  };

  it('logger.warn, once per warning, at creation', () => {
    const { logger, warned } = recordingLogger();
    createGateway({ auth: { keys: ['Zq9!xW', LONG] }, logger });
    expect(warned).toEqual([{ object: { component: 'modelgate', event: 'short_key' }, message: expect.stringMatching(/^modelgate: auth\.keys\[0\] is shorter/) }]);
  });

  it('stderr without a logger', () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    createGateway({ auth: { keys: [LONG, 'Zq9!xW'] } });
    expect(written).toEqual([expect.stringMatching(/^modelgate: auth\.keys\[1\] is shorter than 16 characters.*\n$/)]);
  });

  it('nothing for long keys', () => {
    const { logger, warned } = recordingLogger();
    createGateway({ auth: { keys: [LONG] }, logger });
    expect(warned).toEqual([]);
  });
});
