import { SITE } from '../../../shared/site';

/** The dashboard's page title (each screen's title is put before it) and description. */
export const ADMIN_META = {
  title: `Dashboard — ${SITE.name}`,
  description: `The operator's dashboard of ${SITE.name}.`,
};
