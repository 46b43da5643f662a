/**
 * A Bedrock runtime stub on 127.0.0.1:0 (node:http) speaking the real wire
 * formats: it checks every request's SigV4 signature twice (re-signed with
 * `@smithy/signature-v4` at the received `x-amz-date`, and recomputed by
 * hand from the AWS algorithm, double-encoding the path) or its Bearer key,
 * answers InvokeModel with the vendor's message JSON,
 * InvokeModelWithResponseStream with event-stream frames built by smithy's
 * `EventStreamCodec`, CountTokens with `{ inputTokens }`, and Bedrock's HTTP
 * errors (`x-amzn-ErrorType`, `{"message": …}`).
 */
import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { EventStreamCodec } from '@smithy/core/event-streams';
import { SignatureV4 } from '@smithy/signature-v4';

export const REGION = 'us-east-1';

/** A credential set the stub accepts. */
export interface StubCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface BedrockRequest {
  method: string;
  /** The raw request target as received (`/model/us.anthropic…%3A0/invoke`). */
  url: string;
  headers: Record<string, string>;
  body: string;
  /** The canonical URI the hand-made check signed (`%253A` for `:`), when SigV4 was used. */
  canonicalUri?: string;
  /** The access key id that signed it. */
  accessKeyId?: string;
  /** Why authentication failed, if it did. */
  authProblem?: string;
}

/** What one call answers. */
export type BedrockReply =
  | { kind: 'error'; status: number; errorType: string; message: string }
  | { kind: 'writes'; writes: readonly Uint8Array[]; delayMs?: number }
  | { kind: 'json'; status?: number; body: unknown };

export interface BedrockStub {
  url: string;
  requests: BedrockRequest[];
  /** Replies used in order before the default behaviour. */
  script: BedrockReply[];
  /** Credentials accepted (SigV4), by access key id. */
  credentials: Map<string, StubCredentials>;
  /** Bearer keys accepted. */
  apiKeys: Set<string>;
  close(): Promise<void>;
}

const codec = new EventStreamCodec(
  (bytes) => new TextDecoder().decode(bytes),
  (text) => new TextEncoder().encode(text),
);

/** A `chunk` event frame carrying one messages event, with `p` padding as Bedrock adds. */
export function chunkFrame(event: unknown, padding = 'abcdefghijklmnopqrstuvwxyzABCDEF'.slice(0, 7)): Uint8Array {
  const payload = JSON.stringify({ bytes: Buffer.from(JSON.stringify(event)).toString('base64'), p: padding });
  return codec.encode({
    headers: {
      ':message-type': { type: 'string', value: 'event' },
      ':event-type': { type: 'string', value: 'chunk' },
      ':content-type': { type: 'string', value: 'application/json' },
    },
    body: new TextEncoder().encode(payload),
  });
}

/** An exception frame (`:message-type: exception`) as Bedrock sends mid-stream. */
export function exceptionFrame(exceptionType: string, message: string): Uint8Array {
  return codec.encode({
    headers: {
      ':message-type': { type: 'string', value: 'exception' },
      ':exception-type': { type: 'string', value: exceptionType },
      ':content-type': { type: 'string', value: 'application/json' },
    },
    body: new TextEncoder().encode(JSON.stringify({ message })),
  });
}

/** The events of a streamed answer saying `text`, with Bedrock's metrics on `message_stop`. */
export function streamEvents(text: string, model = 'claude-sonnet-4-6', usage: Record<string, number> = {}): unknown[] {
  const pieces = text.match(/.{1,5}/gs) ?? [];
  return [
    {
      type: 'message_start',
      message: { id: 'msg_bdrk_01', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 12, output_tokens: 1, ...usage } },
    },
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    ...pieces.map((piece) => ({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: piece } })),
    { type: 'content_block_stop', index: 0 },
    { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: pieces.length } },
    { type: 'message_stop', 'amazon-bedrock-invocationMetrics': { inputTokenCount: 12, outputTokenCount: pieces.length, invocationLatency: 80, firstByteLatency: 20 } },
  ];
}

/** The message JSON InvokeModel answers. */
export function messageJson(text: string, model = 'claude-sonnet-4-6', usage: Record<string, number> = {}): unknown {
  return {
    id: 'msg_bdrk_01',
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 12, output_tokens: 3, ...usage },
  };
}

