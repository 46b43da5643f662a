/**
 * Cuts an `application/vnd.amazon.eventstream` byte stream into whole
 * frames, however its reads split them. Each frame opens with its total
 * length (4 bytes, big-endian); the bytes of a frame still incomplete are
 * kept as a list of pieces and joined once, when the announced length has
 * arrived, so a large frame in many small reads costs linear copying (a
 * join per read would copy the frame's head again for every read).
 *
 * @internal
 */

/** 4 bytes total length, 4 bytes headers length, 4 bytes prelude CRC, 4 bytes message CRC. */
export const FRAME_OVERHEAD = 16;

/** Bytes of the total-length field that opens every frame. */
const LENGTH_BYTES = 4;

/** Why a frame length is refused: the caller turns it into its own error. */
export class FrameLengthError extends Error {
  constructor(readonly length: number) {
    super(`a frame length of ${length} bytes`);
    this.name = 'FrameLengthError';
  }
}

export class EventStreamFrames {
  /** Pieces of the frame in progress, in order. */
  private pieces: Uint8Array[] = [];
  /** Bytes in `pieces`. */
  private held = 0;
  /** The frame in progress's announced length; 0 until its length field is whole. */
  private length = 0;

  /** @param maxFrameBytes largest frame accepted; a larger announced length throws `FrameLengthError` at once. */
  constructor(private readonly maxFrameBytes: number) {}

  /** Bytes held of a frame not yet complete (0 at a frame boundary). */
  get pending(): number {
    return this.held;
  }

  /**
   * The frames `chunk` completes, in order (subarrays of the reads where a
   * frame lies within one read; a fresh buffer where it spans several).
   *
   * @throws FrameLengthError when a frame announces a length under the
   *   frame overhead or over `maxFrameBytes`.
   */
  push(chunk: Uint8Array): Uint8Array[] {
    const frames: Uint8Array[] = [];
    let offset = 0;
    while (offset < chunk.byteLength) {
      if (this.held === 0) {
        offset = this.cutWhole(chunk, offset, frames);
        continue;
      }
      if (this.length === 0) {
        const take = Math.min(LENGTH_BYTES - this.held, chunk.byteLength - offset);
        this.hold(chunk.subarray(offset, offset + take));
        offset += take;
        if (this.held < LENGTH_BYTES) break;
        this.length = this.checked(readLength(this.pieces));
      }
      const take = Math.min(this.length - this.held, chunk.byteLength - offset);
      this.hold(chunk.subarray(offset, offset + take));
      offset += take;
      if (this.held < this.length) break;
      frames.push(this.pieces.length === 1 ? this.pieces[0]! : Buffer.concat(this.pieces, this.held));
      this.pieces = [];
      this.held = 0;
      this.length = 0;
    }
    return frames;
  }

  /** At a frame boundary: every whole frame of `chunk` from `offset` straight from it; holds the rest. Returns the end of `chunk`. */
  private cutWhole(chunk: Uint8Array, offset: number, frames: Uint8Array[]): number {
    const view = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    while (chunk.byteLength - offset >= LENGTH_BYTES) {
      const length = this.checked(view.getUint32(offset, false));
      if (chunk.byteLength - offset < length) {
        this.length = length;
        break;
      }
      frames.push(chunk.subarray(offset, offset + length));
      offset += length;
    }
    if (offset < chunk.byteLength) this.hold(chunk.subarray(offset));
    return chunk.byteLength;
  }

  private hold(piece: Uint8Array): void {
    if (piece.byteLength === 0) return;
    this.pieces.push(piece);
    this.held += piece.byteLength;
  }

  private checked(length: number): number {
    if (length < FRAME_OVERHEAD || length > this.maxFrameBytes) throw new FrameLengthError(length);
    return length;
  }
}

/** The big-endian length field from the first 4 bytes held in `pieces` (they may be split across several). */
function readLength(pieces: readonly Uint8Array[]): number {
  let value = 0;
  let read = 0;
  for (const piece of pieces) {
    for (let i = 0; i < piece.byteLength && read < LENGTH_BYTES; i++, read++) value = value * 256 + piece[i]!;
    if (read === LENGTH_BYTES) break;
  }
  return value;
}
