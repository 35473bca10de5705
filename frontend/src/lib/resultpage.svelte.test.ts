import { describe, it, expect, vi, beforeEach, afterEach } from 'vitest';
import { mount, unmount } from 'svelte';
import ResultList from '../components/ResultList.svelte';
import ResultTable from '../components/ResultTable.svelte';
import { searchResult as hit } from './fixtures';

// A PDF hit on page 3 and a text file's hit, which has no page.
const results = [
  { ...hit(1, 'report'), snippet: 'the <mark>quokka</mark> census', page: 3 },
  { ...hit(2, 'notes'), snippet: 'a <mark>quokka</mark> in the notes' },
];
const none = () => {};

describe('the page of a hit', () => {
  // jsdom lays nothing out and has no ResizeObserver (the folder path fits itself with one).
  beforeEach(() =>
    vi.stubGlobal(
      'ResizeObserver',
      class {
        observe() {}
        unobserve() {}
        disconnect() {}
      },
    ),
  );
  afterEach(() => vi.unstubAllGlobals());

  it('stands by the snippet of a card', () => {
    const target = document.createElement('div');
    const c = mount(ResultList, {
      target,
      props: { results, selected: 0, onselect: none, onopen: none, onreveal: none },
    });
    const cards = [...target.querySelectorAll('[data-testid="result"]')];
    expect(cards[0].querySelector('[data-testid="result-page"]')?.textContent).toBe('p. 3');
    expect(cards[0].querySelector('[data-testid="result-snippet"]')?.textContent).toContain('p. 3');
    expect(cards[1].querySelector('[data-testid="result-page"]')).toBeNull();
    unmount(c);
  });

  it('stands by the name in a row of the table', () => {
    const target = document.createElement('div');
    const c = mount(ResultTable, {
      target,
      props: {
        results,
        selected: 0,
        picked: new Set<number>(),
        sort: 'relevance',
        sortOrder: 'desc',
        onsort: none,
        onrowclick: none,
        ontoggle: none,
        ontoggleall: none,
        onopen: none,
        onkeydown: none,
      },
    });
    const pages = [...target.querySelectorAll('[data-testid="row-page"]')].map((p) => p.textContent);
    expect(pages).toEqual(['p. 3']);
    unmount(c);
  });
});
