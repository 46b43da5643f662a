/**
 * The example apps' Redis client, from `REDIS_URL`: one client shared by
 * the limits (when set) and the stored responses of `/v1/responses`.
 */
import { Redis } from 'ioredis';

type Env = Readonly<Record<string, string | undefined>>;

export interface SharedRedis {
  client: Redis;
  /** The URL without its password, for the startup notes. */
  where: string;
  /** Quits the client (it reconnects for as long as it lives). */
  dispose(): Promise<void>;
}

/** The client of `REDIS_URL`, or undefined when it is not set. */
export function redisFromEnv(env: Env): SharedRedis | undefined {
  const url = env.REDIS_URL?.trim();
  if (!url) return undefined;
  // One retry per command: the gateway's own time-out and outage policy take over from there.
  const client = new Redis(url, { maxRetriesPerRequest: 1 });
  client.on('error', (error: Error) => console.error(`Redis: ${error.message}`));
  return {
    client,
    where: url.replace(/\/\/[^@/]*@/, '//***@'),
    dispose: async () => {
      client.disconnect();
    },
  };
}
