// The filter editor's lists: which two lists each mode shows, and the
// default patterns a list lacks.

import type { FilterConfig, FilterDefaults, FilterMode, PatternList } from './api';
import { t } from './i18n.svelte';

export const APPLY_KEY = 'trove.filters.applyImmediately';

export interface ListInfo {
  key: PatternList;
  /** The legacy name of this list while its mode is active. */
  legacy: 'exclude' | 'include';
  title: string;
  hint: string;
  placeholder: string;
}

export function listsOf(mode: FilterMode): ListInfo[] {
  if (mode === 'whitelist') {
    return [
      {
        key: 'whitelist_include',
        legacy: 'include',
        title: t('filterEditor.lists.included'),
        hint: t('filterEditor.lists.includedHint'),
        placeholder: '**/*.md',
      },
      {
        key: 'whitelist_exclude',
        legacy: 'exclude',
        title: t('filterEditor.lists.excluded'),
        hint: t('filterEditor.lists.excludedWhiteHint'),
        placeholder: '**/drafts/**',
      },
    ];
  }
  return [
    {
      key: 'blacklist_exclude',
      legacy: 'exclude',
      title: t('filterEditor.lists.excluded'),
      hint: t('filterEditor.lists.excludedBlackHint'),
      placeholder: '*.log',
    },
    {
      key: 'blacklist_include',
      legacy: 'include',
      title: t('filterEditor.lists.exceptions'),
      hint: t('filterEditor.lists.exceptionsHint'),
      placeholder: 'important.log',
    },
  ];
}

/** Default patterns of a list that the configuration lacks, in default order. */
export function missingDefaults(config: FilterConfig, defaults: FilterDefaults, list: PatternList): string[] {
  const have = new Set(config[list] ?? []);
  return (defaults[list] ?? []).filter((p) => !have.has(p));
}
