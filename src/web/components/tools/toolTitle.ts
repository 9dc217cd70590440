import type { Tool } from '../../../shared/shop';

/** The name as the catalogue shows it: the device in brackets when there is one ('PDF Utility Toolkit (Windows)'). */
export function toolTitle(tool: Pick<Tool, 'name' | 'device'>): string {
  return tool.device ? `${tool.name} (${tool.device})` : tool.name;
}

/**
 * The accessible name of a tool's "Get Credentials": one name, with the tool, whichever card shows it and while it
 * is sending (the spinner and 'Sending...' show that; the toast says what happened), so each card's button is told
 * apart from the others' (issue 63).
 */
export const getCredentialsName = (tool: Pick<Tool, 'name' | 'device'>) =>
  `Get Credentials for ${toolTitle(tool)}`;

/**
 * The accessible name of a card's repeated button: its visible words first, as docs/product.md fixes them, then
 * the tool, so 'Try free for 14 days' on one card is told apart from the next card's (issue 63).
 */
export const withToolName = (words: string, tool: Pick<Tool, 'name' | 'device'>) =>
  `${words}: ${toolTitle(tool)}`;
