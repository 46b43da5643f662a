/**
 * The file endpoints with custom `routes`: no `files` option means no file
 * store (404 "no file store on this gateway"; no messages-format upstream
 * of the routes is asked); the vendor's files behind a route's upstream are
 * served when `files` names them. `files: false` turns them off (404). Over
 * HTTP, through Express and Koa, with the official messages client.
 */
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upstreamFileStore } from 'modelgate';
import { createSimulator, DEFAULT_SEED_FILES } from 'modelgate/testing';
import { anthropicClient, AUTH, failure, KEY } from '../helpers/e2e-fixtures.js';
import { ruleFreeUpstream } from '../helpers/rule-free-upstream.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';

const NOT_AVAILABLE =
  'No file store on this gateway: the file endpoints are off. Send documents inline instead (base64 `document` blocks); the gateway’s operator can serve files with the `files` option.';

describe.each(['express5', 'koa3'] as const)('/v1/files with custom routes on %s', (mount) => {
  const apps: StartedApp[] = [];
  const start = async (options: Parameters<typeof startApp>[1]) => {
    const app = await startApp(mount, options);
    apps.push(app);
    return app;
  };
  let defaulted: StartedApp;
  let named: StartedApp;
  let off: StartedApp;
  let chatOnly: StartedApp;

  beforeAll(async () => {
    const sim = createSimulator();
    const other = createSimulator({ files: false });
    const routes = [
      { match: 'gpt-*', upstream: other.upstreams.chat },
      { match: 'vendora-*', upstream: sim.upstreams.messages },
      { match: 'house-*', upstream: ruleFreeUpstream() },
    ];
    defaulted = await start({ auth: AUTH, routes });
    named = await start({ auth: AUTH, routes, files: { store: upstreamFileStore(sim.upstreams.messages), shared: true } });
    off = await start({ auth: AUTH, routes: [{ match: 'vendora-*', upstream: sim.upstreams.messages }], files: false });
    chatOnly = await start({ auth: AUTH, routes: [{ match: '*', upstream: other.upstreams.chat }] });
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  it('no files option: 404 on every file endpoint, although a route’s upstream holds files', async () => {
    for (const path of ['/v1/files', '/v1/files/file_x', '/v1/files/file_x/content']) {
      const response = await fetch(`${defaulted.url}${path}`, { headers: { 'x-api-key': KEY } });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ type: 'error', error: { type: 'not_found_error', message: NOT_AVAILABLE } });
    }
    expect(await failure(() => anthropicClient(defaulted.url).beta.files.list())).toBeInstanceOf(Anthropic.NotFoundError);
  });

  it('files naming a route’s upstream store: list, metadata and content', async () => {
    const client = anthropicClient(named.url);
    const ids: string[] = [];
    for await (const file of client.beta.files.list()) ids.push(file.id);
    expect(ids).toHaveLength(DEFAULT_SEED_FILES.length);
    const first = ids[0] as string;
    const metadata = await client.beta.files.retrieveMetadata(first);
    expect(metadata.id).toBe(first);
    const content = await client.beta.files.download(first);
    expect((await content.arrayBuffer()).byteLength).toBe(metadata.size_bytes);
  });

  it('files: false → 404 on every file endpoint', async () => {
    for (const path of ['/v1/files', '/v1/files/file_x', '/v1/files/file_x/content']) {
      const response = await fetch(`${off.url}${path}`, { headers: { 'x-api-key': KEY } });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ type: 'error', error: { type: 'not_found_error', message: NOT_AVAILABLE } });
    }
    const error = await failure(() => anthropicClient(off.url).beta.files.delete('file_x'));
    expect(error).toBeInstanceOf(Anthropic.NotFoundError);
  });

  it('routes without any messages-format upstream have no file store: 404', async () => {
    const response = await fetch(`${chatOnly.url}/v1/files`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(response.status).toBe(404);
  });
});
