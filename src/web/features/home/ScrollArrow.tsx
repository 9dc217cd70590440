import { ChevronDown } from 'lucide';
import { Icon } from '../../components/Icon';
import { scrollToSection } from './scroll';

type ScrollArrowProps = {
  /** Id of the section to scroll to. */
  target: string;
  /** Added to the section's top: negative stops above it. */
  offset: number;
  /** Accessible name, e.g. "Scroll to About". */
  label: string;
  tone?: 'light' | 'dark';
};

/**
 * The bouncing down arrow between sections (docs/product.md §2). It bounces only when motion is welcome, and
 * only for four seconds: anything that moves longer would need a pause control (WCAG 2.2.2).
 */
export function ScrollArrow({ target, offset, label, tone = 'light' }: ScrollArrowProps) {
  const colours =
    tone === 'dark'
      ? 'border-white/30 bg-white/10 text-white hover:bg-white/20'
      : 'border-brand-200 bg-white text-brand-700 shadow-sm hover:border-brand-300 hover:text-brand-900';
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      onClick={() => scrollToSection(target, offset)}
      className={`inline-flex size-12 cursor-pointer items-center justify-center rounded-full border transition-colors motion-safe:animate-bounce motion-safe:[animation-iteration-count:4] ${colours}`}
    >
      <Icon node={ChevronDown} className="size-6" />
    </button>
  );
}
