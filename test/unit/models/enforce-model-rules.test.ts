/**
 * The spec's per-model rules, cell by cell: every model × temperature ×
 * thinking form × stop sequences. Expected outcomes come from the hand-typed
 * `SPEC_MATRIX`, never from the catalog under test.
 */
import { describe, expect, it } from 'vitest';
import { GatewayError, isGatewayError } from '../../../src/errors.js';
import { createCatalog, DEFAULT_CATALOG, type ModelEntry } from '../../../src/models/catalog.js';
import {
  checkModelRules,
  enforceModelRules,
  findRuleViolations,
  type RuleInput,
  type RuleName,
} from '../../../src/models/enforce-model-rules.js';
import {
  adaptiveOnEnabled,
  budgetNotBelowMaxTokens,
  enabledOnAdaptive,
  temperatureDeprecated,
  thinkingNotAvailable,
  WHITESPACE_STOP,
} from '../../helpers/expected-rule-errors.js';
import { SPEC_MATRIX, type SpecRow } from './spec-matrix.js';

const STOP_MESSAGE = WHITESPACE_STOP;

interface ThinkingCase {
  label: string;
  thinking?: Record<string, unknown>;
  maxTokens: number;
}

const THINKING_CASES: readonly ThinkingCase[] = [
  { label: 'no thinking', maxTokens: 4096 },
  { label: 'thinking disabled', thinking: { type: 'disabled' }, maxTokens: 4096 },
  { label: 'thinking enabled 2048, max_tokens 4096', thinking: { type: 'enabled', budget_tokens: 2048 }, maxTokens: 4096 },
  { label: 'thinking enabled 2048, max_tokens 2048', thinking: { type: 'enabled', budget_tokens: 2048 }, maxTokens: 2048 },
  { label: 'thinking enabled 2048, max_tokens 1000', thinking: { type: 'enabled', budget_tokens: 2048 }, maxTokens: 1000 },
  { label: 'thinking adaptive', thinking: { type: 'adaptive' }, maxTokens: 4096 },
];

const STOP_CASES: ReadonlyArray<{ label: string; stops?: string[]; whitespaceOnly: boolean }> = [
  { label: 'no stop_sequences', whitespaceOnly: false },
  { label: 'stop ["\\n"]', stops: ['\n'], whitespaceOnly: true },
  { label: 'stop ["\\n\\n"]', stops: ['\n\n'], whitespaceOnly: true },
  { label: 'stop [" \\t"]', stops: [' \t'], whitespaceOnly: true },
  { label: 'stop ["END"]', stops: ['END'], whitespaceOnly: false },
  { label: 'stop ["\\nEND"]', stops: ['\nEND'], whitespaceOnly: false },
];

const TEMPERATURE_CASES: ReadonlyArray<{ label: string; temperature?: number }> = [
  { label: 'no temperature' },
  { label: 'temperature 0.5', temperature: 0.5 },
];

/** Which kind of thinking error a (model mode, request form) pair gives, per the spec's error rules. */
type ThinkingViolation = 'enabled-on-adaptive' | 'adaptive-on-enabled' | 'thinking-on-none';

function expectedThinkingViolation(row: SpecRow, thinking: ThinkingCase['thinking']): ThinkingViolation | undefined {
  const type = thinking?.type;
  if (type === undefined || type === 'disabled') return undefined;
  if (row.thinking === 'none') return 'thinking-on-none';
  if (row.thinking === 'adaptive' && type === 'enabled') return 'enabled-on-adaptive';
  if (row.thinking === 'enabled' && type === 'adaptive') return 'adaptive-on-enabled';
  return undefined;
}

interface Expected {
  rule: RuleName;
  check: (error: GatewayError) => void;
}

function expectInvalidRequest(error: GatewayError): void {
  expect(isGatewayError(error)).toBe(true);
  expect(error.status).toBe(400);
  expect(error.code).toBe('INVALID_REQUEST');
}

