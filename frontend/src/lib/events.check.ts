// Compile-time checks (svelte-check) that the UI's narrowed shapes in
// types.ts name no field the backend does not send, as generated into
// events.ts. (That each narrowed field fits the backend's type is held by
// "extends" in types.ts.) Nothing here runs.
import type * as Go from './events';
import type * as UI from './types';

type OnlyBackendFields<U, G> = [Exclude<keyof U, keyof G>] extends [never] ? true : Exclude<keyof U, keyof G>;

export const uiShapesFitTheBackend: [
  OnlyBackendFields<UI.EmbeddingHealth, Go.EmbeddingHealth>,
  OnlyBackendFields<UI.SchedulerRule, Go.SchedulerRule>,
  OnlyBackendFields<UI.SchedulerSettings, Go.SchedulerSettings>,
  OnlyBackendFields<UI.Settings, Go.Settings>,
] = [true, true, true, true];
