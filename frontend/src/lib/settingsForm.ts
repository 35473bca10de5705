// The settings form: dotted keys, the patch of what changed, and the API's
// validation errors mapped to the fields they name.

import { ApiError, type OCRStatus, type Settings, type SettingsPatch, type SchedulerRule, type RuleType } from './api';
import { intlLocale, t } from './i18n.svelte';
import { listOf, weekdayNames } from './format';

/** Arrays (scheduler.rules) are one value: the API replaces them whole. */
export function flatten(obj: Record<string, any>, prefix = ''): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj ?? {})) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object' && !Array.isArray(v)) Object.assign(out, flatten(v, key));
    else out[key] = v;
  }
  return out;
}

/** The PUT /api/settings/ body: every dotted key whose value differs. */
export function settingsPatch(base: Settings, edited: Settings): SettingsPatch {
  const a = flatten(base as any);
  const b = flatten(edited as any);
  const patch: SettingsPatch = {};
  for (const [k, v] of Object.entries(b)) {
    if (JSON.stringify(v) !== JSON.stringify(a[k])) patch[k] = k === 'scheduler.rules' ? cleanRules(v as any) : v;
  }
  return patch;
}

/** A deep copy, for editing without touching the saved settings. */
export function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v));
}

export type FieldErrors = Record<string, string>;

/** The key of errors that name no field. */
export const FORM = '';

/**
 * An API error as field errors: error.field is the dotted key at fault
 * ("queue.max_concurrency", "scheduler.rules[0].percent"). The message loses
 * its leading "key: ", since it is shown next to the field.
 */
export function fieldErrors(e: unknown): FieldErrors {
  const err = e instanceof ApiError ? e : new ApiError({ code: 'ERROR', message: String((e as any)?.message ?? e) });
  if (!err.field) return { [FORM]: err.message };
  return { [err.field]: stripField(err.message, err.field) };
}

export function stripField(message: string, field: string): string {
  const prefix = `${field}: `;
  const m = message.startsWith(prefix) ? message.slice(prefix.length) : message;
  return m ? m[0].toUpperCase() + m.slice(1) : m;
}

/** The error for a field, or one inside it ("scheduler.rules" has "scheduler.rules[2].start"). */
export function errorFor(errors: FieldErrors, key: string): string | undefined {
  if (errors[key]) return errors[key];
  return undefined;
}

/** The rule index named by a field such as "scheduler.rules[2].start". */
export function ruleIndexOf(field: string): number | undefined {
  const m = /^scheduler\.rules\[(\d+)\]/.exec(field);
  return m ? Number(m[1]) : undefined;
}

/** The error of one rule (any of its parameters, or the rule itself). */
export function ruleError(errors: FieldErrors, index: number, param?: string): string | undefined {
  const base = `scheduler.rules[${index}]`;
  if (param) return errors[`${base}.${param}`];
  return errors[base];
}

/** Errors for any field in the form that is not shown next to a field. */
export function unplacedErrors(errors: FieldErrors, shown: (key: string) => boolean): string[] {
  return Object.entries(errors)
    .filter(([k, v]) => v && (k === FORM || !shown(k)))
    .map(([k, v]) => (k === FORM ? v : `${k}: ${v}`));
}

// ---------------------------------------------------------------------------
// Scheduler rules

export const ruleTypes: RuleType[] = ['time_window', 'on_ac_power', 'cpu_below', 'battery_above'];

/** A rule type in words. */
export const ruleTypeLabel = (type: RuleType): string => t(`rules.types.${type}`);

export const days = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

export function newRule(type: RuleType): SchedulerRule {
  switch (type) {
    case 'time_window':
      return { type, start: '22:00', end: '07:00' };
    case 'cpu_below':
      return { type, percent: 50 };
    case 'battery_above':
      return { type, percent: 30 };
    default:
      return { type };
  }
}

/** Only the parameters a rule's type takes (the API rejects the others). */
export function cleanRules(rules: SchedulerRule[]): SchedulerRule[] {
  return (rules ?? []).map((r) => {
    switch (r.type) {
      case 'time_window': {
        const out: SchedulerRule = { type: r.type, start: r.start ?? '', end: r.end ?? '' };
        if (r.days && r.days.length) out.days = [...r.days];
        return out;
      }
      case 'cpu_below':
      case 'battery_above':
        return { type: r.type, percent: r.percent as number };
      default:
        return { type: r.type };
    }
  });
}

