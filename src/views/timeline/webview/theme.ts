// The theme's colours and font for the canvas, read from the CSS variables VS Code sets on
// the webview's root, and read again when the theme changes (VS Code rewrites those
// variables and the body's class).

export interface Theme {
  readonly background: string;
  readonly foreground: string;
  readonly dim: string;
  readonly grid: string;
  readonly normal: string;
  readonly warning: string;
  readonly focus: string;
  readonly selection: string;
  readonly scrollbar: string;
  readonly contrastBorder: string | undefined;
  readonly fontFamily: string;
  readonly fontSize: number;
}

function read(style: CSSStyleDeclaration, names: string[], fallback: string): string {
  for (const n of names) {
    const v = style.getPropertyValue(n).trim();
    if (v) return v;
  }
  return fallback;
}

export function readTheme(): Theme {
  const style = getComputedStyle(document.documentElement);
  const dark = !document.body.classList.contains('vscode-light');
  const size = parseFloat(read(style, ['--vscode-font-size'], '13'));
  return {
    background: read(style, ['--vscode-editor-background'], dark ? '#1e1e1e' : '#ffffff'),
    foreground: read(style, ['--vscode-editor-foreground', '--vscode-foreground'], dark ? '#cccccc' : '#333333'),
    dim: read(style, ['--vscode-descriptionForeground'], dark ? '#9d9d9d' : '#717171'),
    grid: read(style, ['--vscode-charts-lines', '--vscode-editorRuler-foreground'], dark ? '#5a5a5a' : '#c8c8c8'),
    normal: read(style, ['--vscode-charts-blue', '--vscode-textLink-foreground'], dark ? '#3794ff' : '#1a85ff'),
    // The tree draws objects with live warnings in list.warningForeground: the same colour here.
    warning: read(style, ['--vscode-list-warningForeground', '--vscode-editorWarning-foreground'], dark ? '#cca700' : '#bf8803'),
    focus: read(style, ['--vscode-focusBorder'], dark ? '#007fd4' : '#0090f1'),
    selection: read(style, ['--vscode-list-inactiveSelectionBackground', '--vscode-list-hoverBackground'], dark ? '#37373d' : '#e4e6f1'),
    scrollbar: read(style, ['--vscode-scrollbarSlider-background'], dark ? 'rgba(121,121,121,0.4)' : 'rgba(100,100,100,0.4)'),
    contrastBorder: read(style, ['--vscode-contrastBorder'], '') || undefined,
    fontFamily: read(style, ['--vscode-font-family'], 'system-ui, sans-serif'),
    fontSize: Number.isFinite(size) && size > 6 ? size : 13,
  };
}

/** Calls back when VS Code changes the theme (the root's variables or the body's theme class). */
export function onThemeChange(callback: () => void): void {
  const observer = new MutationObserver(() => callback());
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['style', 'class'] });
  observer.observe(document.body, { attributes: true, attributeFilter: ['class', 'data-vscode-theme-id'] });
}