/** Every rule this request breaks on this model, in the documented reporting order. */
function expectedViolations(
  row: SpecRow,
  temperature: number | undefined,
  thinkingCase: ThinkingCase,
  stops: string[] | undefined,
  whitespaceOnly: boolean,
): Expected[] {
  const out: Expected[] = [];
  if (temperature !== undefined && row.temperature !== 'accepted') {
    out.push({
      rule: 'temperature',
      check: (error) => {
        expectInvalidRequest(error);
        expect(error.message).toBe(temperatureDeprecated(row.id));
        expect(error.param).toBe('temperature');
      },
    });
  }
  const thinkingViolation = expectedThinkingViolation(row, thinkingCase.thinking);
  if (thinkingViolation) {
    out.push({
      rule: 'thinking',
      check: (error) => {
        expectInvalidRequest(error);
        if (thinkingViolation === 'enabled-on-adaptive') expect(error.message).toBe(enabledOnAdaptive(row.id));
        else if (thinkingViolation === 'adaptive-on-enabled') expect(error.message).toBe(adaptiveOnEnabled(row.id));
        else expect(error.message).toBe(thinkingNotAvailable(row.id));
      },
    });
  }
  const budget = thinkingCase.thinking?.budget_tokens;
  if (thinkingCase.thinking?.type === 'enabled' && typeof budget === 'number' && thinkingCase.maxTokens <= budget) {
    out.push({
      rule: 'thinking_budget',
      check: (error) => {
        expectInvalidRequest(error);
        expect(error.message).toBe(budgetNotBelowMaxTokens(thinkingCase.maxTokens, budget));
      },
    });
  }
  if (stops && whitespaceOnly) {
    out.push({
      rule: 'stop_sequences',
      check: (error) => {
        expectInvalidRequest(error);
        expect(error.message).toBe(STOP_MESSAGE);
        expect(error.param).toBe('stop_sequences.0');
      },
    });
  }
  return out;
}

function buildInput(
  model: string,
  temperature: number | undefined,
  thinkingCase: ThinkingCase,
  stops: string[] | undefined,
): RuleInput {
  const input: RuleInput = { model, max_tokens: thinkingCase.maxTokens };
  if (temperature !== undefined) input.temperature = temperature;
  if (thinkingCase.thinking) input.thinking = structuredClone(thinkingCase.thinking);
  if (stops) input.stop_sequences = [...stops];
  return input;
}

interface Cell {
  name: string;
  row: SpecRow;
  input: RuleInput;
  expected: Expected[];
}

const CELLS: Cell[] = SPEC_MATRIX.flatMap((row) =>
  TEMPERATURE_CASES.flatMap(({ label: temperatureLabel, temperature }) =>
    THINKING_CASES.flatMap((thinkingCase) =>
      STOP_CASES.map(({ label: stopLabel, stops, whitespaceOnly }) => ({
        name: `${row.id} | ${temperatureLabel} | ${thinkingCase.label} | ${stopLabel}`,
        row,
        input: buildInput(row.id, temperature, thinkingCase, stops),
        expected: expectedViolations(row, temperature, thinkingCase, stops, whitespaceOnly),
      })),
    ),
  ),
);

function entryOf(id: string): ModelEntry {
  const entry = DEFAULT_CATALOG.get(id);
  if (!entry) throw new Error(`catalog lacks ${id}`);
  return entry;
}

