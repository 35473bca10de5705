// Compile-time checks (svelte-check) that the UI's hand-written shapes in
// types.ts fit what the backend sends, as generated into events.ts: no UI
// field the backend does not send, and every shared field of a type the
// backend's value satisfies where the UI narrows it (a union of strings
// for a string is allowed). Nothing here runs.
import type * as Go from './events';
import type * as UI from './types';

type Fits<U, G> = [Exclude<keyof U, keyof G>] extends [never]
  ? { [K in keyof U & keyof G]: [NonNullable<U[K]>] extends [NonNullable<G[K]>] ? true : K }[keyof U & keyof G] extends true
    ? true
    : { [K in keyof U & keyof G]: [NonNullable<U[K]>] extends [NonNullable<G[K]>] ? never : K }[keyof U & keyof G]
  : Exclude<keyof U, keyof G>;

export const uiShapesFitTheBackend: [
  Fits<UI.EmbeddingHealth, Go.EmbeddingHealth>,
  Fits<UI.QueueStatus, Go.QueueStatus>,
  Fits<UI.Settings['queue'], Go.QueueSettings>,
  Fits<UI.Settings['embedding'], Go.EmbeddingSettings>,
  Fits<UI.Settings['summarizer'], Go.SummarizerSettings>,
  Fits<UI.Settings['extraction'], Go.ExtractionSettings>,
  Fits<UI.Settings, Go.Settings>,
] = [true, true, true, true, true, true, true];
