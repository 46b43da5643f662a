/**
 * The reasoning text a stream has sent for the thinking block it has open,
 * kept as a length and a running digest rather than the text itself: enough
 * to tell whether a signed block that arrives afterwards signs that text
 * (or continues it), without holding reasoning that may run to megabytes.
 *
 * @internal
 */
import { type Hash, createHash } from 'node:crypto';

/** UTF-16 code units, so a surrogate pair split across two deltas digests the same as whole. */
const ENCODING = 'utf16le';

export class StreamedThinking {
  private readonly digest: Hash = createHash('sha256');
  private length = 0;

  /** Records one delta of streamed text. */
  append(text: string): void {
    this.digest.update(text, ENCODING);
    this.length += text.length;
  }

  /** What `text` adds to the streamed text when it begins with it (`''` when equal); `undefined` when it does not. */
  restOf(text: string): string | undefined {
    if (text.length < this.length) return undefined;
    const head = createHash('sha256').update(text.slice(0, this.length), ENCODING).digest();
    return head.equals(this.digest.copy().digest()) ? text.slice(this.length) : undefined;
  }
}
