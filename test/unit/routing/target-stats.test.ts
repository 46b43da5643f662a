/**
 * The figures of the deployments a gateway calls: bounded per upstream,
 * whatever model ids callers send through a glob route.
 */
import { describe, expect, it } from 'vitest';
import { MAX_MODEL_CHARS_PER_UPSTREAM, MAX_MODELS_PER_UPSTREAM, TargetStats } from '../../../src/routing/target-stats.js';
import type { Upstream } from '../../../src/upstreams/upstream.js';

const upstream: Upstream = { name: 'u', format: 'chat', send: () => Promise.reject(new Error('not used')) };
const target = (model: string) => ({ upstream, model });

describe('TargetStats bounds', () => {
  it('remembers at most 1,024 model ids per upstream', () => {
    expect(MAX_MODELS_PER_UPSTREAM).toBe(1_024);
    const stats = new TargetStats();
    for (let i = 0; i < 5_000; i++) stats.answered(target(`model-${i}`), 10);
    expect(stats.modelsOf(upstream)).toBe(1_024);
  });

  it('remembers at most 1 Mi characters of model ids per upstream', () => {
    expect(MAX_MODEL_CHARS_PER_UPSTREAM).toBe(1_048_576);
    const stats = new TargetStats();
    for (let i = 0; i < 30; i++) stats.answered(target(`${i}-`.padEnd(64 * 1024, 'x')), 10);
    expect(stats.modelsOf(upstream)).toBe(16);
  });

  it('keeps the most recently used ids, and ids with calls in flight', () => {
    const stats = new TargetStats();
    stats.opened(target('busy'));
    stats.answered(target('hot'), 100);
    for (let i = 0; i < 3_000; i++) {
      stats.answered(target(`model-${i}`), 10);
      if (i % 500 === 0) stats.answered(target('hot'), 100);
    }
    expect(stats.modelsOf(upstream)).toBe(1_024);
    expect(stats.of(target('busy')).inFlight).toBe(1);
    expect(stats.of(target('hot')).latencyMs).toBe(100);
    expect(stats.of(target('model-0')).latencyMs).toBeUndefined();
  });
});
