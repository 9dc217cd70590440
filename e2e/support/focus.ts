import { expect, type Page } from '@playwright/test';

/** What the focused element shows: its name, and its focus indicator's width and contrast with what is around it. */
export type FocusReport = {
  tag: string;
  name: string;
  visible: boolean;
  indicatorPx: number;
  contrast: number;
  /** The colours compared, for a failure's message. */
  colours: string;
};

/**
 * Reads the focused element in the page: its accessible name (aria-label, aria-labelledby, label, text), whether it
 * is on screen, and its focus indicator — a solid outline or a box-shadow ring — with the lower of two contrasts:
 * against the control's own background and against the background around it. Colours are resolved through a
 * canvas, so any CSS colour syntax (oklch, lab, rgba) is compared in sRGB, translucency blended.
 */
export function readFocus(page: Page): Promise<FocusReport | null> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body || element === document.documentElement) return null;
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 1;
    const context = canvas.getContext('2d', { willReadFrequently: true }) as CanvasRenderingContext2D;
    const rgba = (color: string): [number, number, number, number] => {
      context.clearRect(0, 0, 1, 1);
      context.fillStyle = '#000';
      context.fillStyle = color;
      context.fillRect(0, 0, 1, 1);
      const [r, g, b, a] = context.getImageData(0, 0, 1, 1).data as unknown as number[];
      return [r ?? 0, g ?? 0, b ?? 0, (a ?? 0) / 255];
    };
    const over = (top: number[], bottom: number[]) =>
      [0, 1, 2].map((i) => (top[i] ?? 0) * (top[3] ?? 1) + (bottom[i] ?? 0) * (1 - (top[3] ?? 1)));
    /** The opaque colour behind `node`: its own background blended over its ancestors'. */
    const backgroundOf = (node: Element | null): number[] => {
      const layers: number[][] = [];
      for (let current = node; current; current = current.parentElement) {
        const color = rgba(getComputedStyle(current).backgroundColor);
        if ((color[3] ?? 0) > 0) layers.push(color);
        if ((color[3] ?? 0) >= 1) break;
      }
      return layers.reduceRight<number[]>((below, layer) => over(layer, below), [255, 255, 255]);
    };
    const luminance = (rgb: number[]) => {
      const [r, g, b] = rgb.map((c) => {
        const v = c / 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
      }) as [number, number, number];
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const ratio = (a: number[], b: number[]) => {
      const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
      return (light + 0.05) / (dark + 0.05);
    };

    const style = getComputedStyle(element);
    const around = backgroundOf(element.parentElement);
    const own = backgroundOf(element);
    let indicatorPx = 0;
    let indicatorColor: number[] | null = null;
    if (style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0) {
      indicatorPx = Number.parseFloat(style.outlineWidth);
      indicatorColor = rgba(style.outlineColor);
    } else if (style.boxShadow && style.boxShadow !== 'none') {
      // A ring drawn as box-shadow: "color 0 0 0 Npx", the spread is the ring's width.
      const ring =
        /(rgba?\([^)]*\)|oklch\([^)]*\)|lab\([^)]*\)|#[0-9a-f]+)\s+0px\s+0px\s+0px\s+([\d.]+)px/i.exec(
          style.boxShadow,
        );
      if (ring) {
        indicatorPx = Number.parseFloat(ring[2] ?? '0');
        indicatorColor = rgba(ring[1] ?? '');
      }
    }
    const blended = indicatorColor ? over(indicatorColor, around) : around;
    const contrast = indicatorColor
      ? Math.min(ratio(blended, around), ratio(over(indicatorColor, own), own))
      : 0;

    /** Text as a screen reader reads it: what is hidden from it (icons, decorative symbols, asterisks) left out. */
    const textOf = (node: Element) => {
      const clone = node.cloneNode(true) as Element;
      for (const hidden of clone.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
      return clone.textContent ?? '';
    };
    const labelledBy = element.getAttribute('aria-labelledby');
    const name =
      element.getAttribute('aria-label') ||
      (labelledBy
        ? labelledBy
            .split(' ')
            .map((id) => {
              const labeller = document.getElementById(id);
              return labeller ? textOf(labeller) : '';
            })
            .join(' ')
        : '') ||
      [...((element as HTMLInputElement).labels ?? [])].map(textOf).join(' ') ||
      textOf(element) ||
      element.getAttribute('title') ||
      '';
    const box = element.getBoundingClientRect();
    const visible =
      box.width > 1 &&
      box.height > 1 &&
      style.visibility !== 'hidden' &&
      box.bottom > 0 &&
      box.top < window.innerHeight &&
      box.right > 0 &&
      box.left < window.innerWidth;
    return {
      tag: element.tagName.toLowerCase(),
      name: name.replace(/\s+/g, ' ').trim(),
      visible,
      indicatorPx,
      contrast: Math.round(contrast * 100) / 100,
      colours: `indicator ${indicatorColor?.join(',')} (${style.outlineColor} ${style.outlineStyle} offset ${style.outlineOffset}; shadow ${style.boxShadow}) own ${own.map(Math.round).join(',')} around ${around.map(Math.round).join(',')}`,
    };
  });
}