/** A rule in words, for the list. */
export function describeRule(r: SchedulerRule): string {
  switch (r.type) {
    case 'time_window': {
      const times = { start: r.start || '?', end: r.end || '?' };
      if (!r.days?.length) return t('rules.between', times);
      const names = weekdayNames('short');
      return t('rules.betweenOn', { ...times, days: listOf(r.days.map((d) => names[days.indexOf(d)] ?? d), 'unit') });
    }
    case 'on_ac_power':
      return t('rules.onPower');
    case 'cpu_below':
      return t('rules.cpuBelow', { percent: r.percent ?? '?' });
    case 'battery_above':
      return t('rules.batteryAbove', { percent: r.percent ?? '?' });
    default:
      return String(r.type);
  }
}

// ---------------------------------------------------------------------------
// OCR

/** The server's words while its first look for tesseract is still running. */
export const OCR_CHECKING = 'still looking for tesseract';

/** What the OCR switch shows, from GET /api/status/'s ocr. */
export interface OCRControl {
  /** Turning OCR on is refused: it could not run. Turning it off never is. */
  disabled: boolean;
  /** A line beside the switch: the languages, or why OCR cannot run. */
  note: string;
  /** The note is a problem (tesseract missing or broken). */
  problem: boolean;
  /** The note is the server's own words, in English. */
  foreign?: boolean;
}

/**
 * The OCR switch for a server status (undefined while it is unknown, or
 * from a server that does not say) and whether OCR is on in the form.
 */
export function ocrControl(status: OCRStatus | undefined, on: boolean): OCRControl {
  if (!status) return { disabled: false, note: '', problem: false };
  if (status.available) {
    const langs = (status.languages ?? []).map(languageName);
    return { disabled: false, note: langs.length ? t('settings.extraction.ocrReads', { languages: listOf(langs) }) : '', problem: false };
  }
  if (status.message === OCR_CHECKING) return { disabled: false, note: t('settings.extraction.ocrLooking'), problem: false };
  if (status.message) return { disabled: !on, note: status.message, problem: true, foreign: true };
  return { disabled: !on, note: t('settings.extraction.ocrCannot'), problem: true };
}

// BCP 47 tags of common tesseract language packs (tesseract-ocr-<code>),
// named by Intl in the UI's language; other codes are shown as they are.
const languageTags: Record<string, string> = {
  eng: 'en', deu: 'de', fra: 'fr', spa: 'es', ita: 'it', por: 'pt', nld: 'nl', dan: 'da', swe: 'sv', nor: 'no',
  fin: 'fi', pol: 'pl', ces: 'cs', rus: 'ru', ukr: 'uk', ell: 'el', tur: 'tr', ara: 'ar', heb: 'he', hin: 'hi',
  jpn: 'ja', kor: 'ko', chi_sim: 'zh-Hans', chi_tra: 'zh-Hant',
};

export function languageName(code: string): string {
  const tag = languageTags[code];
  return tag ? (new Intl.DisplayNames(intlLocale(), { type: 'language' }).of(tag) ?? code) : code;
}

// ---------------------------------------------------------------------------
// Dotted access, for fields bound by their key

export function getPath(obj: Record<string, any>, key: string): unknown {
  return key.split('.').reduce<any>((o, k) => (o == null ? undefined : o[k]), obj);
}

export function setPath(obj: Record<string, any>, key: string, value: unknown): void {
  const parts = key.split('.');
  let o = obj;
  for (const k of parts.slice(0, -1)) {
    if (o[k] == null || typeof o[k] !== 'object') o[k] = {};
    o = o[k];
  }
  o[parts[parts.length - 1]] = value;
}

/**
 * A number input's value: a number, null when empty, or the raw text when it
 * is no number (the API then names the key and the type it wants).
 */
export function numberValue(raw: string): number | string | null {
  const t = raw.trim();
  if (t === '') return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : t;
}
