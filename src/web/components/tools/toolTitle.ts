import type { Tool } from '../../../shared/shop';

/** The name as the catalogue shows it: the device in brackets when there is one ('PDF Utility Toolkit (Windows)'). */
export function toolTitle(tool: Pick<Tool, 'name' | 'device'>): string {
  return tool.device ? `${tool.name} (${tool.device})` : tool.name;
}