/** Every frame of `events` concatenated (one write). */
export function framesOf(events: readonly unknown[]): Uint8Array {
  return Buffer.concat(events.map((event) => chunkFrame(event)));
}

/** `bytes` cut into `size`-byte writes. */
export function splitEvery(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0; at < bytes.byteLength; at += size) out.push(bytes.subarray(at, at + size));
  return out;
}

const hex = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string): Buffer => createHmac('sha256', key).update(data).digest();

/** RFC 3986 encoding, as SigV4 specifies it. */
function uriEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

interface ParsedAuthorization {
  accessKeyId: string;
  scope: string;
  date: string;
  region: string;
  service: string;
  signedHeaders: string[];
  signature: string;
}

function parseAuthorization(value: string): ParsedAuthorization | undefined {
  const match = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(value);
  if (!match) return undefined;
  const [, accessKeyId, date, region, service, signed, signature] = match as unknown as string[];
  return { accessKeyId: accessKeyId!, scope: `${date}/${region}/${service}/aws4_request`, date: date!, region: region!, service: service!, signedHeaders: signed!.split(';'), signature: signature! };
}

/** The AWS algorithm by hand: the signature expected for this request, and the canonical URI it signed. */
function handSignature(request: BedrockRequest, auth: ParsedAuthorization, secret: string): { signature: string; canonicalUri: string } {
  const rawPath = request.url.split('?')[0]!;
  // Every service but S3 encodes the (already encoded) path again: `%3A` becomes `%253A`.
  const canonicalUri = rawPath.split('/').map(uriEncode).join('/');
  const canonicalHeaders = auth.signedHeaders.map((name) => `${name}:${(request.headers[name] ?? '').trim().replace(/\s+/g, ' ')}\n`).join('');
  const canonicalRequest = ['POST', canonicalUri, '', canonicalHeaders, auth.signedHeaders.join(';'), hex(request.body)].join('\n');
  const amzDate = request.headers['x-amz-date'] ?? '';
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, auth.scope, hex(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, auth.date), auth.region), auth.service), 'aws4_request');
  return { signature: createHmac('sha256', key).update(stringToSign).digest('hex'), canonicalUri };
}

/** A SHA-256 for the signer's re-signing, written for the test (not the gateway's adapter). */
type Data = string | ArrayBuffer | ArrayBufferView;
const bytesOf = (data: Data): string | Uint8Array =>
  typeof data === 'string' ? data : ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data);
class TestSha256 {
  private readonly hash;
  constructor(secret?: Data) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', bytesOf(secret));
  }
  update(data: Data): void {
    this.hash.update(bytesOf(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
}

async function librarySignature(request: BedrockRequest, auth: ParsedAuthorization, credentials: StubCredentials, port: number): Promise<string | undefined> {
  const amzDate = request.headers['x-amz-date'] ?? '';
  const signingDate = new Date(`${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`);
  const headers: Record<string, string> = {};
  for (const name of auth.signedHeaders) headers[name] = request.headers[name] ?? '';
  const signer = new SignatureV4({ service: 'bedrock', region: REGION, credentials, sha256: TestSha256 });
  const signed = await signer.sign(
    { method: 'POST', protocol: 'http:', hostname: '127.0.0.1', port, path: request.url.split('?')[0]!, query: {}, headers, body: request.body },
    { signingDate },
  );
  return signed.headers.authorization;
}

/** Checks the request's SigV4 or Bearer key; the problem, or undefined when it is right. */
async function authenticate(stub: BedrockStub, request: BedrockRequest, port: number): Promise<string | undefined> {
  const authorization = request.headers.authorization ?? '';
  if (authorization.startsWith('Bearer ')) {
    if (request.headers['x-amz-date'] !== undefined) return 'a Bearer request was also signed';
    return stub.apiKeys.has(authorization.slice(7)) ? undefined : 'unknown Bedrock API key';
  }
  const auth = parseAuthorization(authorization);
  if (!auth) return `not a SigV4 Authorization header: ${authorization}`;
  request.accessKeyId = auth.accessKeyId;
  const credentials = stub.credentials.get(auth.accessKeyId);
  if (!credentials) return `unknown access key ${auth.accessKeyId}`;
  if (auth.region !== REGION || auth.service !== 'bedrock') return `wrong scope ${auth.scope}`;
  for (const required of ['host', 'x-amz-date', 'content-type']) if (!auth.signedHeaders.includes(required)) return `${required} is not signed`;
  if (credentials.sessionToken !== undefined && request.headers['x-amz-security-token'] !== credentials.sessionToken) return 'missing or wrong session token';
  if (credentials.sessionToken !== undefined && !auth.signedHeaders.includes('x-amz-security-token')) return 'x-amz-security-token is not signed';
  if (request.headers['x-amz-content-sha256'] !== undefined && request.headers['x-amz-content-sha256'] !== hex(request.body)) return 'x-amz-content-sha256 is not the body hash';
  const byHand = handSignature(request, auth, credentials.secretAccessKey);
  request.canonicalUri = byHand.canonicalUri;
  if (byHand.signature !== auth.signature) return 'the signature does not match the canonical request (by hand)';
  if ((await librarySignature(request, auth, credentials, port)) !== authorization) return 'the signature does not match the canonical request (re-signed)';
  return undefined;
}

function sendError(res: ServerResponse, status: number, errorType: string, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'x-amzn-errortype': `${errorType}:http://internal.amazon.com/coral/com.amazon.bedrock/`, 'x-amzn-requestid': 'req-stub-1' });
  res.end(JSON.stringify({ message }));
}