/**
 * Focus is on a visible, named control (never the page body) whose focus indicator is at least 2 px wide with at
 * least 3:1 contrast (WCAG 2.4.7, 2.4.13); `name` checks which control it is.
 */
export async function expectVisibleFocus(
  page: Page,
  step: string,
  name?: string | RegExp,
): Promise<FocusReport> {
  let report: FocusReport | null = null;
  // Polled: a control's colours may still be in their 150 ms transition when focus arrives.
  await expect
    .poll(
      async () => {
        report = await readFocus(page);
        // The control named too, when a step names one: focus may pass through another on its way (a dialog
        // closing gives it back to its opener, then the page moves it on in the next task).
        const named =
          name === undefined ||
          (typeof name === 'string' ? report?.name === name : name.test(report?.name ?? ''));
        return Boolean(
          named && report?.visible && report.name !== '' && report.indicatorPx >= 2 && report.contrast >= 3,
        );
      },
      { message: `${step}: focus on a visible, named control with a 2 px, 3:1 indicator`, timeout: 5_000 },
    )
    .toBe(true)
    .catch(() => undefined);
  const found = report as FocusReport | null;
  expect(found, `${step}: focus is on a control, not the page body`).not.toBeNull();
  if (!found) throw new Error('unreachable');
  expect(found.visible, `${step}: ${found.name} is on screen`).toBe(true);
  expect(found.name, `${step}: the focused ${found.tag} has a name`).not.toBe('');
  if (name !== undefined) {
    if (typeof name === 'string') expect(found.name, step).toBe(name);
    else expect(found.name, step).toMatch(name);
  }
  expect(found.indicatorPx, `${step}: focus indicator width (${found.name})`).toBeGreaterThanOrEqual(2);
  expect(
    found.contrast,
    `${step}: focus indicator contrast (${found.name}: ${found.colours})`,
  ).toBeGreaterThanOrEqual(3);
  return found;
}

/** Presses Tab (or Shift+Tab) until the named control has focus; focus never falls to the page body on the way. */
export async function tabTo(page: Page, name: string | RegExp, { back = false, max = 40 } = {}) {
  const matches = (text: string) => (typeof name === 'string' ? text === name : name.test(text));
  for (let presses = 0; presses < max; presses++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const focused = await readFocus(page);
    const where = focused
      ? ''
      : await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 200) ?? 'none');
    expect(
      focused,
      `focus after ${back ? 'Shift+Tab' : 'Tab'} looking for ${name}, press ${presses + 1} (on ${where})`,
    ).not.toBeNull();
    if (focused && matches(focused.name)) return expectVisibleFocus(page, `Tab to ${name}`, name);
  }
  throw new Error(`${name} not reached with ${max} presses`);
}
