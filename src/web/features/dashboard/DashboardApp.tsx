import './dashboard.css';
import { useCallback, useEffect, useState } from 'react';
import { Route, Switch } from 'wouter';
import type { DashboardStatus } from '../../../shared/dashboard';
import { ActivityScreen } from './ActivityScreen';
import { dashboardApi } from './api';
import { CouponScreen } from './CouponScreen';
import { CouponsScreen } from './CouponsScreen';
import { CustomerScreen, CustomersScreen } from './CustomersScreen';
import { DashboardLayout } from './DashboardLayout';
import { EnrolScreen } from './EnrolScreen';
import { GateShell } from './GateShell';
import { InvoicesScreen } from './InvoicesScreen';
import { ScreenLink } from './links';
import { MailScreen } from './MailScreen';
import { MessagesScreen } from './MessagesScreen';
import { NoAccessScreen } from './NoAccessScreen';
import { OrderScreen } from './OrderScreen';
import { OrdersScreen } from './OrdersScreen';
import { OverviewScreen } from './OverviewScreen';
import { RefundRequestsScreen } from './RefundRequestsScreen';
import { SignInScreen } from './SignInScreen';
import { ToolEditScreen } from './ToolEditScreen';
import { ToolsScreen } from './ToolsScreen';
import { ScreenTitle, useScreenTitle } from './ui';
import { SessionLostContext } from './useDashboardData';
import { VerifyScreen } from './VerifyScreen';
import { WebhookScreen } from './WebhookScreen';
import { WebhooksScreen } from './WebhooksScreen';

function UnknownScreen() {
  useScreenTitle('Not found');
  return (
    <>
      <ScreenTitle title="Not found" />
      <p className="text-slate-700">
        The dashboard has no such screen. <ScreenLink to="/admin">Back to the overview</ScreenLink>
      </p>
    </>
  );
}

/**
 * The operator's dashboard: asks the server where the visitor stands, walks them through sign-in, enrolment or the
 * second factor, and only then shows the screens. Prerendered in its first state (loading), so hydration matches.
 */
export function DashboardApp() {
  const [status, setStatus] = useState<DashboardStatus | 'loading' | 'unreachable'>('loading');
  const refresh = useCallback(() => {
    dashboardApi.status().then(setStatus, () => setStatus('unreachable'));
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
          <DashboardLayout email={status.email} onSignedOut={refresh}>
            <Switch>
              <Route path="/admin" component={OverviewScreen} />
              <Route path="/admin/orders" component={OrdersScreen} />
              <Route path="/admin/orders/:id" component={OrderScreen} />
              <Route path="/admin/customers" component={CustomersScreen} />
              <Route path="/admin/customers/:id" component={CustomerScreen} />
              <Route path="/admin/tools" component={ToolsScreen} />
              <Route path="/admin/tools/new" component={ToolEditScreen} />
              <Route path="/admin/tools/:id" component={ToolEditScreen} />
              <Route path="/admin/coupons" component={CouponsScreen} />
              <Route path="/admin/coupons/:id" component={CouponScreen} />
              <Route path="/admin/refund-requests" component={RefundRequestsScreen} />
              <Route path="/admin/messages" component={MessagesScreen} />
              <Route path="/admin/mail" component={MailScreen} />
              <Route path="/admin/invoices" component={InvoicesScreen} />
              <Route path="/admin/webhooks" component={WebhooksScreen} />
              <Route path="/admin/webhooks/:id" component={WebhookScreen} />
              <Route path="/admin/activity" component={ActivityScreen} />
              <Route component={UnknownScreen} />
            </Switch>
          </DashboardLayout>
        </SessionLostContext.Provider>
      );
  }
}
