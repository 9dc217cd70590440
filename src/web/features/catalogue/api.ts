import type { z } from 'zod';
import type { startTrialSchema } from '../../../shared/shop-schemas';
import type { StartTrialResponse } from '../../../shared/trials';
import { api } from '../../lib/api';

/** The catalogue's own call (its tools and the visitor's location are read through lib/shop-api.ts). */
export const catalogueApi = {
  startTrial: (body: z.input<typeof startTrialSchema>) => api.post<StartTrialResponse>('/api/trials/', body),
};
