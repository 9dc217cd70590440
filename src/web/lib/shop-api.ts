import type { LocationResponse } from '../../shared/currency';
import type { Tool } from '../../shared/shop';
import { api } from './api';

/**
 * The shop's public reads that more than one feature makes (docs/product.md §7): the catalogue's tools, which the
 * catalogue lists and "Add seats" prices, and where the visitor is, which picks the currency both start in.
 */
export const shopApi = {
  tools: () => api.get<Tool[]>('/api/alltools/'),
  location: () => api.get<LocationResponse>('/api/get-location/'),
};
