import { DashboardApp } from '../features/dashboard/DashboardApp';

/** /admin and everything under it: the operator's dashboard, a code-split part of its own. */
export default function AdminPage() {
  return <DashboardApp />;
}
