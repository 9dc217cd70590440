import type { PurchasedTool } from '../../../shared/shop';
import { announce } from '../../lib/announce';

/**
 * Arriving on My Tools from an accepted team invitation (history state `seatOf`, TeamInvitation.tsx): the new
 * tool's card takes focus and is named. Loaded only then, so that My Tools does not carry it for everyone.
 */
export function greetSeat(tools: PurchasedTool[], seatOf: unknown) {
  const tool = tools.find((candidate) => candidate._id === seatOf);
  if (!tool) return;
  window.history.replaceState(null, '');
  const heading = document.querySelector<HTMLElement>(`[data-tool-card="${CSS.escape(tool._id)}"] h3`);
  if (!heading) return;
  heading.tabIndex = -1;
  heading.focus();
  announce(
    `${heading.textContent} is in your tools now${tool.teamOwner ? `: a seat from ${tool.teamOwner.name}'s team` : ''}.`,
  );
}
