import { describe, expect, it } from 'vitest';
import { fitPath, middleEllipsis } from './pathfit';

describe('middleEllipsis', () => {
  const deb = '/usr/share/doc/base-files';

  it('leaves a path that fits as it is', () => {
    expect(middleEllipsis(deb, deb.length)).toBe(deb);
    expect(middleEllipsis('/a', 10)).toBe('/a');
  });

  it('keeps the end of the path whole and the start, losing the middle', () => {
    const p = '/usr/share/doc/libreoffice-common/examples/base-files';
    const out = middleEllipsis(p, 30);
    expect(out.length).toBeLessThanOrEqual(30);
    expect(out).toMatch(/…\/examples\/base-files$/);
    expect(out.startsWith('/usr/')).toBe(true);
  });

  it('is never longer than asked, at every size', () => {
    const p = '/home/ana/Projects/2026/customer-reports/quarterly/drafts';
    for (let max = 0; max <= p.length + 2; max++) {
      const out = middleEllipsis(p, max);
      expect(out.length, `max ${max}: ${out}`).toBeLessThanOrEqual(max);
      if (max >= p.length) expect(out).toBe(p);
      else if (max > 0) expect(out).toContain('…');
    }
  });

  it('keeps the end of a last folder longer than the room', () => {
    expect(middleEllipsis('/srv/an-extremely-long-folder-name-indeed', 12)).toBe('…name-indeed');
  });

  it('cuts the start after a separator when one is near', () => {
    expect(middleEllipsis('/usr/share/doc/packages/base-files', 28)).toBe('/usr/…/packages/base-files');
    expect(middleEllipsis('/usr/share/doc/packages/base-files', 24)).toBe('/usr/share/…/base-files');
    expect(middleEllipsis('/usr/share/doc/packages/base-files', 16)).toBe('/usr…/base-files');
  });

  it('reads Windows paths by their backslashes', () => {
    const out = middleEllipsis('C:\\Users\\ana\\Documents\\Reports\\2026', 20);
    expect(out.length).toBeLessThanOrEqual(20);
    expect(out).toMatch(/…\\Reports\\2026$/);
  });
});

describe('fitPath', () => {
  // Every character 7 units wide (a monospace font).
  const mono = (s: string) => s.length * 7;

  it('shows the whole path when it fits', () => {
    expect(fitPath('/usr/share/doc/base-files', 1000, mono)).toBe('/usr/share/doc/base-files');
  });

  it('finds the longest shortened path that fits', () => {
    const p = '/usr/share/doc/libreoffice-common/examples/base-files';
    const out = fitPath(p, 7 * 30, mono);
    expect(out).toBe(middleEllipsis(p, 30));
    expect(mono(out)).toBeLessThanOrEqual(7 * 30);
  });

  it('fits wide characters by their width, not their count', () => {
    const wide = (s: string) => [...s].reduce((w, c) => w + (c.charCodeAt(0) > 0x2e80 ? 14 : 7), 0);
    const p = '/home/ana/文档/报告/二〇二六年/季度';
    const out = fitPath(p, 7 * 16, wide);
    expect(wide(out)).toBeLessThanOrEqual(7 * 16);
    expect(out).toContain('…');
    expect(out.endsWith('季度')).toBe(true);
  });
});
