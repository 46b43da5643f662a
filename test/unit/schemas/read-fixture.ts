/**
 * Reads the recorded upstream streams of `test/fixtures/recorded/` as
 * parsed JSON payloads, splitting SSE with eventsource-parser.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createParser } from 'eventsource-parser';

const DIR = fileURLToPath(new URL('../../fixtures/recorded/', import.meta.url));

/** One SSE event: its `event:` name (if any) and its data. */
export interface RecordedEvent {
  event: string | undefined;
  data: string;
}

/** Every event of a recorded `.sse` file, in order. */
export function readSseFixture(name: string): RecordedEvent[] {
  const events: RecordedEvent[] = [];
  const parser = createParser({ onEvent: (event) => events.push({ event: event.event, data: event.data }) });
  parser.feed(readFileSync(DIR + name, 'utf8'));
  parser.reset({ consume: true });
  return events;
}

/** Every line of a recorded `.jsonl` file, JSON-parsed. */
export function readJsonLinesFixture(name: string): unknown[] {
  return readFileSync(DIR + name, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line): unknown => JSON.parse(line));
}
