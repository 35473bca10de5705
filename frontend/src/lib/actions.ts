// Opening and revealing files, with a notice either way.

import * as api from './api';
import { toast } from './toast.svelte';
import { copyText } from './clipboard';

export async function openResult(id: number, name: string): Promise<boolean> {
  try {
    await api.openFile(id);
    toast(`Opened ${name}`, 'ok');
    return true;
  } catch (e) {
    toast(`Could not open ${name}: ${api.asApiError(e).message}`, 'error');
    return false;
  }
}

export async function revealResult(id: number, name: string): Promise<boolean> {
  try {
    await api.revealFile(id);
    toast(`Showing ${name} in its folder`, 'ok');
    return true;
  } catch (e) {
    toast(`Could not show ${name}: ${api.asApiError(e).message}`, 'error');
    return false;
  }
}

export async function copyPath(path: string): Promise<void> {
  try {
    await copyText(path);
    toast(`Copied ${path}`, 'ok');
  } catch (e) {
    toast(`Could not copy the path: ${(e as Error).message}`, 'error');
  }
}
