import { describe, it, expect } from 'vitest';
import { mount, unmount, flushSync } from 'svelte';
import { describeWhy } from './explain';
import type { Explain } from './types';
import WhyResult from '../components/WhyResult.svelte';

const explain: Explain = {
  keyword: { score: 1.38, text: 0.62, name: 0.76, name_weight: 1 },
  semantic: { score: 0.34, similarity: 0.41 },
  words: [
    { word: 'leaks', source: 'correction', of: 'laeks', fields: { text: 2 }, score: 0.2 },
    { word: 'roof', source: 'query', fields: { text: 3, title: 1 }, score: 0.4 },
    { word: 'gutter', source: 'feedback', fields: { summary: 1 }, score: 0.02 },
  ],
  name: [
    { word: 'roof', matched: 'name' },
    { word: 'notes', matched: 'folders' },
  ],
  feedback: ['gutter', 'storm'],
};

describe('why this result', () => {
  it('lists matched words by weight, with their fields', () => {
    const why = describeWhy(explain);
    expect(why.words.map((w) => `${w.word}: ${w.where.join(', ')}`)).toEqual(['roof: text ×3, title', 'leaks: text ×2', 'gutter: summary']);
    expect(why.name).toBe('roof in the name · notes in a folder');
    expect(why.corrections).toEqual(['laeks → leaks']);
    expect(why.feedback).toEqual(['gutter', 'storm']);
    expect(why.sum).toBe('1.72 = text 0.62 + name 0.76 + meaning 0.34');
  });

  it('shows the words standing together as its own part of the text', () => {
    const why = describeWhy({ ...explain, keyword: { ...explain.keyword, proximity: 0.04 } });
    expect(why.sum).toBe('1.72 = text 0.58 + words together 0.04 + name 0.76 + meaning 0.34');
  });

  it('counts the bonus of a name typed out whole in the name part, and says so', () => {
    const why = describeWhy({ ...explain, keyword: { ...explain.keyword, score: 1.87, name: 1, name_exact: 0.25 } });
    expect(why.name).toBe('the whole name, as typed · roof in the name · notes in a folder');
    expect(why.sum).toBe('2.21 = text 0.62 + name 1.25 + meaning 0.34');
  });

  it('leaves out the parts that are zero', () => {
    const why = describeWhy({ ...explain, keyword: { ...explain.keyword, score: 0.62, name: 0 }, semantic: { score: 0, similarity: 0 } });
    expect(why.sum).toBe('0.62 = text 0.62');
  });

  it('renders as a small definition list', () => {
    const target = document.createElement('div');
    const c = mount(WhyResult, { target, props: { explain } });
    flushSync();
    const text = target.querySelector('[data-testid="why"]')?.textContent ?? '';
    expect(text).toContain('roof (text ×3, title)');
    expect(text).toContain('laeks → leaks');
    expect(text).toContain('also searched for gutter, storm');
    expect(text).toContain('1.72 = text 0.62 + name 0.76 + meaning 0.34');
    unmount(c);
  });
});
