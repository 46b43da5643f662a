/**
 * Records what a server socket hands the kernel: each call of its
 * `_write`/`_writev` (the `Writable` implementer's hooks, called once per
 * flush however many `write()`s a cork gathered) as one text. Tells apart
 * a head sent in the same write as the first event from one sent alone,
 * which a client's reads cannot (it may read both at once either way).
 */
import type { Socket } from 'node:net';

type WriteCallback = (error?: Error | null) => void;
interface Pending {
  chunk: Buffer | string;
}

export function recordSocketWrites(socket: Socket): string[] {
  const writes: string[] = [];
  const text = (chunk: Buffer | string): string => (typeof chunk === 'string' ? chunk : chunk.toString('latin1'));
  const target = socket as unknown as {
    _write: (chunk: Buffer | string, encoding: BufferEncoding, callback: WriteCallback) => void;
    _writev?: (chunks: Pending[], callback: WriteCallback) => void;
  };
  const write = target._write.bind(socket);
  target._write = (chunk, encoding, callback) => {
    writes.push(text(chunk));
    write(chunk, encoding, callback);
  };
  const writev = target._writev?.bind(socket);
  if (writev !== undefined) {
    target._writev = (chunks, callback) => {
      writes.push(chunks.map((pending) => text(pending.chunk)).join(''));
      writev(chunks, callback);
    };
  }
  return writes;
}
