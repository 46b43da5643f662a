/** Reads a request's body bytes (what the bare proxies forward unchanged). */
export function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.once('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    req.once('error', reject);
  });
}
