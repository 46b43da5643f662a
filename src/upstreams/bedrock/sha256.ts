/**
 * SHA-256 and HMAC-SHA-256 over `node:crypto`, in the shape the SigV4 signer
 * takes (`new Sha256(secret?)`, `update`, `digest`).
 *
 * @internal
 */
import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';

type Data = string | ArrayBuffer | ArrayBufferView;

function toBytes(data: Data): Uint8Array | string {
  if (typeof data === 'string') return data;
  if (data instanceof Uint8Array) return data;
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return new Uint8Array(data);
}

/** A hash, or an HMAC when constructed with a secret. */
export class Sha256 {
  private hash: Hash | Hmac;
  private readonly secret: Data | undefined;

  constructor(secret?: Data) {
    this.secret = secret;
    this.hash = this.fresh();
  }

  private fresh(): Hash | Hmac {
    return this.secret === undefined ? createHash('sha256') : createHmac('sha256', toBytes(this.secret));
  }

  update(data: Data): void {
    this.hash.update(toBytes(data));
  }

  digest(): Promise<Uint8Array> {
    return Promise.resolve(this.digestSync());
  }

  digestSync(): Uint8Array {
    return new Uint8Array(this.hash.digest());
  }

  reset(): void {
    this.hash = this.fresh();
  }
}
