// The timeline panel as a person sees it in Chromium: its webview (nested iframes), the
// header's words, the tooltip, and the marks found by their colour on the canvas, where a
// pointer can rest on them or click them.
import type { FrameLocator, Page } from 'playwright-core';

/** A mark as drawn: its centre in page coordinates and how many pixels of its colour it has. */
export interface DrawnMark {
  readonly x: number;
  readonly y: number;
  readonly pixels: number;
}

export class TimelinePage {
  constructor(readonly page: Page) {}

  /** The panel's content: VS Code puts a webview in an iframe holding the active frame. */
  frame(): FrameLocator {
    return this.page.frameLocator('iframe.webview.ready').last().frameLocator('#active-frame');
  }

  tab(title: string | RegExp) {
    return this.page.locator('.editor-group-container .tab', { hasText: title }).first();
  }

  /**
   * Closes the panel by its tab's close button. A key pressed while the webview has the focus
   * reaches the workbench only through the webview's forwarding, so a shortcut can miss.
   */
  async close(title: string | RegExp): Promise<void> {
    const tab = this.tab(title);
    await tab.hover();
    await tab.locator('.tab-actions .action-label').first().click();
    await tab.waitFor({ state: 'detached', timeout: 15_000 });
  }

  async summary(): Promise<string> {
    return (await this.frame().locator('#summary').textContent()) ?? '';
  }

  async scope(): Promise<string> {
    return (await this.frame().locator('#scope').textContent()) ?? '';
  }

  async filter(): Promise<string> {
    return (await this.frame().locator('#filter').textContent()) ?? '';
  }

  /** "3 lanes · 12 events · 4 live warnings" → {lanes: 3, events: 12, warnings: 4}. */
  async counts(): Promise<{ lanes: number; events: number; warnings: number }> {
    const m = /^(\d+) lanes? · (\d+) events? · (\d+) live warnings?/.exec(await this.summary());
    return m ? { lanes: Number(m[1]), events: Number(m[2]), warnings: Number(m[3]) } : { lanes: -1, events: -1, warnings: -1 };
  }

  /**
   * The lowest point drawn in a theme variable's colour right of the lane labels, in page
   * coordinates: with one lane, a point on that lane's marks (the rate strip above is the
   * same colour), however the marks overlap.
   */
  async lowestOf(colourVariable: string): Promise<{ x: number; y: number } | undefined> {
    const canvas = this.frame().locator('#canvas');
    const box = await canvas.boundingBox();
    if (!box) throw new Error('the timeline canvas is not on screen');
    const found = await canvas.evaluate((c: HTMLCanvasElement, variable: string) => {
      const value = getComputedStyle(document.documentElement).getPropertyValue(variable).trim();
      const probe = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
      const ctx = c.getContext('2d');
      if (!probe || !ctx || !value) return undefined;
      probe.fillStyle = value;
      probe.fillRect(0, 0, 1, 1);
      const [r, g, b] = probe.getImageData(0, 0, 1, 1).data;
      const { width, height } = c;
      const data = ctx.getImageData(0, 0, width, height).data;
      const dpr = width / c.clientWidth;
      const labels = Math.min(300, Math.max(130, c.clientWidth * 0.22)) * dpr;
      for (let y = height - 1; y >= 0; y--) {
        for (let x = Math.ceil(labels); x < width; x++) {
          const i = (y * width + x) * 4;
          if (Math.abs(data[i] - r) <= 2 && Math.abs(data[i + 1] - g) <= 2 && Math.abs(data[i + 2] - b) <= 2) return { x: x / dpr, y: y / dpr };
        }
      }
      return undefined;
    }, colourVariable);
    return found && { x: box.x + found.x, y: box.y + found.y - 1 };
  }

  /**
   * Marks drawn in the colour of a theme variable: blobs of that exact colour on the canvas,
   * round (as wide as high, mostly filled) and right of the lane labels, so the strip's
   * translucent bars and the label column's text are not taken for marks. History marks are
   * drawn translucent and are not found this way.
   */
  async marks(colourVariable: string): Promise<DrawnMark[]> {
    const canvas = this.frame().locator('#canvas');
    const box = await canvas.boundingBox();
    if (!box) throw new Error('the timeline canvas is not on screen');
    const found = await canvas.evaluate((c: HTMLCanvasElement, variable: string) => {
      const value = getComputedStyle(document.documentElement).getPropertyValue(variable).trim();
      const probe = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
      if (!probe || !value) return [];
      probe.fillStyle = value;
      probe.fillRect(0, 0, 1, 1);
      const [r, g, b] = probe.getImageData(0, 0, 1, 1).data;
      const ctx = c.getContext('2d');
      if (!ctx) return [];
      const { width, height } = c;
      const data = ctx.getImageData(0, 0, width, height).data;
      const dpr = width / c.clientWidth;
      const labels = Math.min(300, Math.max(130, c.clientWidth * 0.22)) * dpr;
      const match = new Uint8Array(width * height);
      for (let i = 0; i < width * height; i++) {
        if (Math.abs(data[i * 4] - r) <= 2 && Math.abs(data[i * 4 + 1] - g) <= 2 && Math.abs(data[i * 4 + 2] - b) <= 2) match[i] = 1;
      }
      const blobs: { x: number; y: number; pixels: number }[] = [];
      const stack: number[] = [];
      for (let start = 0; start < match.length; start++) {
        if (match[start] !== 1) continue;
        let n = 0;
        let sx = 0;
        let sy = 0;
        let x0 = width;
        let x1 = 0;
        let y0 = height;
        let y1 = 0;
        stack.push(start);
        match[start] = 2;
        while (stack.length) {
          const p = stack.pop() as number;
          const x = p % width;
          const y = (p - x) / width;
          n++;
          sx += x;
          sy += y;
          x0 = Math.min(x0, x);
          x1 = Math.max(x1, x);
          y0 = Math.min(y0, y);
          y1 = Math.max(y1, y);
          for (const q of [p - 1, p + 1, p - width, p + width]) {
            if (q >= 0 && q < match.length && match[q] === 1 && Math.abs((q % width) - x) <= 1) {
              match[q] = 2;
              stack.push(q);
            }
          }
        }
        const w = x1 - x0 + 1;
        const h = y1 - y0 + 1;
        if (n >= 6 && Math.abs(w - h) <= 2 * dpr && n / (w * h) >= 0.55 && x0 > labels) blobs.push({ x: sx / n / dpr, y: sy / n / dpr, pixels: n });
      }
      return blobs;
    }, colourVariable);
    return found.map((m) => ({ x: box.x + m.x, y: box.y + m.y, pixels: m.pixels }));
  }

  /** Rests the pointer on a mark until the tooltip shows; returns its text, its links and its markup. */
  async hover(mark: DrawnMark): Promise<{ text: string; links: number; html: string }> {
    const tooltip = this.frame().locator('#tooltip');
    for (let attempt = 0; ; attempt++) {
      await this.page.mouse.move(mark.x - 20, mark.y - 20);
      await this.page.mouse.move(mark.x, mark.y, { steps: 4 });
      try {
        await tooltip.waitFor({ state: 'visible', timeout: 5_000 });
        break;
      } catch (e) {
        if (attempt >= 2) throw e;
      }
    }
    return {
      text: (await tooltip.textContent()) ?? '',
      links: await tooltip.locator('a, [href], [data-href], img').count(),
      html: await tooltip.innerHTML(),
    };
  }
}
