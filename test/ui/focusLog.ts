// Where the focus goes in the workbench, and when a quick input shows or hides: what a test
// of a quick input that closed by itself reports.
import type { Page } from 'playwright-core';

/** Notes, in the page, where the focus goes and when the quick input shows or hides. */
export async function watchFocus(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { kevFocus: [number, string][] };
    w.kevFocus = [];
    const name = (el: Element | null) => {
      if (!el) return 'nothing';
      const part = el.closest('[id^="workbench.parts"], .quick-input-widget, .monaco-menu-container, .context-view, .monaco-hover');
      return `${el.tagName.toLowerCase()}.${String(el.className).split(' ').slice(0, 2).join('.')} in ${part ? part.id || String(part.className).split(' ')[0] : 'page'}`;
    };
    // Each focus() outside the quick input is noted with its caller, then goes on as before.
    const focus = (Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'focus') as PropertyDescriptor).value as (this: HTMLElement, o?: FocusOptions) => void;
    HTMLElement.prototype.focus = function (this: HTMLElement, ...args: [FocusOptions?]) {
      if (!this.closest('.quick-input-widget')) w.kevFocus.push([Date.now(), `focus() on ${name(this)} from ${(new Error().stack ?? '').split('\n').slice(2, 12).map((l) => l.trim().replace(/\(.*\)/, '').replace(/^at /, '')).join(' < ')}`]);
      return focus.apply(this, args);
    };
    document.addEventListener('focusin', (e) => w.kevFocus.push([Date.now(), `focus ${name(e.target as Element)}`]), true);
    // The widget is made when the first quick input opens: looked for each time.
    let shown = false;
    setInterval(() => {
      const widget = document.querySelector<HTMLElement>('.quick-input-widget');
      const now = !!widget && widget.style.display !== 'none' && widget.offsetParent !== null;
      if (now !== shown) w.kevFocus.push([Date.now(), `quick input ${now ? 'shown' : 'hidden'}`]);
      shown = now;
    }, 20);
  });
}

export async function focusSince(page: Page, since: number): Promise<string> {
  const log = await page.evaluate(() => (window as unknown as { kevFocus: [number, string][] }).kevFocus);
  return log.filter(([t]) => t >= since - 200).map(([t, what]) => `+${t - since} ms ${what}`).join(', ');
}