describe("the spec's full model matrix", () => {
  it('covers 12 models × 2 temperature × 6 thinking × 6 stop cases', () => {
    expect(CELLS).toHaveLength(12 * 2 * 6 * 6);
    // Sanity: the table holds both passing and failing cells of every rule.
    const rules = new Set(CELLS.flatMap((cell) => cell.expected.map((violation) => violation.rule)));
    expect([...rules].sort()).toEqual(['stop_sequences', 'temperature', 'thinking', 'thinking_budget']);
    expect(CELLS.filter((cell) => cell.expected.length === 0).length).toBeGreaterThan(0);
  });

  it.each(CELLS)('$name', ({ row, input, expected }) => {
    const entry = entryOf(row.id);
    // findRuleViolations: exactly the expected rules, in the documented order.
    const violations = findRuleViolations(input, entry);
    expect(violations.map((violation) => violation.rule)).toEqual(expected.map((violation) => violation.rule));
    violations.forEach((violation, i) => expected[i]?.check(violation.error));

    // checkModelRules: the first violation, or undefined.
    const checked = checkModelRules(input, DEFAULT_CATALOG);
    if (expected.length === 0) {
      expect(checked).toBeUndefined();
      expect(enforceModelRules({ ...input }, entry)).toEqual([]);
    } else {
      expect(checked).toBeInstanceOf(GatewayError);
      expected[0]?.check(checked as GatewayError);
      // enforceModelRules throws that same first error.
      let thrown: unknown;
      try {
        enforceModelRules({ ...input }, entry);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(GatewayError);
      expected[0]?.check(thrown as GatewayError);
    }
  });
});

describe('temperature values', () => {
  const rejecting = SPEC_MATRIX.filter((row) => row.temperature !== 'accepted');
  const accepting = SPEC_MATRIX.filter((row) => row.temperature === 'accepted');

  it('five models reject temperature, seven accept it', () => {
    expect(rejecting.map((row) => row.id).sort()).toEqual([
      'vendora-fable-5',
      'vendora-opus-4-7',
      'vendora-opus-4-8',
      'vendora-opus-5',
      'vendora-sonnet-5',
    ]);
    expect(accepting).toHaveLength(7);
  });

  it.each(rejecting)('$id rejects every temperature value, even 1 and 0 (hard error, not a warning)', (row) => {
    for (const temperature of [0, 1, 0.7, 2]) {
      const error = checkModelRules({ model: row.id, max_tokens: 100, temperature }, DEFAULT_CATALOG);
      expect(error?.status).toBe(400);
      expect(error?.code).toBe('INVALID_REQUEST');
      expect(error?.message).toBe(temperatureDeprecated(row.id));
    }
  });

  it.each(accepting)('$id accepts temperature 0, 1 and 2', (row) => {
    for (const temperature of [0, 1, 2]) {
      expect(checkModelRules({ model: row.id, max_tokens: 100, temperature }, DEFAULT_CATALOG)).toBeUndefined();
    }
  });

  it('renders as invalid_request_error', async () => {
    const { renderError } = await import('../../../src/render-error.js');
    const error = checkModelRules({ model: 'vendora-opus-5', max_tokens: 100, temperature: 1 }, DEFAULT_CATALOG);
    const rendered = renderError(error as GatewayError, 'messages');
    expect(rendered.status).toBe(400);
    expect(rendered.body).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: temperatureDeprecated('vendora-opus-5') } });
  });
});

describe('stop sequences', () => {
  it.each([
    ['empty string', ['']],
    ['carriage return + newline', ['\r\n']],
    ['tab', ['\t']],
    ['single space', [' ']],
  ])('%s is whitespace-only on every model', (_label, stops) => {
    for (const row of SPEC_MATRIX) {
      const error = checkModelRules({ model: row.id, max_tokens: 100, stop_sequences: stops }, DEFAULT_CATALOG);
      expect(error?.status).toBe(400);
      expect(error?.message).toBe(STOP_MESSAGE);
    }
  });

  it('names the index of the first whitespace-only entry', () => {
    const error = checkModelRules(
      { model: 'vendora-sonnet-4-6', max_tokens: 100, stop_sequences: ['END', 'STOP', '\n', ' '] },
      DEFAULT_CATALOG,
    );
    expect(error?.message).toBe(STOP_MESSAGE);
    expect(error?.param).toBe('stop_sequences.2');
  });

  it('accepts text with surrounding whitespace and an empty list', () => {
    for (const stops of [[' END '], ['\n\nHuman:'], ['\t#'], []]) {
      expect(checkModelRules({ model: 'vendora-opus-4-7', max_tokens: 100, stop_sequences: stops }, DEFAULT_CATALOG)).toBeUndefined();
    }
  });
});

describe('thinking budget', () => {
  it('max_tokens one above the budget passes, equal fails', () => {
    const enabled = { model: 'vendora-sonnet-4-6', thinking: { type: 'enabled', budget_tokens: 1024 } };
    expect(checkModelRules({ ...enabled, max_tokens: 1025 }, DEFAULT_CATALOG)).toBeUndefined();
    const error = checkModelRules({ ...enabled, max_tokens: 1024 }, DEFAULT_CATALOG);
    expect(error?.status).toBe(400);
    expect(error?.message).toBe(budgetNotBelowMaxTokens(1024, 1024));
    expect(error?.param).toBe('max_tokens');
  });
});

