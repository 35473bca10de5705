// How the results are shown, as cards or as a table: kept in this browser
// (localStorage), like the language and the recent searches.

export type ResultsView = 'cards' | 'table';

export const VIEW_KEY = 'trove.resultsView';

/** The view kept in this browser (cards when none or unreadable). */
export function storedResultsView(): ResultsView {
  try {
    return localStorage.getItem(VIEW_KEY) === 'table' ? 'table' : 'cards';
  } catch {
    return 'cards'; // no storage (a locked-down browser): cards
  }
}

export const resultsView = $state({ mode: storedResultsView() });

export function setResultsView(mode: ResultsView): void {
  resultsView.mode = mode;
  try {
    localStorage.setItem(VIEW_KEY, mode);
  } catch {
    // kept for this visit only
  }
}
