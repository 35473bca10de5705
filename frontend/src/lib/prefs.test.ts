import { describe, expect, it, beforeEach } from 'vitest';
import { resultsView, setResultsView, storedResultsView, VIEW_KEY } from './prefs.svelte';

beforeEach(() => localStorage.clear());

describe('the results view', () => {
  it('is cards at first, and a table once chosen, kept in this browser', () => {
    expect(storedResultsView()).toBe('cards');
    setResultsView('table');
    expect(resultsView.mode).toBe('table');
    expect(localStorage.getItem(VIEW_KEY)).toBe('table');
    expect(storedResultsView()).toBe('table');
    setResultsView('cards');
    expect(storedResultsView()).toBe('cards');
  });

  it('reads anything else stored as cards', () => {
    localStorage.setItem(VIEW_KEY, '<table>');
    expect(storedResultsView()).toBe('cards');
  });
});
