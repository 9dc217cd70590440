import './admin.css';
import { useCallback, useEffect, useState } from 'react';
import { Link, Route, Routes } from 'react-router';
import type { DashboardStatus } from '../../../shared/dashboard';
import { ActivityScreen } from './ActivityScreen';
import { AdminLayout } from './AdminLayout';
import { adminApi } from './api';
import { CustomerScreen, CustomersScreen } from './CustomersScreen';
import { EnrolScreen } from './EnrolScreen';
import { GateShell } from './GateShell';
import { InvoicesScreen } from './InvoicesScreen';
import { MailScreen } from './MailScreen';
import { MessagesScreen } from './MessagesScreen';
import { NoAccessScreen } from './NoAccessScreen';
import { OrderScreen } from './OrderScreen';
import { OrdersScreen } from './OrdersScreen';
import { OverviewScreen } from './OverviewScreen';
import { SignInScreen } from './SignInScreen';
import { ToolEditScreen } from './ToolEditScreen';
import { ToolsScreen } from './ToolsScreen';
import { ScreenTitle, useScreenTitle } from './ui';
import { SessionLostContext } from './useAdminData';
import { VerifyScreen } from './VerifyScreen';

function UnknownScreen() {
  useScreenTitle('Not found');
  return (
    <>
      <ScreenTitle title="Not found" />
      <p className="text-slate-700">
        The dashboard has no such screen.{' '}
        <Link to="/admin" className="font-medium text-brand-700 underline underline-offset-2">
          Back to the overview
        </Link>
      </p>
    </>
  );
}

/**
 * The operator's dashboard: asks the server where the visitor stands, walks them through sign-in, enrolment or the
 * second factor, and only then shows the screens. Prerendered in its first state (loading), so hydration matches.
 */
export function AdminApp() {
  const [status, setStatus] = useState<DashboardStatus | 'loading' | 'unreachable'>('loading');
  const refresh = useCallback(() => {
    adminApi.status().then(setStatus, () => setStatus('unreachable'));
  }, []);
  useEffect(refresh, [refresh]);

  if (status === 'loading' || status === 'unreachable') {
    return (
      <GateShell title="Dashboard">
        <p role="status" className="text-slate-700">
          {status === 'loading'
            ? 'Loading the dashboard…'
            : 'The dashboard cannot reach the server. Please try again.'}
        </p>
      </GateShell>
    );
  }
  switch (status.state) {
    case 'signed_out':
      return <SignInScreen onSignedIn={refresh} />;
    case 'not_operator':
      return <NoAccessScreen email={status.email} onSignedOut={refresh} />;
    case 'enrol':
      return <EnrolScreen email={status.email} onDone={refresh} />;
    case 'verify':
      return <VerifyScreen email={status.email} onVerified={refresh} onSignedOut={refresh} />;
    case 'ready':
      return (
        <SessionLostContext.Provider value={refresh}>
          <AdminLayout email={status.email} onSignedOut={refresh}>
            <Routes>
              <Route index element={<OverviewScreen />} />
              <Route path="orders" element={<OrdersScreen />} />
              <Route path="orders/:id" element={<OrderScreen />} />
              <Route path="customers" element={<CustomersScreen />} />
              <Route path="customers/:id" element={<CustomerScreen />} />
              <Route path="tools" element={<ToolsScreen />} />
              <Route path="tools/new" element={<ToolEditScreen />} />
              <Route path="tools/:id" element={<ToolEditScreen />} />
              <Route path="messages" element={<MessagesScreen />} />
              <Route path="mail" element={<MailScreen />} />
              <Route path="invoices" element={<InvoicesScreen />} />
              <Route path="activity" element={<ActivityScreen />} />
              <Route path="*" element={<UnknownScreen />} />
            </Routes>
          </AdminLayout>
        </SessionLostContext.Provider>
      );
  }
}
