import { AdminApp } from '../features/admin/AdminApp';

/** /admin and everything under it: the operator's dashboard, a code-split part of its own. */
export default function AdminPage() {
  return <AdminApp />;
}
