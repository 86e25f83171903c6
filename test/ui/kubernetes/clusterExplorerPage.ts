// The Kubernetes extension's Cluster Explorer (its "Clusters" pane) as a person uses it in
// Chromium: open its activity bar item (its other panes folded, so the tree has room: rows
// outside the pane are not drawn), expand rows by their twisties (a click on a resource row
// would also open its YAML), right-click a row and read or pick from its menu.
import type { Locator, Page } from 'playwright-core';

export class ClusterExplorerPage {
  constructor(readonly page: Page) {}

  /** The tree in the Clusters pane (the container also has Helm Repos and Clouds). */
  tree(): Locator {
    return this.page.locator('.part.sidebar .pane:has(> .pane-header[aria-label="Clusters Section"]) .monaco-list[role="tree"]');
  }

  async open(): Promise<void> {
    // Its name gains " - ..." with a badge; ours is "Kubernetes Events".
    const tab = this.page.getByRole('tab', { name: /^Kubernetes($| - )/ });
    await tab.waitFor({ timeout: 60_000 });
    // A click on the container already shown would hide the side bar.
    if ((await tab.getAttribute('aria-selected')) !== 'true') await tab.click();
    for (const pane of ['Helm Repos', 'Clouds']) {
      const header = this.page.locator(`.part.sidebar .pane-header[aria-label="${pane} Section"]`);
      if ((await header.getAttribute('aria-expanded')) === 'true') await header.click();
    }
    await this.tree().locator('.monaco-list-row').first().waitFor({ timeout: 60_000 });
  }

  /** The row with exactly this label at this depth (1: the contexts). */
  row(level: number, label: string | RegExp): Locator {
    const text = typeof label === 'string' ? new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) : label;
    return this.tree()
      .locator(`.monaco-list-row[role="treeitem"][aria-level="${level}"]`)
      .filter({ has: this.page.locator('.label-name', { hasText: text }) })
      .first();
  }

  /** Folds a row (rows pushed below the pane by its children are not drawn). */
  async collapse(level: number, label: string): Promise<void> {
    const row = this.row(level, label);
    if ((await row.getAttribute('aria-expanded')) === 'true') await row.locator('.monaco-tl-twistie').click();
  }

  /**
   * Expands each row of the path but the last, and returns the last. The tree is scrolled to
   * its top first, as a person would: it keeps where it was scrolled to, and a row scrolled out
   * of the pane is not drawn.
   */
  async rowAt(...path: (string | RegExp)[]): Promise<Locator> {
    const box = await this.tree().boundingBox();
    if (box) {
      await this.page.mouse.move(box.x + box.width / 2, box.y + Math.min(box.height / 2, 40));
      await this.page.mouse.wheel(0, -100_000);
    }
    let row: Locator | undefined;
    for (const [i, label] of path.entries()) {
      row = this.row(i + 1, label);
      await row.waitFor({ timeout: 60_000 });
      if (i < path.length - 1 && (await row.getAttribute('aria-expanded')) !== 'true') await row.locator('.monaco-tl-twistie').click();
    }
    if (!row) throw new Error('an empty path');
    return row;
  }

  /** Right-clicks the row; returns the labels of its menu, which stays open. */
  async menu(row: Locator): Promise<string[]> {
    await row.click({ button: 'right' });
    const items = this.page.locator('.monaco-menu .action-item .action-label');
    await items.first().waitFor({ timeout: 10_000 });
    // It fades in (83 ms): a screenshot any sooner shows it greyed.
    await this.page.waitForTimeout(300);
    return (await items.allInnerTexts()).map((t) => t.trim()).filter(Boolean);
  }
}
