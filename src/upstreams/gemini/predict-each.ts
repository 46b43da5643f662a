/**
 * Vertex AI's Gemini embedding model takes one text per `:predict` call, so
 * a list is embedded in one call per text, a few at a time, answers kept in
 * input order. The first call Google refuses ends the batch: no further
 * call starts, the ones under way finish and are dropped, and the refusal
 * is what the caller is told (retried and failed over like any answer).
 *
 * @internal
 */
import { readBody } from '../read-body.js';
import type { UpstreamResponse } from '../upstream.js';

/** Calls under way at once: enough to hide the round trips of a short list, few enough not to hit per-minute quotas in a burst. */
export const PREDICT_CONCURRENCY = 4;

export type PredictOutcome = { kind: 'answered'; answers: unknown[]; headers: Record<string, string> } | { kind: 'refused'; response: UpstreamResponse };

const isSuccess = (response: UpstreamResponse): boolean => response.status >= 200 && response.status < 300;

/** Reads an answer no one needs to its end (a small JSON body), which also keeps its connection reusable. */
function drop(response: UpstreamResponse): void {
  readBody(response.body).catch(() => undefined);
}

/** Runs `call(i)` for every index, `PREDICT_CONCURRENCY` at a time, reading each 2xx answer with `read`. */
export async function predictEach(count: number, call: (index: number) => Promise<UpstreamResponse>, read: (response: UpstreamResponse) => Promise<unknown>): Promise<PredictOutcome> {
  const answers: unknown[] = new Array<unknown>(count);
  let headers: Record<string, string> = {};
  let refused: UpstreamResponse | undefined;
  let failure: unknown;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count && refused === undefined && failure === undefined) {
      const index = next++;
      try {
        const response = await call(index);
        if (refused !== undefined || failure !== undefined) drop(response);
        else if (!isSuccess(response)) refused = response;
        else {
          if (index === 0) headers = response.headers;
          answers[index] = await read(response);
        }
      } catch (error) {
        failure ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PREDICT_CONCURRENCY, count) }, worker));
  if (refused !== undefined) return { kind: 'refused', response: refused };
  if (failure !== undefined) throw failure;
  return { kind: 'answered', answers, headers };
}
