// How the results are shown, as cards or as a table: kept in this browser
// (localStorage), like the language and the recent searches.

export type ResultsView = 'cards' | 'table';

export const VIEW_KEY = 'trove.resultsView';

function stored(): ResultsView {
  try {
    return localStorage.getItem(VIEW_KEY) === 'table' ? 'table' : 'cards';
  } catch {
    return 'cards'; // no storage (a locked-down browser): cards
  }
}

export const resultsView = $state({ mode: stored() });

export function setResultsView(mode: ResultsView): void {
  resultsView.mode = mode;
  try {
    localStorage.setItem(VIEW_KEY, mode);
  } catch {
    // kept for this visit only
  }
}
