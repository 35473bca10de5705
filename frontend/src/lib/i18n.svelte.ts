// The UI's language: the message catalogues (src/locales, English the
// source), the choice of language (the setting ui.language, else the
// browser's languages), and t(), which components call. The locale is
// $state, so every t() in a template runs again when it changes.

import i18next, { type TFunction } from 'i18next';
import en from '../locales/en.json';
import de from '../locales/de.json';
import fr from '../locales/fr.json';
import es from '../locales/es.json';
import zhCN from '../locales/zh-CN.json';
import ja from '../locales/ja.json';
import ru from '../locales/ru.json';
import { FSI, PDI, pseudoCatalogue } from './pseudo';

declare module 'i18next' {
  interface CustomTypeOptions {
    resources: { translation: typeof en };
  }
}

/** The languages the UI speaks, each named in itself. */
export const languages = [
  { tag: 'en', name: 'English' },
  { tag: 'de', name: 'Deutsch' },
  { tag: 'fr', name: 'Français' },
  { tag: 'es', name: 'Español' },
  { tag: 'zh-CN', name: '简体中文' },
  { tag: 'ja', name: '日本語' },
  { tag: 'ru', name: 'Русский' },
] as const;

/** The pseudo-locale, for finding text that is not in the catalogue. */
export const PSEUDO = 'en-XA';

const catalogues = { en, de, fr, es, 'zh-CN': zhCN, ja, ru };
const STORE_KEY = 'trove.language';

const current = new (class {
  locale: string = $state('en');
})();

const instance = i18next.createInstance();
void instance.init({
  lng: 'en',
  fallbackLng: 'en',
  supportedLngs: [...languages.map((l) => l.tag), PSEUDO],
  resources: {
    ...Object.fromEntries(Object.entries(catalogues).map(([tag, tr]) => [tag, { translation: tr }])),
    [PSEUDO]: { translation: pseudoCatalogue(en) },
  },
  initAsync: false,
  returnNull: false,
  // Values are never HTML here (Svelte escapes what it renders); in the
  // pseudo-locale each is isolated, so the test can tell it from the message.
  interpolation: { escapeValue: true, escape: (v: string) => (current.locale === PSEUDO ? FSI + v + PDI : v) },
});


/** The locale shown (a tag of languages, or PSEUDO). */
export function locale(): string {
  return current.locale;
}

/** The locale Intl formats with: the pseudo-locale formats as English. */
export function intlLocale(): string {
  return current.locale === PSEUDO ? 'en' : current.locale;
}

/** Marks a formatted value (a date, a count) as data in the pseudo-locale. */
export function isolate(s: string): string {
  return current.locale === PSEUDO && s ? FSI + s + PDI : s;
}

/** A catalogue message; reactive in templates and $derived. */
export const t = ((...args: unknown[]) => {
  void current.locale;
  return (instance.t as unknown as (...a: unknown[]) => string)(...args);
}) as unknown as TFunction;

/**
 * The supported language for a list of preferences (navigator.languages):
 * the first that matches by language, Chinese only in its simplified script.
 */
export function matchLanguage(prefs: readonly string[]): string {
  for (const pref of prefs) {
    if (pref.toLowerCase() === PSEUDO.toLowerCase()) return PSEUDO;
    let loc: Intl.Locale;
    try {
      loc = new Intl.Locale(pref).maximize();
    } catch {
      continue;
    }
    if (loc.language === 'zh') {
      if (loc.script === 'Hans') return 'zh-CN';
      continue;
    }
    const hit = languages.find((l) => l.tag === loc.language);
    if (hit) return hit.tag;
  }
  return 'en';
}

/** The system's languages, as the browser reports them. */
export function systemLanguage(): string {
  const prefs = typeof navigator === 'undefined' ? [] : navigator.languages?.length ? navigator.languages : [navigator.language];
  return matchLanguage(prefs.filter(Boolean));
}

/**
 * Shows the UI in the language of a ui.language setting: "" follows the
 * system. The choice is kept in this browser too, so the next start
 * speaks it before the settings arrive.
 */
export function applyLanguage(setting: string): void {
  const tag = setting === PSEUDO || languages.some((l) => l.tag === setting) ? setting : systemLanguage();
  void instance.changeLanguage(tag);
  current.locale = tag;
  if (typeof document !== 'undefined') document.documentElement.lang = tag;
  try {
    localStorage.setItem(STORE_KEY, setting);
  } catch {
    // not kept: the settings will say it again
  }
}

/** The language setting this browser last saw, or "" (follow the system). */
export function keptLanguage(): string {
  try {
    return localStorage.getItem(STORE_KEY) ?? '';
  } catch {
    return '';
  }
}

export type RichTag = '' | 'code' | 'kbd' | 'b' | 'strong' | 'link';

/**
 * A message split at its inline markup: <code>, <kbd>, <b>, <strong> and
 * <link> (a button or link the component supplies) become parts of their own.
 */
export function richParts(text: string): { tag: RichTag; text: string }[] {
  const parts: { tag: RichTag; text: string }[] = [];
  const re = /<(code|kbd|b|strong|link)>(.*?)<\/\1>/g;
  let at = 0;
  for (let m; (m = re.exec(text)); at = re.lastIndex) {
    if (m.index > at) parts.push({ tag: '', text: text.slice(at, m.index) });
    parts.push({ tag: m[1] as RichTag, text: m[2] });
  }
  if (at < text.length) parts.push({ tag: '', text: text.slice(at) });
  return parts;
}
