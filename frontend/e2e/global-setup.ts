// One real Trove server for the browser tests, with a folder of real files
// ready to be added by the tests.

import type { TestProject } from 'vitest/node';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startServer } from './server';
import { writeFixtures } from './fixtures';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    filesDir: string;
    fileCount: number;
  }
}

export default async function setup(project: TestProject) {
  const server = await startServer();
  const filesDir = join(server.dir, 'Documents');
  mkdirSync(filesDir, { recursive: true });
  const fileCount = writeFixtures(filesDir, { pipe: true });
  project.provide('baseURL', server.url);
  project.provide('filesDir', filesDir);
  project.provide('fileCount', fileCount);
  console.log(`Trove under test at ${server.url} (files in ${filesDir})`);
  return async () => {
    await server.stop();
  };
}
