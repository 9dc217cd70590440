import { MessageCircle } from 'lucide';
import { chatLink, SITE } from '../../shared/site';
import { Icon } from './Icon';

/**
 * Floating chat button (docs/product.md §1): opens WhatsApp in a new tab with a prefilled, URL-encoded
 * message.
 */
export function ChatButton({ message = SITE.chat.defaultMessage }: { message?: string }) {
  return (
    <a
      href={chatLink(message)}
      target="_blank"
      rel="noopener noreferrer"
      aria-label="Chat with us on WhatsApp (opens in a new tab)"
      className="fixed right-5 bottom-5 z-40 inline-flex size-14 items-center justify-center rounded-full bg-[#128c4b] text-white shadow-lg shadow-slate-900/20 transition hover:scale-105 hover:bg-[#0f7a41] focus-visible:outline-offset-4"
    >
      <Icon node={MessageCircle} className="size-7" />
    </a>
  );
}
