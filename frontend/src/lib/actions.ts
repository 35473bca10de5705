// Opening and revealing files, with a notice either way.

import * as api from './api';
import { toast } from './toast.svelte';
import { copyText } from './clipboard';
import { t } from './i18n.svelte';

/** Opens a result's file, at page (from 1) when its hit has one. */
export async function openResult(id: number, name: string, page?: number): Promise<boolean> {
  try {
    await api.openFile(id, page);
    toast(t('actions.opened', { name }), 'ok');
    return true;
  } catch (e) {
    toast(t('actions.openFailed', { name, error: api.asApiError(e).message }), 'error');
    return false;
  }
}

export async function revealResult(id: number, name: string): Promise<boolean> {
  try {
    await api.revealFile(id);
    toast(t('actions.revealed', { name }), 'ok');
    return true;
  } catch (e) {
    toast(t('actions.revealFailed', { name, error: api.asApiError(e).message }), 'error');
    return false;
  }
}

export async function copyPath(path: string): Promise<void> {
  try {
    await copyText(path);
    toast(t('actions.copied', { path }), 'ok');
  } catch (e) {
    toast(t('actions.copyFailed', { error: (e as Error).message }), 'error');
  }
}

/** Copies paths, one a line, with one notice. */
export async function copyPaths(paths: string[]): Promise<void> {
  try {
    await copyText(paths.join('\n'));
    toast(t('actions.copiedPaths', { count: paths.length }), 'ok');
  } catch (e) {
    toast(t('actions.copyFailed', { error: (e as Error).message }), 'error');
  }
}

/**
 * Opens or reveals files one after another through the per-file endpoints,
 * with one notice for all of them: how many, or how many failed and why
 * (the first reason).
 */
export async function openAll(files: { id: number }[], how: 'open' | 'reveal'): Promise<number> {
  const call = how === 'open' ? api.openFile : api.revealFile;
  let failed = 0;
  let error = '';
  for (const f of files) {
    try {
      await call(f.id);
    } catch (e) {
      failed++;
      error ||= api.asApiError(e).message;
    }
  }
  const count = files.length;
  if (failed) toast(t('actions.someFailed', { failed, count, error }), 'error');
  else toast(t(how === 'open' ? 'actions.openedMany' : 'actions.revealedMany', { count }), 'ok');
  return count - failed;
}
