/**
 * A chat stream request from a raw node:http client, for tests that watch
 * the bytes and the pacing themselves (no SDK reading ahead).
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';

/**
 * Starts a chat stream request; resolves with the response once its head
 * arrived, which must be at once, before the upstream sent anything (the
 * heartbeat would only send it after 15 s).
 */
export function startChatStream(url: string, key: string, timeoutMs = 2000): Promise<IncomingMessage> {
  const payload = JSON.stringify({ model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: 'Hi' }] });
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`no response head within ${timeoutMs} ms`));
    }, timeoutMs);
    req.once('response', (res) => {
      clearTimeout(timer);
      resolve(res);
    });
    req.once('error', reject);
    req.end(payload);
  });
}
