import { type ComponentType, type LazyExoticComponent, lazy, Suspense, useEffect } from 'react';

/**
 * How far below the screen a part starts loading. Its code is a few KB, so it usually arrives while the visitor
 * scrolls the rest of the way; a tap that comes first is kept (below).
 */
const AHEAD = '0px 0px 200px 0px';

/**
 * Holds a part of the prerendered page back until the visitor comes near it, then lets its code load; afterwards
 * clicks again what the visitor tapped on the part's plain HTML meanwhile.
 */
type Gate = {
  opened: Promise<void>;
  open: () => void;
  /** The part's code has loaded: React can hydrate it as soon as an event needs it, and handles that event. */
  ready: () => void;
  /** Called once the part has hydrated. */
  catchUp: () => void;
};

const OPEN: Gate = { opened: Promise.resolve(), open() {}, ready() {}, catchUp() {} };

function gateFor(selector: string): Gate {
  const element = typeof document === 'undefined' ? null : document.querySelector(selector);
  // Prerendering, or rendering on the client after navigating here: nothing to wait for.
  if (!element) return OPEN;

  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  const observer = new IntersectionObserver(
    (entries) => entries.some((entry) => entry.isIntersecting) && open(),
    {
      rootMargin: AHEAD,
    },
  );
  observer.observe(element);

  // On the document, capturing: React stops the events that reach a part it cannot hydrate yet at its root. It
  // replays the pointer and focus that arrived meanwhile itself, but not a click. (src/web/boot.ts keeps taps the
  // same way until the entry hydrates; it cannot share this code without a second request before the paint.)
  let ready = false;
  const taps: HTMLButtonElement[] = [];
  const onEvent = (event: Event) => {
    if (!(event.target instanceof Element) || !element.contains(event.target)) return;
    open();
    const button = event.type === 'click' ? event.target.closest('button') : null;
    if (!ready && button?.type === 'button' && !button.disabled) taps.push(button);
  };
  const events = ['click', 'focusin', 'pointerover'];
  for (const type of events) document.addEventListener(type, onEvent, true);

  return {
    opened,
    open,
    ready() {
      ready = true;
      observer.disconnect();
    },
    catchUp() {
      for (const type of events) document.removeEventListener(type, onEvent, true);
      for (const button of taps.splice(0)) if (button.isConnected && !button.disabled) button.click();
    },
  };
}

/** A part of a page that hydrates when seen: made once per part, at module level, like a `lazy` component. */
export type PartWhenSeen = {
  gate: Gate;
  Code: LazyExoticComponent<ComponentType>;
  /** The part's component once its code is here. */
  loaded: () => ComponentType | undefined;
  /** Fetches the part's code and lets it render, ahead of showing its page (src/web/App.tsx). */
  preload: () => Promise<unknown>;
};

/**
 * A part of a prerendered page that is hydrated only when the visitor comes near it (`selector` finds its
 * prerendered HTML), so a page's first load carries the code of what is on its first screen only. Until then the
 * part is the prerendered HTML: its links work, and taps on its buttons are clicked again once it has hydrated.
 * Rendered any other way (prerendering, or after navigating to the page) it renders at once. Rendered by
 * `<WhenSeen part={…} />`. Docs/decisions/024-hydrate-below-the-fold-when-seen.md.
 */
export function partWhenSeen(selector: string, load: () => Promise<ComponentType>): PartWhenSeen {
  const gate = gateFor(selector);
  let loaded: ComponentType | undefined;
  const loadCode = async () => {
    loaded = await load();
    gate.ready();
    return loaded;
  };
  return {
    gate,
    Code: lazy(async () => {
      await gate.opened;
      return { default: await loadCode() };
    }),
    loaded: () => loaded,
    preload: () => {
      gate.open();
      return loadCode();
    },
  };
}

/** Runs once the part around it has hydrated (a sibling in the same Suspense boundary commits with it). */
function CatchUp({ gate }: { gate: Gate }) {
  useEffect(() => gate.catchUp(), [gate]);
  return null;
}

export function WhenSeen({ part }: { part: PartWhenSeen }) {
  // Leaving the page before coming near the part takes its HTML away: load its code, so the way back shows it.
  useEffect(() => () => part.gate.open(), [part]);
  // Code already here renders in place; a lazy component would suspend once even then, and show nothing meanwhile.
  const Loaded = part.loaded();
  return (
    <Suspense fallback={null}>
      {Loaded ? <Loaded /> : <part.Code />}
      <CatchUp gate={part.gate} />
    </Suspense>
  );
}
