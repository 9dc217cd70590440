import { type RefObject, useEffect, useState } from 'react';

/**
 * False while React adopts the prerendered HTML, true from the first effect on. A form's submit button waits for
 * it: before hydration a click would make the browser submit the form itself (a GET carrying what was typed).
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
const isField = (element: Element): element is Field =>
  element instanceof HTMLInputElement ||
  element instanceof HTMLTextAreaElement ||
  element instanceof HTMLSelectElement;

/**
 * Prerendered pages show their fields before React hydrates them. What a visitor types in that moment is in the
 * page but not in React's state, and React wipes it at the next render. Once, right after hydration, this hands
 * every non-empty field under `ref` (a form, or a single field) to `adopt`, with its `name`.
 */
export function useKeepTypedBeforeHydration(
  ref: RefObject<HTMLElement | null>,
  adopt: (name: string, value: string) => void,
): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: it runs once, when hydration has just finished.
  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    const fields = root instanceof HTMLFormElement ? Array.from(root.elements) : [root];
    for (const field of fields) {
      if (isField(field) && field.value !== '') adopt(field.name, field.value);
    }
  }, []);
}
