/**
 * A hostile caller cannot hurt the app the gateway runs in. Every request
 * of the hostile-input catalogue (`bench/lib/hostile-cases.mjs`), over
 * real HTTP on node:http and on Express, each on the gateway setup it
 * needs (embedded simulator upstream): the status the interface promises,
 * the error in the caller's format, a refused bound naming its field and
 * the bound, no header built from caller text, `Object.prototype` left
 * alone, and a bounded block of this thread's event loop while the
 * request is served (the server runs in this thread; measured in CPU time
 * of the thread, so a loaded machine does not inflate it; `blockBoundMs`:
 * 100 ms plus 100 ms per MiB of body, after the gateway was warmed up).
 * During the worst requests a worker thread keeps asking `GET /v1/models`
 * of the same server, and every answer must come within a second.
 */
import { createSimulator } from 'modelgate/testing';
import { memoryResponseStore } from 'modelgate';
import { afterAll, describe, expect, it } from 'vitest';
import { HOSTILE_CASES, HOSTILE_KEY } from '../../bench/lib/hostile-cases.mjs';
import type { HostileProfileName } from '../../bench/lib/hostile-case-types.js';
import { answerProblems, blockBoundMs, prepareServer, profileOptions, runHostileCase } from '../../bench/lib/hostile-run.mjs';
import { startModelsProbe } from '../helpers/models-probe.js';
import { startApp, type Mount, type StartedApp } from '../helpers/start-app.js';

/** node:http (the plain handler) and one framework adapter. */
const MOUNTS_UNDER_TEST: readonly Mount[] = ['node', 'express5'];
/** Longest a `GET /v1/models` may take while one of the worst requests is served. */
const RESPONSIVE_WITHIN_MS = 1_000;

const PARTS = { memoryResponseStore, createSimulator };

describe.each(MOUNTS_UNDER_TEST)('hostile input on %s', (mount) => {
  const apps = new Map<HostileProfileName, Promise<StartedApp>>();

  /** The warmed-up app of a profile, started on first use. */
  function appFor(profile: HostileProfileName): Promise<StartedApp> {
    let app = apps.get(profile);
    if (!app) {
      app = startApp(mount, profileOptions(profile, PARTS)).then(async (started) => {
        await prepareServer(started.url, profile);
        return started;
      });
      apps.set(profile, app);
    }
    return app;
  }

  afterAll(async () => {
    for (const app of apps.values()) await (await app).close();
  });

  it.each(HOSTILE_CASES.map((hostileCase) => [hostileCase.name, hostileCase] as const))('%s', async (_name, hostileCase) => {
    const app = await appFor(hostileCase.profile);
    const body = hostileCase.body?.();
    const bodyBytes = body === undefined ? 0 : Buffer.byteLength(body);
    const probe = hostileCase.worst ? await startModelsProbe(app.url, HOSTILE_KEY) : undefined;

    const run = await runHostileCase(app.url, hostileCase, body);
    const probed = await probe?.stop();

    expect.soft(answerProblems(hostileCase, run.answer), run.answer.text.slice(0, 300)).toEqual([]);
    expect.soft(run.prototypePolluted, 'Object.prototype changed').toBe(false);
    expect.soft(run.maxBlockMs, 'longest event-loop block (CPU ms)').toBeLessThanOrEqual(blockBoundMs(hostileCase, bodyBytes));
    if (probed) {
      expect.soft(probed.every((answer) => answer.status === 200), JSON.stringify(probed)).toBe(true);
      expect.soft(Math.max(...probed.map((answer) => answer.ms)), 'slowest GET /v1/models (ms)').toBeLessThan(RESPONSIVE_WITHIN_MS);
    }
  });
});
