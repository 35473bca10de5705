// openapi.d.ts is what the API's OpenAPI document says today: after an
// API change, `make openapi` (or `npm run openapi`) regenerates it, and
// api.check.ts then holds the UI's own shapes to it.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

describe('openapi.d.ts', () => {
  it('is generated from the current OpenAPI document', async () => {
    const doc = JSON.parse(readFileSync(here('../../../backend/shell/apidoc/openapi.json'), 'utf8'));
    const want = astToString(await openapiTS(doc));
    const got = readFileSync(here('./openapi.d.ts'), 'utf8');
    // The command line adds a header; compare the types themselves.
    expect(got.endsWith(want) || got.includes(want.trim())).toBe(true);
  }, 60_000);
});
