import { UnsubscribePanel } from '../features/account/UnsubscribePanel';
import { ToolsLayout } from '../layout/ToolsLayout';

/** /unsubscribe?token=… (issue 33): where an email's unsubscribe link lands, signed in or not. */
export default function UnsubscribePage() {
  return (
    <ToolsLayout>
      <div className="mx-auto max-w-3xl px-5 py-12 sm:px-6 md:py-16">
        <h1 className="text-3xl font-bold tracking-tight text-brand-900 sm:text-4xl">Email preferences</h1>
        <div className="mt-6">
          <UnsubscribePanel />
        </div>
      </div>
    </ToolsLayout>
  );
}
