import type { MouseEvent, ReactNode } from 'react';
import { SCROLL_OFFSETS } from '../../../shared/constants';
import type { SectionId } from '../../content/home';
import { scrollToSection } from './scroll';

type SectionLinkProps = { section: SectionId; className?: string; children: ReactNode };

/**
 * A real `<a href="#section">`, so it works before JavaScript loads and opens in a new tab when asked; a plain
 * click scrolls smoothly with the documented offset for that section instead of the browser's jump.
 */
export function SectionLink({ section, className, children }: SectionLinkProps) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    scrollToSection(section, SCROLL_OFFSETS[section]);
  };
  return (
    <a href={`#${section}`} onClick={onClick} className={className}>
      {children}
    </a>
  );
}
