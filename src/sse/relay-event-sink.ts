/**
 * The relay's side facing the upstream's events: what each event becomes on
 * the client stream (forwarded as bytes, translated, or an error event that
 * ends it), and who is told of it (`onEvent`). The iterator and the stream's
 * life (reads, heartbeats, aborts, the end report) are `SseRelay`'s
 * (`relay-stream.ts`), which extends this class.
 *
 * @internal
 */
import { performance } from 'node:perf_hooks';
import { type GatewayError, toGatewayError } from '../errors.js';
import type { WireFormat } from '../types.js';
import { ChunkBuilder } from './chunk-builder.js';
import { classifyRawEvent, classifyUpstreamEvent, errorFromUpstreamEvent, type UpstreamEventKind } from './classify-upstream-event.js';
import { formatSse } from './format-sse.js';
import type { SseEvent } from './parse-sse.js';
import type { RawSseEvent } from './raw-sse-event.js';
import type { RelaySseOptions, StreamTransform } from './relay-options.js';
import type { SseSink } from './sse-splitter.js';
import { errorForClient } from '../redact/redact-error.js';
import { NO_SECRETS, type Redactor } from '../redact/redactor.js';

export abstract class RelayEventSink implements SseSink {
  protected readonly output = new ChunkBuilder();
  protected readonly upstreamFormat: WireFormat;
  /** `streaming` → `closing` (last chunks queued) → `done`. */
  protected phase: 'streaming' | 'closing' | 'done' = 'streaming';
  protected eventCount = 0;
  protected firstEventAt: number | undefined;

  constructor(protected readonly options: RelaySseOptions) {
    this.upstreamFormat = options.upstreamFormat ?? options.format;
    if (!options.transform && this.upstreamFormat !== options.format) {
      throw new TypeError('relaySse: a transform is required when the upstream format differs from the client format');
    }
  }

  /** Ends the client stream with one error event in its format (after what was produced so far). */
  protected abstract fail(cause: GatewayError): void;

  /** The upstream said its last word (`error`: the in-band error already written). */
  protected abstract close(status: 'completed' | 'failed', error?: GatewayError): void;

  protected get name(): string {
    return this.options.upstreamName ?? 'upstream';
  }

  protected notify(event: SseEvent | undefined): void {
    this.eventCount++;
    this.firstEventAt ??= performance.now();
    if (event === undefined || this.options.onEvent === undefined) return;
    try {
      this.options.onEvent(event);
    } catch {
      // Observers (usage, logs) must never break the stream they watch.
    }
  }

  /** `SseSink`: a regular event, still in bytes. */
  onRaw(raw: RawSseEvent): boolean {
    if (this.phase !== 'streaming') return false;
    const { transform } = this.options;
    if (this.observes(raw)) {
      const decoded = raw.toEvent();
      this.notify(decoded);
      const kind = classifyUpstreamEvent(decoded, this.upstreamFormat);
      if (transform || kind === 'error') return this.handleEvent(decoded, kind);
      return this.forward(raw, kind);
    }
    // Nobody reads the text: decoding is paid for only by translators' slow paths and errors.
    const kind = classifyRawEvent(raw, this.upstreamFormat);
    if (transform === undefined && kind !== 'error') {
      this.notify(undefined);
      return this.forward(raw, kind);
    }
    if (kind === 'data' && transform?.pushRaw !== undefined) {
      const go = this.tryPushRaw(transform, raw);
      if (go !== undefined) return go;
    }
    const decoded = raw.toEvent();
    this.notify(decoded);
    return this.handleEvent(decoded, kind);
  }

  /** Whether `onEvent` wants this event (decoding it is paid for only then). */
  protected observes(raw: RawSseEvent): boolean {
    const { onEvent, observes } = this.options;
    if (onEvent === undefined) return false;
    try {
      return observes === undefined || observes(raw);
    } catch {
      return true;
    }
  }

  /** Passthrough: the event's bytes as they came. */
  protected forward(raw: RawSseEvent, kind: UpstreamEventKind): boolean {
    this.output.addBytes(raw.buf, raw.start, raw.end);
    if (kind === 'terminal') this.close('completed');
    return kind !== 'terminal';
  }

  /**
   * Offers a regular event to the transform's byte path: true when it was
   * translated there, false when that failed (the stream is over),
   * `undefined` when the transform left it to the decoding path.
   */
  protected tryPushRaw(transform: StreamTransform, raw: RawSseEvent): boolean | undefined {
    try {
      if (!transform.pushRaw?.(raw, this.output)) return undefined;
    } catch (error) {
      this.fail(toGatewayError(error));
      return false;
    }
    this.notify(undefined);
    return true;
  }

  /** `SseSink`: an event the general parser read. */
  onParsed(event: SseEvent): boolean {
    if (this.phase !== 'streaming') return false;
    this.notify(event);
    return this.handleEvent(event, classifyUpstreamEvent(event, this.upstreamFormat));
  }

  /** Handles one decoded event; false once the stream is over. */
  protected handleEvent(event: SseEvent, kind: UpstreamEventKind): boolean {
    const { transform } = this.options;
    try {
      if (kind === 'error') {
        const { redactor } = this;
        const error = errorFromUpstreamEvent(event, this.upstreamFormat, { name: this.name, redactor });
        // Same format: the vendor's own error event is already what the client expects (minus any secret it quotes).
        this.addErrorEvents(transform ? transform.error(errorForClient(error, redactor)) : [formatSse({ ...event, data: redactor.redact(event.data) })]);
        this.close('failed', error);
        return false;
      }
      if (transform) {
        if (!(kind === 'terminal' && this.upstreamFormat === 'chat')) this.addAll(transform.push(event));
        if (kind === 'terminal') this.addAll(transform.end());
      } else {
        this.output.addText(formatSse(event));
      }
    } catch (error) {
      this.fail(toGatewayError(error));
      return false;
    }
    if (kind === 'terminal') this.close('completed');
    return kind !== 'terminal';
  }

  protected addAll(chunks: Iterable<string | Uint8Array>): void {
    for (const chunk of chunks) this.output.addText(chunk);
  }

  protected get redactor(): Redactor {
    return this.options.redactor ?? NO_SECRETS;
  }

  /**
   * Error events, built from an error whose upstream text was redacted when
   * it was read: not searched again, so the gateway's words stay as written.
   */
  protected addErrorEvents(chunks: Iterable<string | Uint8Array>): void {
    for (const chunk of chunks) this.output.addText(chunk);
  }
}
