// "Why this result": the explanation the API gives with "explain": true,
// turned into short lines a person can read.

import type { Explain } from './types';
import { t } from './i18n.svelte';
import { formatNumber, listOf } from './format';

const fields = ['text', 'name', 'folders', 'title', 'keywords', 'summary'] as const;
const fieldName = (f: string) => (fields.includes(f as (typeof fields)[number]) ? t(`why.fields.${f as (typeof fields)[number]}`) : f);

/** One matched word and where it was found: "roof: text ×3, title". */
export interface WhyWord {
  word: string;
  /** The fields, most matches first: "text ×3", "title". */
  where: string[];
  source: 'query' | 'correction' | 'feedback';
}

export interface Why {
  words: WhyWord[];
  /** Query words found in the file's name, extension or folders. */
  name: string;
  /** Spelling corrections used: "laeks → leaks". */
  corrections: string[];
  /** Words feedback added to the query. */
  feedback: string[];
  /** The score as a sum: "1.72 = text 0.58 + words together 0.04 + name 0.76 + meaning 0.34". */
  sum: string;
}

const n2 = (x: number) => formatNumber(x, 2);

export function describeWhy(x: Explain): Why {
  const words = [...x.words]
    .sort((a, b) => b.score - a.score)
    .map((w) => ({
      word: w.word,
      source: w.source,
      where: Object.entries(w.fields)
        .sort((a, b) => b[1] - a[1])
        .map(([f, count]) => (count > 1 ? `${fieldName(f)} ×${count}` : fieldName(f))),
    }));
  const byPlace = new Map<string, string[]>();
  for (const m of x.name) byPlace.set(m.matched, [...(byPlace.get(m.matched) ?? []), m.word]);
  const place = (key: string, msg: 'why.inName' | 'why.asExtension' | 'why.inFolder') =>
    byPlace.has(key) ? t(msg, { words: listOf(byPlace.get(key)!, 'unit') }) : '';
  const exact = (x.keyword.name_exact ?? 0) > 0;
  const name = [
    exact ? t('why.wholeName') : '',
    place('name', 'why.inName'),
    place('extension', 'why.asExtension'),
    place('folders', 'why.inFolder'),
  ]
    .filter(Boolean)
    .join(' · ');
  const corrections = x.words.filter((w) => w.source === 'correction' && w.of).map((w) => `${w.of} → ${w.word}`);
  const near = x.keyword.proximity ?? 0;
  const parts = [t('why.text', { score: n2(x.keyword.text - near) })];
  if (near > 0) parts.push(t('why.together', { score: n2(near) }));
  const named = x.keyword.name + (x.keyword.name_exact ?? 0);
  if (named > 0) parts.push(t('why.name', { score: n2(named * x.keyword.name_weight) }));
  if (x.semantic.score > 0) parts.push(t('why.meaning', { score: n2(x.semantic.score) }));
  const total = x.keyword.score + x.semantic.score;
  return { words, name, corrections, feedback: x.feedback, sum: `${n2(total)} = ${parts.join(' + ')}` };
}