async function writeFrames(res: ServerResponse, writes: readonly Uint8Array[], delayMs = 0): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream', 'x-amzn-requestid': 'req-stub-1' });
  for (const write of writes) {
    if (res.destroyed) return;
    res.write(write);
    // A pause per write, so each arrives as its own read.
    await new Promise((resolve) => setTimeout(resolve, delayMs));
  }
  res.end();
}

function answerByDefault(res: ServerResponse, request: BedrockRequest): Promise<void> | void {
  const body = JSON.parse(request.body) as { messages?: { content: unknown }[] };
  const path = request.url.split('?')[0]!;
  if (path.endsWith('/count-tokens')) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ inputTokens: 42 }));
    return;
  }
  const last = body.messages?.at(-1)?.content;
  const text = `Bedrock says: ${typeof last === 'string' ? last : 'hello'}`;
  if (path.endsWith('/invoke-with-response-stream')) return writeFrames(res, [framesOf(streamEvents(text))]);
  res.writeHead(200, { 'content-type': 'application/json', 'x-amzn-bedrock-input-token-count': '12' });
  res.end(JSON.stringify(messageJson(text)));
}

/** Starts the stub. */
export async function startBedrockStub(init: { credentials?: StubCredentials[]; apiKeys?: string[] } = {}): Promise<BedrockStub> {
  const sockets = new Set<Socket>();
  const stub: BedrockStub = {
    url: '',
    requests: [],
    script: [],
    credentials: new Map((init.credentials ?? []).map((credentials) => [credentials.accessKeyId, credentials])),
    apiKeys: new Set(init.apiKeys ?? []),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  let port = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers[name] = value;
      const request: BedrockRequest = { method: req.method ?? '', url: req.url ?? '', headers, body: Buffer.concat(chunks).toString('utf8') };
      stub.requests.push(request);
      const problem = await authenticate(stub, request, port);
      if (problem !== undefined) {
        request.authProblem = problem;
        // Like AWS, the message quotes the canonical request, headers (and session token) included.
        sendError(res, 403, 'InvalidSignatureException', `The request signature we calculated does not match the signature you provided (${problem}). The Canonical String for this request should have been 'POST\n${request.url}\n\nhost:${headers.host}\nx-amz-security-token:${headers['x-amz-security-token'] ?? ''}\n'`);
        return;
      }
      const reply = stub.script.shift();
      if (reply === undefined) return answerByDefault(res, request);
      if (reply.kind === 'error') return sendError(res, reply.status, reply.errorType, reply.message);
      if (reply.kind === 'json') {
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(reply.body));
        return;
      }
      return writeFrames(res, reply.writes, reply.delayMs);
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  stub.url = `http://127.0.0.1:${port}`;
  return stub;
}