describe('checkModelRules: unknown models', () => {
  it.each(['gpt-4o', 'vendora-opus-9', 'VENDORA-OPUS-5', ''])('%j → 404 MODEL_NOT_FOUND naming it', (model) => {
    const error = checkModelRules({ model, max_tokens: 100 }, DEFAULT_CATALOG);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error?.status).toBe(404);
    expect(error?.code).toBe('MODEL_NOT_FOUND');
    expect(error?.message).toBe(`model: ${model} is not available on /v1/messages. Available models: ${SPEC_MATRIX.map((row) => row.id).join(', ')}.`);
    expect(error?.param).toBe('model');
    expect(error?.chatCode).toBe('model_not_found');
  });

  it('404 comes before any other rule', () => {
    const error = checkModelRules(
      { model: 'nope', max_tokens: 1, temperature: 1, stop_sequences: ['\n'], thinking: { type: 'enabled', budget_tokens: 2048 } },
      DEFAULT_CATALOG,
    );
    expect(error?.status).toBe(404);
  });

  it('uses the catalog it is given', () => {
    const catalog = createCatalog({
      models: [{ ...entryOf('vendora-sonnet-4-6'), id: 'house-model', temperature: 'rejected' }],
      replace: true,
    });
    expect(checkModelRules({ model: 'vendora-sonnet-4-6', max_tokens: 100 }, catalog)?.status).toBe(404);
    expect(checkModelRules({ model: 'house-model', max_tokens: 100 }, catalog)).toBeUndefined();
    expect(checkModelRules({ model: 'house-model', max_tokens: 100, temperature: 1 }, catalog)?.status).toBe(400);
  });
});

describe('enforceModelRules with dropUnsupportedParams', () => {
  const rejecting = SPEC_MATRIX.filter((row) => row.temperature !== 'accepted');

  it.each(rejecting)('$id: removes only temperature and returns ["temperature"]', (row) => {
    const input: RuleInput = { model: row.id, max_tokens: 4096, temperature: 0.3, stop_sequences: ['END'] };
    const dropped = enforceModelRules(input, entryOf(row.id), { dropUnsupportedParams: true });
    expect(dropped).toEqual(['temperature']);
    expect('temperature' in input).toBe(false);
    expect(input).toEqual({ model: row.id, max_tokens: 4096, stop_sequences: ['END'] });
  });

  it.each(rejecting)('$id: without the option the same request throws', (row) => {
    const input: RuleInput = { model: row.id, max_tokens: 4096, temperature: 0.3 };
    expect(() => enforceModelRules(input, entryOf(row.id))).toThrow('temperature is deprecated for this model');
    expect(input.temperature).toBe(0.3);
  });

  it('keeps temperature on models that accept it and drops nothing', () => {
    const input: RuleInput = { model: 'vendora-haiku-4-5', max_tokens: 4096, temperature: 0.3 };
    expect(enforceModelRules(input, entryOf('vendora-haiku-4-5'), { dropUnsupportedParams: true })).toEqual([]);
    expect(input.temperature).toBe(0.3);
  });

  it('whitespace stop sequences still throw', () => {
    const input: RuleInput = { model: 'vendora-opus-5', max_tokens: 4096, temperature: 1, stop_sequences: ['\n\n'] };
    expect(() => enforceModelRules(input, entryOf('vendora-opus-5'), { dropUnsupportedParams: true })).toThrow(STOP_MESSAGE);
  });

  it('thinking.enabled on an adaptive model still throws', () => {
    const input: RuleInput = {
      model: 'vendora-opus-4-8',
      max_tokens: 4096,
      temperature: 1,
      thinking: { type: 'enabled', budget_tokens: 2048 },
    };
    expect(() => enforceModelRules(input, entryOf('vendora-opus-4-8'), { dropUnsupportedParams: true })).toThrow(
      'thinking.enabled is not supported for this model',
    );
  });

  it('thinking on a model without thinking still throws', () => {
    const input: RuleInput = { model: 'vendora-opus-4-7', max_tokens: 4096, temperature: 1, thinking: { type: 'adaptive' } };
    expect(() => enforceModelRules(input, entryOf('vendora-opus-4-7'), { dropUnsupportedParams: true })).toThrow(GatewayError);
  });

  it('the thinking budget rule still throws', () => {
    const input: RuleInput = {
      model: 'vendora-sonnet-4-5',
      max_tokens: 1000,
      temperature: 1,
      thinking: { type: 'enabled', budget_tokens: 2048 },
    };
    expect(() => enforceModelRules(input, entryOf('vendora-sonnet-4-5'), { dropUnsupportedParams: true })).toThrow(
      'max_tokens is 1000',
    );
  });
});
