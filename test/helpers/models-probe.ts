/**
 * Checks a server stays responsive while it serves something else: a worker
 * thread sends `GET /v1/models` one after the other (20 ms apart) and
 * records how long each took. The worker's timers run on its own event
 * loop, so a request it sent while the server's thread was blocked is
 * timed from when it was sent, not from when the block ended.
 */
import { Worker } from 'node:worker_threads';

/** The worker's code (CommonJS, run with `eval`): loops until told to stop, then posts its latencies. */
const PROBE_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
let stopping = false;
parentPort.on('message', () => { stopping = true; });
function get() {
  return new Promise((resolve) => {
    const started = performance.now();
    const req = http.get(workerData.url + '/v1/models', { headers: { authorization: 'Bearer ' + workerData.key } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, ms: performance.now() - started }));
    });
    req.on('error', (error) => resolve({ status: 0, ms: performance.now() - started, error: error.code }));
  });
}
(async () => {
  const answers = [];
  while (!stopping) {
    answers.push(await get());
    if (answers.length === 1) parentPort.postMessage({ ready: true });
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  parentPort.postMessage({ answers });
})();
`;

export interface ProbeAnswer {
  status: number;
  ms: number;
  error?: string;
}

export interface ModelsProbe {
  /** Stops after the request in flight and returns every answer, in order. */
  stop(): Promise<ProbeAnswer[]>;
}

/** Starts probing `url`; resolves once the first probe was answered. */
export async function startModelsProbe(url: string, key: string): Promise<ModelsProbe> {
  const worker = new Worker(PROBE_SOURCE, { eval: true, workerData: { url, key } });
  const finished = new Promise<ProbeAnswer[]>((resolve, reject) => {
    worker.on('message', (message: { answers?: ProbeAnswer[] }) => {
      if (message.answers) resolve(message.answers);
    });
    worker.once('error', reject);
  });
  await new Promise<void>((resolve, reject) => {
    worker.on('message', (message: { ready?: boolean }) => {
      if (message.ready) resolve();
    });
    worker.once('error', reject);
  });
  return {
    async stop() {
      worker.postMessage('stop');
      const answers = await finished;
      await worker.terminate();
      return answers;
    },
  };
}
