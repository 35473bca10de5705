// WCAG 2.x contrast of every visible text on a page, measured in the
// browser: each element with its own text against the background it is
// painted on (its ancestors' backgrounds composed, alpha included).

import type { Page } from 'playwright-core';

export interface ContrastFailure {
  text: string;
  ratio: number;
  need: number;
  color: string;
  background: string;
  where: string;
}

/** Returns the texts under WCAG AA (4.5:1, or 3:1 for large text). */
export async function contrastFailures(page: Page): Promise<ContrastFailure[]> {
  return page.evaluate(() => {
    type RGBA = [number, number, number, number];
    const probe = document.createElement('canvas').getContext('2d')!;
    // Any CSS color (rgb, color(srgb), oklch, color-mix results) to RGBA
    // through a canvas, which resolves them all.
    const parse = (c: string): RGBA => {
      probe.clearRect(0, 0, 1, 1);
      probe.fillStyle = '#000';
      probe.fillStyle = c;
      probe.fillRect(0, 0, 1, 1);
      const d = probe.getImageData(0, 0, 1, 1).data;
      return [d[0], d[1], d[2], d[3] / 255];
    };
    probe.canvas.width = probe.canvas.height = 1;
    const over = (top: RGBA, under: RGBA): RGBA => {
      const a = top[3] + under[3] * (1 - top[3]);
      if (a === 0) return [0, 0, 0, 0];
      const mix = (i: number) => (top[i] * top[3] + under[i] * under[3] * (1 - top[3])) / a;
      return [mix(0), mix(1), mix(2), a];
    };
    const lum = (c: RGBA) => {
      const ch = (v: number) => {
        const s = v / 255;
        return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * ch(c[0]) + 0.7152 * ch(c[1]) + 0.0722 * ch(c[2]);
    };
    const background = (el: Element | null): RGBA => {
      const layers: RGBA[] = [];
      for (let e = el; e; e = e.parentElement) {
        const bg = parse(getComputedStyle(e).backgroundColor);
        if (bg[3] > 0) layers.push(bg);
        if (bg[3] >= 1) break;
      }
      let out: RGBA = parse(getComputedStyle(document.documentElement).backgroundColor);
      if (out[3] < 1) out = over(out, [255, 255, 255, 1]);
      for (let i = layers.length - 1; i >= 0; i--) out = over(layers[i], out);
      return out;
    };
    const fails: {
      text: string;
      ratio: number;
      need: number;
      color: string;
      background: string;
      where: string;
    }[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const seen = new Set<Element>();
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || seen.has(el) || !n.textContent?.trim()) continue;
      seen.add(el);
      const st = getComputedStyle(el);
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || st.visibility === 'hidden' || el.closest('[aria-hidden="true"], .sr-only')) continue;
      if (el.closest('button:disabled, input:disabled')) continue; // WCAG exempts inactive controls
      let opacity = 1;
      for (let e: Element | null = el; e; e = e.parentElement) opacity *= Number(getComputedStyle(e).opacity);
      if (opacity === 0) continue;
      const bg = background(el);
      const fg = over([...parse(st.color).slice(0, 3), parse(st.color)[3] * opacity] as RGBA, bg);
      const [a, b] = [lum(fg), lum(bg)];
      const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      const size = parseFloat(st.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(st.fontWeight) >= 700);
      const need = large ? 3 : 4.5;
      if (ratio < need - 0.005) {
        fails.push({
          text: n.textContent.trim().slice(0, 40),
          ratio: Math.round(ratio * 100) / 100,
          need,
          color: st.color,
          background: `rgb(${bg.slice(0, 3).map(Math.round).join(' ')})`,
          where: el.tagName.toLowerCase() + (el.className && typeof el.className === 'string' ? '.' + el.className.split(' ').join('.') : ''),
        });
      }
    }
    return fails;
  });
}
