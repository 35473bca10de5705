import { describe, it, expect, afterEach } from 'vitest';
import en from '../locales/en.json';
import { applyLanguage, languages, locale, matchLanguage, PSEUDO, richParts, t } from './i18n.svelte';
import { pseudoText } from './pseudo';
import { formatBytes, formatCount, relativeTime } from './format';

type Tree = { [k: string]: string | Tree };
const flat = (tree: Tree, prefix = ''): Record<string, string> =>
  Object.entries(tree).reduce<Record<string, string>>((out, [k, v]) => {
    const key = prefix ? `${prefix}.${k}` : k;
    return typeof v === 'string' ? { ...out, [key]: v } : { ...out, ...flat(v, key) };
  }, {});
const plurals = /_(zero|one|two|few|many|other)$/;
// What must stay as it is in every translation: placeholders and markup.
const fixed = (s: string) => [...(s.match(/\{\{[^}]*\}\}|<\/?[a-z]+>/g) ?? [])].sort();
const catalogue = async (tag: string) => flat((await import(`../locales/${tag}.json`)).default);

afterEach(() => applyLanguage('en'));

describe('the catalogues', () => {
  const source = flat(en);
  const bases = new Set(Object.keys(source).map((k) => k.replace(plurals, '')));

  for (const { tag } of languages.filter((l) => l.tag !== 'en')) {
    it(`${tag} has every message of English, with its placeholders and markup, and its own plural forms`, async () => {
      const cat = await catalogue(tag);
      const need = new Intl.PluralRules(tag).resolvedOptions().pluralCategories;
      const problems: string[] = [];
      for (const base of bases) {
        const forms = Object.keys(source).filter((k) => k === base || k.replace(plurals, '') === base);
        const pluralised = forms.some((k) => plurals.test(k));
        // Placeholders of the English "other" form (it has every one).
        const want = fixed(source[pluralised ? `${base}_other` : base]);
        const keys = pluralised ? need.filter((c) => !(c === 'many' && !cat[`${base}_many`])).map((c) => `${base}_${c}`) : [base];
        for (const k of keys) {
          if (!(k in cat)) problems.push(`missing ${k}`);
          else if (!/_one$/.test(k) && JSON.stringify(fixed(cat[k])) !== JSON.stringify(want)) problems.push(`${k}: ${fixed(cat[k])} ≠ ${want}`);
        }
      }
      for (const k of Object.keys(cat)) if (!bases.has(k.replace(plurals, ''))) problems.push(`unknown ${k}`);
      expect(problems).toEqual([]);
    });
  }

  it('translates, not copies: most messages differ from English', async () => {
    for (const { tag } of languages.filter((l) => l.tag !== 'en')) {
      const cat = await catalogue(tag);
      const same = Object.keys(cat).filter((k) => cat[k] === source[k]);
      expect(same.length / Object.keys(cat).length, `${tag}: ${same.slice(0, 10).join(', ')}`).toBeLessThan(0.1);
    }
  });
});

describe('the language', () => {
  it('follows the preferences: the first language the UI speaks, Chinese only simplified', () => {
    expect(matchLanguage(['de-AT', 'en'])).toBe('de');
    expect(matchLanguage(['pt-BR', 'fr-CA'])).toBe('fr');
    expect(matchLanguage(['zh-TW', 'ja'])).toBe('ja');
    expect(matchLanguage(['zh'])).toBe('zh-CN');
    expect(matchLanguage(['zh-Hans-SG'])).toBe('zh-CN');
    expect(matchLanguage(['pt', 'not a tag'])).toBe('en');
    expect(matchLanguage(['en-XA'])).toBe(PSEUDO);
  });

  it('takes the setting over the system, and "" follows the system', () => {
    applyLanguage('ru');
    expect(locale()).toBe('ru');
    expect(document.documentElement.lang).toBe('ru');
    applyLanguage('');
    expect(locale()).toBe(matchLanguage(navigator.languages));
    applyLanguage('xx');
    expect(locale()).toBe(matchLanguage(navigator.languages));
  });

  it('chooses Russian plural forms by the number', () => {
    applyLanguage('ru');
    expect([1, 2, 5, 21, 22, 25, 111].map((n) => t('status.files', { count: n }))).toEqual([
      '1 файл проиндексирован',
      '2 файла проиндексировано',
      '5 файлов проиндексировано',
      '21 файл проиндексирован',
      '22 файла проиндексировано',
      '25 файлов проиндексировано',
      '111 файлов проиндексировано',
    ]);
  });

  it('formats numbers, sizes and times in the language', () => {
    applyLanguage('de');
    expect(formatCount(12408)).toBe('12.408');
    expect(formatBytes(1536)).toBe('1,5 kB');
    expect(relativeTime('2026-11-22T09:00:00', new Date(2026, 10, 22, 12, 0, 0))).toBe('vor 3 Stunden');
    expect(t('common.results', { count: 1234 })).toBe('1.234 Ergebnisse');
    applyLanguage('fr');
    expect(t('common.noMatch', { query: 'toit' })).toBe('Aucun fichier ne correspond à « toit »');
  });
});

describe('the pseudo-locale', () => {
  it('accents every letter and keeps placeholders, markup and code', () => {
    expect(pseudoText('Search {{count, number}} files')).toBe('[Šéåŕçĥ {{count, number}} ƒîļéš]');
    expect(pseudoText('Type <code>quart*</code> and <kbd>Enter</kbd>')).toBe('[Ţýþé <code>quart*</code> åñð <kbd>Éñţéŕ</kbd>]');
  });

  it('isolates the values put into messages', () => {
    applyLanguage(PSEUDO);
    expect(t('actions.opened', { name: 'plan.md' })).toBe('[Öþéñéð \u2068plan.md\u2069]');
  });

  it('splits a message at its markup', () => {
    expect(richParts('Did you mean <link>roof</link>? <code>a*</code>')).toEqual([
      { tag: '', text: 'Did you mean ' },
      { tag: 'link', text: 'roof' },
      { tag: '', text: '? ' },
      { tag: 'code', text: 'a*' },
    ]);
  });
});
