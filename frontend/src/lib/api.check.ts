// Compile-time checks (svelte-check) that the UI's shapes of the API's
// answers (types.ts) name no field the API does not send, as the OpenAPI
// document says (openapi.d.ts is generated from it: `npm run openapi`,
// or `make openapi`). Nothing here runs.
import type { components } from './openapi';
import type * as UI from './types';

type S = components['schemas'];
type OnlyApiFields<U, A> = [Exclude<keyof U, keyof A>] extends [never] ? true : Exclude<keyof U, keyof A>;

export const uiShapesFitTheApi: [
  OnlyApiFields<UI.Status, S['Status']>,
  OnlyApiFields<UI.Integration, S['Integration']>,
  OnlyApiFields<UI.OCRStatus, S['OCRStatus']>,
  OnlyApiFields<UI.Stats, S['Stats']>,
  OnlyApiFields<UI.SearchRequest, S['SearchRequest']>,
  OnlyApiFields<UI.SearchFilters, S['SearchFilters']>,
  OnlyApiFields<UI.SearchFile, S['SearchFile']>,
  OnlyApiFields<UI.SearchResult, S['PageHit']>,
  OnlyApiFields<UI.Explain, S['Explain']>,
  OnlyApiFields<UI.ExplainWord, S['ExplainWord']>,
  OnlyApiFields<UI.SearchResponse, S['PageResponse']>,
  OnlyApiFields<UI.KindFacet, S['KindCount']>,
  OnlyApiFields<UI.LanguageFacet, S['LangCount']>,
  OnlyApiFields<UI.Preview, S['PreviewView']>,
  OnlyApiFields<UI.FileRecord, S['File']>,
  // pending comes from scan.progress events, not from the folder list.
  OnlyApiFields<Omit<UI.Folder, 'pending'>, S['Folder']>,
  OnlyApiFields<UI.FolderList, S['FolderList']>,
  OnlyApiFields<UI.WatchRequest, S['WatchRequest']>,
  OnlyApiFields<UI.WatchResult, S['Watched']>,
  OnlyApiFields<UI.Problem, S['Problem']>,
  OnlyApiFields<UI.ProblemList, S['ProblemList']>,
  OnlyApiFields<UI.QueueItem, S['QueueItem']>,
  OnlyApiFields<UI.QueueItems, S['QueueItems']>,
  OnlyApiFields<UI.FilterConfig, S['FilterConfig']>,
  OnlyApiFields<UI.FilterUpdate, S['FilterUpdate']>,
  OnlyApiFields<UI.PatternRequest, S['PatternRequest']>,
  OnlyApiFields<UI.FilterChange, S['FilterChange']>,
  OnlyApiFields<UI.FilterApplied, S['Applied']>,
] = [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true];
