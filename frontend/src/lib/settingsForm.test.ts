import { describe, it, expect } from 'vitest';
import {
  flatten,
  settingsPatch,
  fieldErrors,
  stripField,
  ruleIndexOf,
  ruleError,
  unplacedErrors,
  cleanRules,
  describeRule,
  numberValue,
  getPath,
  setPath,
  clone,
  FORM,
  ocrControl,
  OCR_CHECKING,
} from './settingsForm';
import { ApiError, type Settings } from './api';
import { defaultSettings } from './fixtures';

const base: Settings = defaultSettings();

describe('the settings patch', () => {
  it('flattens to dotted keys, arrays whole', () => {
    const f = flatten(base as any);
    expect(f['queue.max_concurrency']).toBe(2);
    expect(f['scheduler.rules']).toEqual([]);
    expect(Object.keys(f)).toHaveLength(25);
  });

  it('holds only the keys that changed', () => {
    const edited = clone(base);
    expect(settingsPatch(base, edited)).toEqual({});
    edited.queue.max_concurrency = 0;
    edited.scheduler.enabled = true;
    edited.scheduler.rules.push({ type: 'cpu_below', percent: 40, start: 'x' } as any);
    expect(settingsPatch(base, edited)).toEqual({
      'queue.max_concurrency': 0,
      'scheduler.enabled': true,
      'scheduler.rules': [{ type: 'cpu_below', percent: 40 }],
    });
  });

  it('reads and writes by dotted key', () => {
    const s = clone(base);
    setPath(s as any, 'queue.cooldown_seconds', 9);
    expect(getPath(s as any, 'queue.cooldown_seconds')).toBe(9);
    expect(getPath(s as any, 'nope.x')).toBeUndefined();
  });

  it('reads number inputs strictly', () => {
    expect(numberValue('4')).toBe(4);
    expect(numberValue(' 1.5 ')).toBe(1.5);
    expect(numberValue('')).toBeNull();
    expect(numberValue('abc')).toBe('abc');
  });
});

describe('validation errors from the API', () => {
  it('puts an error next to the field it names, without the key prefix', () => {
    const e = new ApiError({
      status: 400,
      code: 'OUT_OF_RANGE',
      field: 'queue.max_concurrency',
      message: 'queue.max_concurrency: 0 is out of range (allowed: 1 to 64)',
    });
    expect(fieldErrors(e)).toEqual({ 'queue.max_concurrency': '0 is out of range (allowed: 1 to 64)' });
  });

  it('maps rule errors to their rule and parameter', () => {
    const e = new ApiError({ code: 'INVALID_RULE', field: 'scheduler.rules[0].percent', message: 'scheduler.rules[0].percent: 150 is out of range' });
    const errs = fieldErrors(e);
    expect(ruleIndexOf('scheduler.rules[0].percent')).toBe(0);
    expect(ruleIndexOf('scheduler.rules[12]')).toBe(12);
    expect(ruleIndexOf('queue.max_retries')).toBeUndefined();
    expect(ruleError(errs, 0, 'percent')).toBe('150 is out of range');
    expect(ruleError(errs, 1, 'percent')).toBeUndefined();
  });

  it('keeps errors without a field for the form', () => {
    const errs = fieldErrors(new ApiError({ code: 'EMPTY_UPDATE', message: 'nothing to update' }));
    expect(errs).toEqual({ [FORM]: 'nothing to update' });
    expect(fieldErrors(new Error('boom'))).toEqual({ [FORM]: 'boom' });
  });

  it('lists the errors no field shows', () => {
    const errs = { [FORM]: 'a', 'queue.nope': 'unknown key', 'queue.max_retries': 'bad' };
    expect(unplacedErrors(errs, (k) => k === 'queue.max_retries')).toEqual(['a', 'queue.nope: unknown key']);
  });

  it('strips only a matching prefix', () => {
    expect(stripField('queue.nope: unknown setting', 'queue.nope')).toBe('Unknown setting');
    expect(stripField('something else', 'queue.nope')).toBe('Something else');
  });
});

describe('scheduler rules', () => {
  it('keeps only the parameters of each type', () => {
    expect(
      cleanRules([
        { type: 'time_window', start: '22:00', end: '07:00', days: [], percent: 3 },
        { type: 'time_window', start: '08:00', end: '18:00', days: ['mon', 'fri'] },
        { type: 'on_ac_power', percent: 5 },
        { type: 'battery_above', percent: 30, start: 'x' },
      ] as any),
    ).toEqual([
      { type: 'time_window', start: '22:00', end: '07:00' },
      { type: 'time_window', start: '08:00', end: '18:00', days: ['mon', 'fri'] },
      { type: 'on_ac_power' },
      { type: 'battery_above', percent: 30 },
    ]);
  });

  it('describes rules in words', () => {
    expect(describeRule({ type: 'time_window', start: '22:00', end: '07:00', days: ['sat'] })).toBe('between 22:00 and 07:00 on Sat');
    expect(describeRule({ type: 'cpu_below', percent: 40 })).toBe('while CPU use is below 40%');
  });
});

describe('the OCR switch', () => {
  const missing = { available: false, languages: [], message: 'tesseract is not installed: install tesseract-ocr to use OCR' };

  it('names the languages tesseract reads', () => {
    expect(ocrControl({ available: true, languages: ['eng'], message: '' }, false)).toEqual({
      disabled: false,
      note: 'tesseract reads English.',
      problem: false,
    });
    expect(ocrControl({ available: true, languages: ['eng', 'deu', 'xyz'], message: '' }, true).note).toBe(
      'tesseract reads English, German, and xyz.',
    );
  });

  it('cannot be turned on without tesseract, and says what to install', () => {
    expect(ocrControl(missing, false)).toEqual({ disabled: true, note: missing.message, problem: true, foreign: true });
  });

  it('can always be turned off', () => {
    expect(ocrControl(missing, true).disabled).toBe(false);
  });

  it('stays usable while the server has not said', () => {
    expect(ocrControl(undefined, false)).toEqual({ disabled: false, note: '', problem: false });
    expect(ocrControl({ available: false, languages: [], message: OCR_CHECKING }, false).disabled).toBe(false);
  });
});
