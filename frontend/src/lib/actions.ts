// Opening and revealing files, with a notice either way.

import * as api from './api';
import { toast } from './toast.svelte';
import { copyText } from './clipboard';
import { t } from './i18n.svelte';

export async function openResult(id: number, name: string): Promise<boolean> {
  try {
    await api.openFile(id);
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
