// "Why this result": the explanation the API gives with "explain": true,
// turned into short lines a person can read.

import type { Explain } from './types';

const fieldNames: Record<string, string> = {
  text: 'text',
  name: 'name',
  folders: 'folder',
  title: 'title',
  keywords: 'keywords',
  summary: 'summary',
};

/** One matched word and where it was found: "roof: text ×3, title". */
export interface WhyWord {
  word: string;
  where: string;
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

const n2 = (x: number) => x.toFixed(2);

export function describeWhy(x: Explain): Why {
  const words = [...x.words]
    .sort((a, b) => b.score - a.score)
    .map((w) => ({
      word: w.word,
      source: w.source,
      where: Object.entries(w.fields)
        .sort((a, b) => b[1] - a[1])
        .map(([f, count]) => (count > 1 ? `${fieldNames[f] ?? f} ×${count}` : (fieldNames[f] ?? f)))
        .join(', '),
    }));
  const byPlace = new Map<string, string[]>();
  for (const m of x.name) byPlace.set(m.matched, [...(byPlace.get(m.matched) ?? []), m.word]);
  const place = (key: string, label: string) => (byPlace.has(key) ? `${byPlace.get(key)!.join(', ')} ${label}` : '');
  const exact = (x.keyword.name_exact ?? 0) > 0;
  const name = [
    exact ? 'the whole name, as typed' : '',
    place('name', 'in the name'),
    place('extension', 'as the extension'),
    place('folders', 'in a folder'),
  ]
    .filter(Boolean)
    .join(' · ');
  const corrections = x.words.filter((w) => w.source === 'correction' && w.of).map((w) => `${w.of} → ${w.word}`);
  const near = x.keyword.proximity ?? 0;
  const parts = [`text ${n2(x.keyword.text - near)}`];
  if (near > 0) parts.push(`words together ${n2(near)}`);
  const named = x.keyword.name + (x.keyword.name_exact ?? 0);
  if (named > 0) parts.push(`name ${n2(named * x.keyword.name_weight)}`);
  if (x.semantic.score > 0) parts.push(`meaning ${n2(x.semantic.score)}`);
  const total = x.keyword.score + x.semantic.score;
  return { words, name, corrections, feedback: x.feedback, sum: `${n2(total)} = ${parts.join(' + ')}` };
}
