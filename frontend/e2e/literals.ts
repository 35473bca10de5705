// Text on a page that did not come from the message catalogue, for pages
// in the pseudo-locale (en-XA), where every message is accented: any Latin
// letter left is a literal. Data is exempt by markup: values put into
// messages (between bidi isolates), elements marked translate="no", and
// elements in another language than the page's (lang="en").

import type { Page } from 'playwright-core';

/** Every text and attribute on the page not from the catalogue, with where it is. */
export async function literals(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const pageLang = document.documentElement.lang;
    const exempt = (el: Element | null): boolean => {
      if (!el) return false;
      if (el.closest('[translate="no"], script, style, svg')) return true;
      const l = el.closest('[lang]');
      return !!l && l.getAttribute('lang') !== pageLang;
    };
    // Interpolated values sit between FSI and PDI, perhaps nested.
    const strip = (s: string) => {
      let prev;
      do {
        prev = s;
        s = s.replace(/\u2068[^\u2068\u2069]*\u2069/g, '');
      } while (s !== prev);
      return s.replace(/Trove/g, '');
    };
    const where = (el: Element) => {
      const id = el.id ? `#${el.id}` : '';
      const test = el.closest('[data-testid]')?.getAttribute('data-testid');
      return `<${el.tagName.toLowerCase()}${id}>${test ? ` in ${test}` : ''}`;
    };
    const bad: string[] = [];
    const check = (text: string, el: Element, what: string) => {
      if (/[A-Za-z]/.test(strip(text))) bad.push(`${what} "${text.trim().slice(0, 80)}" ${where(el)}`);
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement!;
      if (!exempt(el) && n.textContent!.trim()) check(n.textContent!, el, 'text');
    }
    for (const el of document.body.querySelectorAll('*')) {
      if (exempt(el)) continue;
      for (const a of ['placeholder', 'title', 'aria-label', 'alt']) {
        const v = el.getAttribute(a);
        if (v) check(v, el, a);
      }
    }
    check(document.title, document.documentElement, 'document.title');
    return [...new Set(bad)];
  });
}
